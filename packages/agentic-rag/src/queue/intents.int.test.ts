import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore, JobStore } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { IngestQueue } from './ingest-queue.js';
import { startIngestWorker, type IngestWorker } from './worker.js';

const V1 = '# Dock\n\nDock 7 takes refrigerated trailers.\n';
const V2 = '# Dock\n\nDock 7 is closed for repairs.\n';

/**
 * A write made outside the queue (the inline mode, `rag:ingest --inline`) is an intent too: a job
 * queued before it must not overwrite it, and the older bytes queued again after it are a new job.
 */
describe.runIf(process.env.REDIS_URL)('queued jobs and writes made outside the queue', () => {
  let sql: Sql;
  let queue: IngestQueue;
  let pipeline: IngestPipeline;
  let worker: IngestWorker | null = null;
  let config: ReturnType<typeof loadConfig>;
  const ws = uniqueWorkspace('intents');

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: `intents-${randomUUID().slice(0, 8)}`,
      LOG_LEVEL: 'silent',
    });
    queue = new IngestQueue(config, new JobStore(sql));
    pipeline = new IngestPipeline({
      store: new CorpusStore(sql),
      embedder: new DeterministicEmbedder(),
      maxTokens: 400,
      overlapTokens: 60,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await sql.query('DELETE FROM rag_document_intents WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await sql.close();
  });

  const stored = async () =>
    (await sql.query<{ content: string }>('SELECT content FROM rag_documents WHERE workspace_id = $1', [ws]))
      .rows[0]?.content;

  it('lets a direct write supersede a job queued before it, and queues the older bytes anew after', async () => {
    const queued = await queue.enqueueInline(ws, 'notes/dock.md', V1);
    const direct = await pipeline.ingestInline(ws, [{ id: 'notes/dock.md', content: V2 }]);
    expect(direct.documents.added).toBe(1);

    worker = await startIngestWorker({
      config,
      logger: silentLogger,
      jobs: new JobStore(sql),
      pipeline,
    });
    expect(await queue.waitFor([queued], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    expect((await new JobStore(sql).get(queued))?.result).toMatchObject({ superseded: true });
    expect(await stored()).toContain('closed for repairs');

    const again = await queue.enqueueInline(ws, 'notes/dock.md', V1);
    expect(again).not.toBe(queued);
    expect(await queue.waitFor([again], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    expect(await stored()).toContain('refrigerated trailers');
  });
});
