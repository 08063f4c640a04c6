import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type EmbeddingServer,
  isSlow,
  sleep,
  sparePort,
  startRedis,
  startTcpProxy,
  truthSummary,
  until,
  useFaultSuite,
  type WorkerProcess,
} from '../../../../test/fault-harness.js';
import { loadConfig } from '../config/index.js';
import type { PostgresSql } from '../db/index.js';
import { stableChunkId } from '../ingest/index.js';
import { createRuntime } from '../runtime/index.js';
import { JobStore } from '../store/index.js';
import { sha256 } from './payloads.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

type ChunkRow = { source_path: string; chunk_id: string; chunk_index: number; text: string } & Record<
  'section_path' | 'start_offset' | 'end_offset' | 'embedding',
  unknown
>;

describe.runIf(DATABASE_URL && REDIS_URL)('the ingest queue under faults (real worker processes)', () => {
  const suite = useFaultSuite({ databaseUrl: DATABASE_URL!, redisUrl: REDIS_URL! });
  const { fixture, cleanups } = suite;
  let sql: PostgresSql;
  let jobs: JobStore;
  let embeddings: EmbeddingServer;
  beforeAll(() => {
    sql = suite.sql();
    embeddings = suite.embeddings();
    jobs = new JobStore(sql);
  });

  async function documentCount(workspace: string): Promise<number> {
    const sqlText = 'SELECT count(*) AS n FROM rag_documents WHERE workspace_id = $1';
    return (await sql.query<{ n: number }>(sqlText, [workspace])).rows[0]!.n;
  }

  /** Everything a chunk is made of but its database ids, in document order. */
  async function chunksOf(workspace: string) {
    const result = await sql.query<ChunkRow>(
      `SELECT d.source_path, c.chunk_id, c.chunk_index, c.text, c.section_path, c.start_offset,
              c.end_offset, c.embedding::text AS embedding
       FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE c.workspace_id = $1 ORDER BY d.source_path, c.chunk_index`,
      [workspace],
    );
    return result.rows;
  }

  const completedIds = (worker: WorkerProcess) =>
    worker.events('job-completed').map((entry) => entry.jobId as string);

  /**
   * The jobs a worker logged as completed, once it logged `ids`: rag_jobs says completed (what
   * waitFor reads) a moment before BullMQ's completed event reaches the worker's log.
   */
  async function loggedCompleted(worker: WorkerProcess, ids: readonly string[]): Promise<string[]> {
    await until(
      () => ids.every((id) => completedIds(worker).includes(id)),
      10_000,
      () => `the worker to log the completion of ${ids.join(', ')}`,
    );
    return completedIds(worker);
  }

  it('hands a SIGKILLed worker’s job to a second worker, which stores the document exactly once', async () => {
    const f = await fixture();
    const section = (title: string, sentence: string) =>
      `## ${title}\n\n${`${sentence} `.repeat(40).trim()}\n`;
    await f.write(
      'handbook.md',
      [
        '# Depot handbook\n',
        section('Opening hours', 'The depot opens at six and closes at ten every weekday.'),
        section('Cold chain', 'Refrigerated trailers use dock seven; SLOW unloading is expected.'),
        section('Returns', 'Returned parcels are scanned twice before they go back on a shelf.'),
        section('Carriers', 'A carrier is suspended after three failed pickups in one week.'),
      ].join('\n'),
    );
    const first = await f.startWorker();
    const { ids } = await f.queue.enqueuePaths(f.workspace, [f.corpus]);
    expect(ids).toHaveLength(1);
    const id = ids[0]!;

    await until(
      () => embeddings.calls(f.model).some((call) => isSlow(call) && !call.answered),
      20_000,
      () => 'the first worker to be embedding the SLOW text',
    );
    expect(await jobs.get(id)).toMatchObject({ status: 'active', attempts: 1 });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await documentCount(f.workspace)).toBe(0);

    const second = await f.startWorker();
    expect(await f.queue.waitFor([id], undefined, 40_000)).toEqual({ completed: 1, dead: 0 });
    expect(completedIds(first)).toEqual([]);
    expect(await loggedCompleted(second, [id])).toEqual([id]);
    // The killed worker never stored its embeddings, so the second one asked again.
    expect(embeddings.calls(f.model).filter(isSlow)).toHaveLength(2);
    expect(await f.queue.queue.getJobState(id)).toBe('completed');

    const runtime = await createRuntime({ config: loadConfig(f.env), sql });
    try {
      const summary = await runtime.pipeline.ingestFile(f.inlineWorkspace, f.corpus, 'handbook.md');
      expect(summary.failures).toEqual([]);
    } finally {
      await runtime.close();
    }
    const queued = await chunksOf(f.workspace);
    const inline = await chunksOf(f.inlineWorkspace);
    expect(queued.length).toBeGreaterThanOrEqual(3);
    expect(await documentCount(f.workspace)).toBe(1);
    const content = ({ chunk_id: _id, ...rest }: (typeof queued)[number]) => rest;
    expect(queued.map(content)).toEqual(inline.map(content));
    expect(queued.map((chunk) => chunk.chunk_index)).toEqual(queued.map((_, index) => index));
    for (const [workspace, chunks] of [
      [f.workspace, queued],
      [f.inlineWorkspace, inline],
    ] as const) {
      expect(new Set(chunks.map((chunk) => chunk.chunk_id)).size).toBe(chunks.length);
      expect(chunks.map((chunk) => chunk.chunk_id)).toEqual(
        chunks.map((chunk) => stableChunkId(workspace, chunk.source_path, chunk.chunk_index, chunk.text)),
      );
    }
  }, 90_000);

  it('sends a poison document to the DLQ after its attempts, and a retry succeeds once it is fixed', async () => {
    const f = await fixture({ attempts: 3 });
    await f.write('dock.md', '# Dock\n\nDock 7 is for refrigerated trailers.\n');
    await f.write('rates.md', '# Rates\n\nRate shopping compares quotes from every active carrier.\n');
    await f.write('poison.md', '# Poison\n\nThis paragraph is POISON to the embedding server.\n');
    const worker = await f.startWorker();
    const { ids } = await f.queue.enqueuePaths(f.workspace, [f.corpus]);
    expect(ids).toHaveLength(3);
    expect(await f.queue.waitFor(ids, undefined, 30_000)).toEqual({ completed: 2, dead: 1 });

    const letters = await f.queue.listDeadLetters();
    expect(letters).toHaveLength(1);
    const poisonId = letters[0]!.id;
    expect(letters[0]).toMatchObject({
      attempts: 3,
      error: expect.stringContaining('embedding server answered 500 after 1 attempts'),
      payload: { workspaceId: f.workspace, source: { type: 'file', relativePath: 'poison.md' } },
    });
    expect(await jobs.get(poisonId)).toMatchObject({ status: 'dead', attempts: 3 });
    const completed = ids.filter((id) => id !== poisonId);
    expect((await loggedCompleted(worker, completed)).sort()).toEqual(completed.sort());
    const failures = worker.events('job-failed').filter((entry) => entry.jobId === poisonId);
    expect(failures.map((entry) => [entry.attempt, entry.dead, entry.code])).toEqual([
      [1, false, 'EMBEDDER_UNAVAILABLE'],
      [2, false, 'EMBEDDER_UNAVAILABLE'],
      [3, true, 'EMBEDDER_UNAVAILABLE'],
    ]);
    // One HTTP call per queue attempt: the retries are the queue's, not the HTTP client's.
    const poisonCalls = () =>
      embeddings.calls(f.model).filter((call) => call.inputs.some((text) => text.includes('Poison')));
    expect(poisonCalls()).toHaveLength(3);
    expect(await documentCount(f.workspace)).toBe(2);

    await f.write('poison.md', '# Poison\n\nThis paragraph is harmless to the embedding server now.\n');
    expect(await f.queue.retryDeadLetters()).toEqual([poisonId]);
    expect(await f.queue.waitFor([poisonId], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    expect(await f.queue.listDeadLetters()).toEqual([]);
    expect(await jobs.get(poisonId)).toMatchObject({ status: 'completed', attempts: 1, error: null });
    expect(poisonCalls()).toHaveLength(4);
    expect(await documentCount(f.workspace)).toBe(3);
  });

  it('retries jobs through a Postgres outage and completes them all once it is back', async () => {
    const target = new URL(DATABASE_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(proxy.close);
    const proxied = new URL(DATABASE_URL!);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const f = await fixture({ attempts: 10, databaseUrl: proxied.toString() });
    for (const name of ['alpha', 'bravo', 'charlie'])
      await f.write(`${name}.md`, `# ${name}\n\nThe ${name} depot ships parcels every night.\n`);
    const worker = await f.startWorker();

    await proxy.cut();
    const { ids } = await f.queue.enqueuePaths(f.workspace, [f.corpus]);
    expect(ids).toHaveLength(3);
    await sleep(3000);
    expect(await documentCount(f.workspace)).toBe(0);
    for (const id of ids) expect(await jobs.get(id)).toMatchObject({ status: 'queued' });
    await proxy.restore();

    expect(await f.queue.waitFor(ids, undefined, 40_000)).toEqual({ completed: 3, dead: 0 });
    expect((await loggedCompleted(worker, ids)).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      // Each job failed at least once while Postgres was away, and the queue tried it again.
      expect((await jobs.get(id))!.attempts).toBeGreaterThan(1);
      expect((await f.queue.queue.getJob(id))!.attemptsMade).toBeGreaterThan(0);
      const failed = worker.events('job-failed').filter((entry) => entry.jobId === id);
      expect(failed.map((entry) => entry.code)).toContain('STORE_UNAVAILABLE');
    }
    expect(await documentCount(f.workspace)).toBe(3);
  });

  it('survives a Redis restart mid-run: the worker reconnects and every job completes', async () => {
    const port = await sparePort();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rag-faults-redis-'));
    let redis = await startRedis(port, dir);
    cleanups.push(async () => {
      await redis.stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    const f = await fixture({ redisUrl: `redis://127.0.0.1:${port}` });
    // The producer's connection reconnects quietly: nothing is printed while Redis is away.
    const printed = vi.spyOn(console, 'error');
    cleanups.push(async () => printed.mockRestore());
    // Enqueued in name order: the two SLOW ones take both worker slots, the rest wait in Redis.
    for (const name of ['one', 'two'])
      await f.write(`1-slow-${name}.md`, `# slow ${name}\n\nThis SLOW document takes a while to embed.\n`);
    for (const name of ['one', 'two', 'three', 'four'])
      await f.write(`2-quick-${name}.md`, `# quick ${name}\n\nThis document embeds at once.\n`);
    const worker = await f.startWorker();
    const { ids } = await f.queue.enqueuePaths(f.workspace, [f.corpus]);
    expect(ids).toHaveLength(6);

    await until(
      () => embeddings.calls(f.model).some((call) => isSlow(call) && !call.answered),
      20_000,
      () => 'a SLOW document in the middle of its embedding',
    );
    const statuses = await Promise.all(ids.map(async (id) => (await jobs.get(id))!.status));
    expect(statuses.filter((status) => status === 'queued').length).toBeGreaterThan(0);
    await redis.stop('SIGTERM');
    await sleep(1000);
    redis = await startRedis(port, dir);

    expect(await f.queue.waitFor(ids, undefined, 60_000)).toEqual({ completed: 6, dead: 0 });
    const states = async () => new Set(await Promise.all(ids.map((id) => f.queue.queue.getJobState(id))));
    await until(
      async () => [...(await states())].join() === 'completed',
      30_000,
      () => 'Redis to agree',
    );
    expect(worker.child.exitCode).toBeNull();
    // The outage is reported as worker-error log lines, not as stack traces printed by BullMQ.
    expect(worker.events('worker-error')).not.toEqual([]);
    expect(worker.stray()).toEqual([]);
    expect(printed).not.toHaveBeenCalled();
    expect(new Set(await loggedCompleted(worker, ids))).toEqual(new Set(ids));
    expect(await documentCount(f.workspace)).toBe(6);
  }, 90_000);

  it('runs one job for the same document enqueued 100 times at once', async () => {
    const f = await fixture();
    const worker = await f.startWorker();
    const content = '# Same\n\nThe same document, enqueued a hundred times at once.\n';
    const payload = {
      workspaceId: f.workspace,
      source: { type: 'inline' as const, id: 'notes/same.md', content },
      contentHash: sha256(content),
    };
    const ids = await Promise.all(Array.from({ length: 100 }, () => f.queue.enqueue(payload)));
    expect(new Set(ids).size).toBe(1);
    const id = ids[0]!;
    const everyState = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'] as const;
    const jobsInRedis = Object.values(await f.queue.queue.getJobCounts(...everyState));
    expect(jobsInRedis.reduce((total, count) => total + count, 0)).toBe(1);

    expect(await f.queue.waitFor([id], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    await until(
      async () => {
        const counts = await f.queue.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((count) => count === 0);
      },
      10_000,
      () => 'the queue to be idle',
    );
    expect(await f.queue.queue.getJobCounts('completed', 'failed')).toEqual({ completed: 1, failed: 0 });
    expect(await loggedCompleted(worker, [id])).toEqual([id]);
    expect(embeddings.calls(f.model)).toHaveLength(1);
    expect(await documentCount(f.workspace)).toBe(1);
    const bookkept = 'SELECT id, status, attempts FROM rag_jobs WHERE workspace_id = $1';
    expect((await sql.query(bookkept, [f.workspace])).rows).toEqual([
      { id, status: 'completed', attempts: 1 },
    ]);
    const truth = await truthSummary(
      sql,
      'same file enqueued 100 times',
      f.workspace,
      [{ sourcePath: 'notes/same.md', text: 'enqueued a hundred times' }],
      [],
    );
    expect(truth).toMatchObject({ expected: 1, stored: 1, lost: 0, duplicated: 0, stale: 0 });
  });
});
