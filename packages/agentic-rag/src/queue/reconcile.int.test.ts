import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { PostgresSql, type Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore, JobStore } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { IngestQueue } from './ingest-queue.js';
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
