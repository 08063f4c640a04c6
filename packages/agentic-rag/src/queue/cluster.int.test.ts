import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  redisCli,
  startRedisCluster,
  truthSummary,
  until,
  type Fixture,
  type Intended,
  type RedisCluster,
  useFaultSuite,
} from '../../../../test/fault-harness.js';
import type { PostgresSql } from '../db/index.js';
import { JobStore } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { Reconciler } from './reconciler.js';
import { assertNoEviction, queueConnection, queuePrefix } from './redis.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/**
 * The job queue on a real 3-master Redis Cluster this suite makes itself (redis-server with
 * cluster-enabled + redis-cli --cluster create, no Docker), with real `pnpm worker` processes that
 * have REDIS_CLUSTER_NODES and no REDIS_URL. The queue's prefix is a hash tag of its name, so all
 * of its keys (and its dead letters') sit in one slot, on one node.
 */
describe.runIf(DATABASE_URL && REDIS_URL)('the ingest queue on a Redis Cluster', () => {
  const suite = useFaultSuite({ databaseUrl: DATABASE_URL!, redisUrl: REDIS_URL! });
  const { fixture, cleanups } = suite;
  let sql: PostgresSql;
  let cluster: RedisCluster;
  let clusterDir: string;

  beforeAll(async () => {
    sql = suite.sql();
    clusterDir = await mkdtemp(path.join(os.tmpdir(), 'rag-cluster-'));
    cluster = await startRedisCluster(clusterDir);
  });

  afterAll(async () => {
    await cluster?.stop();
    if (clusterDir) await rm(clusterDir, { recursive: true, force: true });
  });

  const documentCount = async (workspace: string) =>
    (
      await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rag_documents WHERE workspace_id = $1', [
        workspace,
      ])
    ).rows[0]!.n;

  /** `count` inline documents, each with a marker no other one contains. */
  const inlineDocuments = (count: number, text: string, from = 0): Array<Intended & { text: string }> =>
    Array.from({ length: count }, (_, offset) => ({
      sourcePath: `notes/doc-${from + offset}.md`,
      text: `Document ${from + offset} ${text} MARK${from + offset}Z.`,
    }));

  async function enqueueAll(f: Fixture, documents: ReadonlyArray<Intended & { text: string }>) {
    const ids: string[] = [];
    for (const document of documents)
      ids.push(await f.queue.enqueueInline(f.workspace, document.sourcePath, `# Doc\n\n${document.text}\n`));
    return ids;
  }

  const clean = { lost: 0, duplicated: 0, stale: 0 };

  it('checks every master for noeviction', async () => {
    const connection = queueConnection({ clusterNodes: cluster.nodes });
    const last = cluster.nodes.at(-1)!;
    try {
      await expect(assertNoEviction(connection, silentLogger)).resolves.toBeUndefined();
      const port = last.split(':')[1]!;
      await redisCli(['-p', port, 'config', 'set', 'maxmemory-policy', 'allkeys-lru']);
      await expect(assertNoEviction(connection, silentLogger)).rejects.toMatchObject({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining(`(node ${last}) has maxmemory-policy allkeys-lru`),
      });
      await redisCli(['-p', port, 'config', 'set', 'maxmemory-policy', 'noeviction']);
    } finally {
      connection.disconnect();
    }
  });

  it('sees a live lock through the hash-tagged prefix, and keeps the dead letters on the queue node', async () => {
    const f = await fixture({ clusterNodes: cluster.nodes });
    const name = f.env.AGENTIC_RAG_QUEUE_NAME!;
    const id = await f.queue.enqueueInline(f.workspace, 'notes/held.md', '# Held\n\nHeld by hand.\n');
    // Takes the job by hand, as a worker would hold it: `active` under a lock.
    const target = { clusterNodes: cluster.nodes };
    const taker = new Worker(name, null, {
      connection: queueConnection(target),
      prefix: queuePrefix(target, name),
      autorun: false,
      lockDuration: 60_000,
    });
    try {
      const job = (await taker.getNextJob(randomUUID())) as Job | undefined;
      expect(job?.id).toBe(id);
      expect(f.queue.queue.toKey(`${id}:lock`)).toBe(`{${name}}:${name}:${id}:lock`);
      expect(await f.queue.isLocked(id)).toBe(true);
      const jobs = new JobStore(sql);
      await jobs.active(id, 1);
      expect(await new Reconciler(f.queue, jobs).job((await jobs.get(id))!)).toEqual({
        outcome: 'alive',
        reason: '',
      });
      await f.queue.deadLetters.add('dead-letter', { id: 'letter' }, { jobId: 'letter' });
      const keys = await cluster.keysByNode(`{${name}}*`);
      console.log(`[cluster] keys of queue {${name}} and its dead letters by node: ${JSON.stringify(keys)}`);
      expect(Object.values(keys).filter((count) => count > 0)).toHaveLength(1);
    } finally {
      await taker.close();
    }
  });

  it('stores 30 documents once with two workers, one of them SIGKILLed mid-run', async () => {
    const f = await fixture({ clusterNodes: cluster.nodes });
    expect(f.env.REDIS_URL).toBeUndefined();
    const files = Array.from({ length: 10 }, (_, index) => ({
      sourcePath: `corpus/file-${index}.md`,
      text: `File ${index} takes a PAUSE to embed FILE${index}Z.`,
    }));
    for (const [index, file] of files.entries())
      await f.write(`file-${index}.md`, `# File\n\n${file.text}\n`);
    const documents = [...inlineDocuments(20, 'takes a PAUSE to embed'), ...files];
    const [doomed, survivor] = await Promise.all([f.startWorker(), f.startWorker()]);
    const ids = await enqueueAll(f, documents.slice(0, 20));
    ids.push(...(await f.queue.enqueuePaths(f.workspace, [f.corpus])).ids);
    expect(ids).toHaveLength(30);

    // Every key of the queue is in its hash tag's slot: one node holds them all.
    const keys = await cluster.keysByNode(`{${f.env.AGENTIC_RAG_QUEUE_NAME}}*`);
    console.log(`[cluster] keys of queue {${f.env.AGENTIC_RAG_QUEUE_NAME}} by node: ${JSON.stringify(keys)}`);
    expect(Object.values(keys).filter((count) => count > 0)).toHaveLength(1);

    await until(
      () => doomed!.events('job-completed').length >= 2,
      30_000,
      () => 'the doomed worker to complete 2 jobs',
    );
    await doomed!.kill();
    const storedBefore = await documentCount(f.workspace);
    expect(storedBefore).toBeLessThan(30);
    expect(await f.queue.waitFor(ids, undefined, 60_000)).toEqual({ completed: 30, dead: 0 });

    const truth = await truthSummary(
      sql,
      `cluster: worker SIGKILLed mid-run (${storedBefore} stored before the kill)`,
      f.workspace,
      documents,
      [],
    );
    expect(truth).toEqual({ expected: 30, stored: 30, ...clean });
    expect(survivor!.events('job-completed').length).toBeGreaterThan(0);
    expect(survivor!.stray()).toEqual([]);
  }, 90_000);

  it('documents per second through the cluster and through the single Redis, 1 and 2 workers', async () => {
    const rates: Record<string, { one: number; two: number }> = {};
    const size = 80;
    for (const backend of ['cluster', 'single'] as const) {
      const f = await fixture(backend === 'cluster' ? { clusterNodes: cluster.nodes } : {});
      const timed = async (from: number) => {
        const documents = inlineDocuments(size, `is timed on the ${backend} Redis`, from);
        // Queued while the queue is paused: what is timed is the workers draining it, not the
        // producer's one-by-one enqueue.
        await f.queue.queue.pause();
        const ids = await enqueueAll(f, documents);
        const started = performance.now();
        await f.queue.queue.resume();
        expect(await f.queue.waitFor(ids, undefined, 30_000)).toEqual({ completed: size, dead: 0 });
        return Math.round((size / ((performance.now() - started) / 1000)) * 10) / 10;
      };
      await f.startWorker();
      const one = await timed(0);
      await f.startWorker();
      const two = await timed(size);
      const truth = await truthSummary(
        sql,
        `throughput on the ${backend} Redis`,
        f.workspace,
        inlineDocuments(2 * size, `is timed on the ${backend} Redis`),
        [],
      );
      expect(truth).toEqual({ expected: 2 * size, stored: 2 * size, ...clean });
      rates[backend] = { one, two };
      // This backend's workers stop before the next one's are timed.
      while (cleanups.length > 0) await cleanups.pop()!();
    }
    console.log(
      `[cluster] documents/s draining ${size} queued inline documents (concurrency 2 per worker): ` +
        `cluster 1 worker ${rates.cluster!.one}, 2 workers ${rates.cluster!.two}; ` +
        `single Redis 1 worker ${rates.single!.one}, 2 workers ${rates.single!.two}`,
    );
  }, 90_000);
});
