import { randomUUID } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { PostgresSql, type Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore, JobStore, unfinishedIngests } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { IngestQueue } from './ingest-queue.js';
import type { DeadLetter } from './reconciled-queue.js';
import { Reconciler } from './reconciler.js';
import { queueConnection } from './redis.js';
import { startIngestWorker, type IngestWorker } from './worker.js';

/**
 * A worker whose Postgres is unreachable for every attempt cannot record how its job ended; the
 * producer's wait learns it from BullMQ and corrects rag_jobs.
 */
describe.runIf(process.env.REDIS_URL)('rag_jobs reconciled from the queue', () => {
  let sql: Sql;
  let unreachable: PostgresSql;
  let queue: IngestQueue;
  let worker: IngestWorker;
  const ws = uniqueWorkspace('reconcile');

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: `reconcile-${randomUUID().slice(0, 8)}`,
      AGENTIC_RAG_JOB_ATTEMPTS: '2',
      AGENTIC_RAG_JOB_BACKOFF_MS: '50',
      LOG_LEVEL: 'silent',
    });
    queue = new IngestQueue(config, new JobStore(sql));
    // Port 1: nothing listens, so every query of the worker fails to connect.
    unreachable = new PostgresSql({
      connectionString: 'postgres://postgres@127.0.0.1:1/none',
      maxConnections: 1,
    });
    const pipeline = new IngestPipeline({
      store: new CorpusStore(unreachable),
      embedder: new DeterministicEmbedder(),
      maxTokens: 400,
      overlapTokens: 60,
    });
    worker = await startIngestWorker({
      config,
      logger: silentLogger,
      jobs: new JobStore(unreachable),
      pipeline,
    });
  });

  afterAll(async () => {
    await worker.close();
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await unreachable.close();
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await sql.close();
  });

  it('marks the job dead with its dead letter’s error once BullMQ has failed it', async () => {
    const id = await queue.enqueueInline(ws, 'notes/a.md', '# A\n\nSome text.\n');
    expect((await new JobStore(sql).get(id))?.status).toBe('queued');
    const result = await queue.waitFor([id], undefined, 30_000);
    expect(result).toEqual({ completed: 0, dead: 1 });
    const record = await new JobStore(sql).get(id);
    expect(record).toMatchObject({ status: 'dead', attempts: 2 });
    expect(record?.error).toBeTruthy();
  });
});

/** The reconciler against a real queue and rag_jobs, with no worker: each case sets one state up. */
describe.runIf(process.env.REDIS_URL)('Reconciler', () => {
  let sql: Sql;
  let jobs: JobStore;
  let queue: IngestQueue;
  let reconciler: Reconciler;
  let taker: Worker;
  let redis: Redis;
  const name = `reconciler-${randomUUID().slice(0, 8)}`;
  let ws = uniqueWorkspace('reconciler');

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    jobs = new JobStore(sql);
    // One attempt: a job failed by hand is failed for good.
    const config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: name,
      AGENTIC_RAG_JOB_ATTEMPTS: '1',
      LOG_LEVEL: 'silent',
    });
    queue = new IngestQueue(config, jobs);
    reconciler = new Reconciler(queue, jobs);
    redis = queueConnection(process.env.REDIS_URL!);
    // Takes jobs by hand (getNextJob) to put them in BullMQ's `active` state under a lock.
    taker = new Worker(name, null, {
      connection: queueConnection(process.env.REDIS_URL!),
      autorun: false,
      lockDuration: 60_000,
    });
  });

  afterEach(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await sql.query('DELETE FROM rag_document_intents WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    ws = uniqueWorkspace('reconciler');
  });

  afterAll(async () => {
    await taker.close();
    await redis.quit();
    await queue.close();
    await sql.close();
  });

  const record = async (id: string) => (await jobs.get(id))!;
  const enqueue = (document: string) =>
    queue.enqueueInline(ws, document, `# ${document}\n\nThe text of ${document}.\n`);

  /** The job BullMQ hands out next, now `active` under a lock, as a worker would hold it. */
  async function take(id: string): Promise<{ job: Job; token: string }> {
    const token = randomUUID();
    const job = (await taker.getNextJob(token)) as Job | undefined;
    expect(job?.id).toBe(id);
    await jobs.active(id, 1);
    return { job: job!, token };
  }

  it('enqueues a job the queue lost again, with its inline text from rag_jobs', async () => {
    const id = await enqueue('notes/lost.md');
    await queue.queue.obliterate({ force: true });
    expect(await queue.queue.getJobState(id)).toBe('unknown');

    const report = await reconciler.pass({ idleMs: 0, workspaceId: ws });
    expect(report).toMatchObject({ checked: 1, outcomes: { requeued: 1, alive: 0 }, lost: [] });
    expect(await queue.queue.getJobState(id)).toBe('waiting');
    const job = await queue.queue.getJob(id);
    expect(job?.data).toMatchObject({
      workspaceId: ws,
      source: {
        type: 'inline',
        id: 'notes/lost.md',
        content: '# notes/lost.md\n\nThe text of notes/lost.md.\n',
      },
    });
    expect(await record(id)).toMatchObject({
      status: 'queued',
      error: 'the queue had lost it; queued again',
    });
    // Nothing differs any more: the next pass leaves it alone.
    expect((await reconciler.pass({ idleMs: 0, workspaceId: ws })).outcomes).toMatchObject({
      alive: 1,
      requeued: 0,
    });
  });

  it('enqueues a lost job again at its own generation, so its write still checks the right one', async () => {
    await queue.enqueueInline(ws, 'notes/twice.md', '# Twice\n\nThe first version.\n');
    const id = await queue.enqueueInline(ws, 'notes/twice.md', '# Twice\n\nThe second version.\n');
    await queue.queue.obliterate({ force: true });

    expect((await reconciler.pass({ idleMs: 0, workspaceId: ws })).outcomes).toMatchObject({ requeued: 2 });
    expect((await queue.queue.getJob(id))?.data).toMatchObject({
      generation: 1,
      source: { content: '# Twice\n\nThe second version.\n' },
    });
  });

  it('puts an `active` row whose job is waiting in the queue back to `queued`', async () => {
    const id = await enqueue('notes/waiting.md');
    await jobs.active(id, 1);
    expect(await reconciler.job(await record(id))).toEqual({ outcome: 'retried', reason: '' });
    expect(await record(id)).toMatchObject({ status: 'queued' });
    expect(await queue.queue.getJobState(id)).toBe('waiting');
  });

  it('leaves a job with a live lock alone, and marks it retried once its lock is gone', async () => {
    const id = await enqueue('notes/stalled.md');
    await take(id);
    expect(await queue.queue.getJobState(id)).toBe('active');
    expect(await reconciler.job(await record(id))).toEqual({ outcome: 'alive', reason: '' });
    expect(await record(id)).toMatchObject({ status: 'active' });

    // Its worker died: nobody renews the lock, which expires.
    expect(await redis.del(queue.queue.toKey(`${id}:lock`))).toBe(1);
    expect(await reconciler.job(await record(id))).toEqual({ outcome: 'retried', reason: '' });
    expect(await record(id)).toMatchObject({ status: 'queued' });
  });

  it('records a job BullMQ failed without a dead letter as dead, and writes the letter', async () => {
    const id = await enqueue('notes/failed.md');
    const { job, token } = await take(id);
    await job.moveToFailed(new Error('the worker could not tell Postgres'), token);
    expect(await queue.queue.getJobState(id)).toBe('failed');
    expect(await queue.deadLetters.getJob(id)).toBeUndefined();

    expect(await reconciler.job(await record(id))).toEqual({ outcome: 'dead', reason: '' });
    expect(await record(id)).toMatchObject({ status: 'dead', error: 'the worker could not tell Postgres' });
    const letter = (await queue.deadLetters.getJob(id))?.data as DeadLetter | undefined;
    expect(letter).toMatchObject({
      id,
      error: 'the worker could not tell Postgres',
      payload: { workspaceId: ws, source: { id: 'notes/failed.md' } },
    });
  });

  it('resume lists every unfinished document exactly once', async () => {
    // Dead with its letter: retried from the letter.
    const lettered = await enqueue('notes/lettered.md');
    const taken = await take(lettered);
    await taken.job.moveToFailed(new Error('boom'), taken.token);
    expect((await reconciler.job(await record(lettered))).outcome).toBe('dead');
    // Dead, its letter and its job lost with Redis: retried from rag_jobs.
    const orphan = await enqueue('notes/orphan.md');
    await sql.query(`UPDATE rag_jobs SET status = 'dead', error = 'boom' WHERE id = $1`, [orphan]);
    await queue.queue.remove(orphan);
    // Unfinished and lost: requeued. Unfinished and waiting: alive.
    const lost = await enqueue('notes/lost.md');
    await queue.queue.remove(lost);
    const waiting = await enqueue('notes/waiting.md');
    // Lost with its inline text no longer kept: unrecoverable.
    const gone = await enqueue('notes/gone.md');
    await queue.queue.remove(gone);
    await sql.query('UPDATE rag_jobs SET inline_content = NULL WHERE id = $1', [gone]);

    const result = await reconciler.resume(ws, await unfinishedIngests(sql, ws));
    expect({ ...result, retried: [...result.retried].sort() }).toEqual({
      retried: [lettered, orphan].sort(),
      requeued: [lost],
      alive: [waiting],
      unrecoverable: [
        { document: 'notes/gone.md', reason: 'its inline text is no longer kept: send the document again' },
      ],
    });
    for (const id of [lettered, orphan, lost, waiting])
      expect(await queue.queue.getJobState(id)).toBe('waiting');
    expect(await record(gone)).toMatchObject({ status: 'dead' });
  });
});
