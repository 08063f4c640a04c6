import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig, type Config } from '../config/index.js';
import { PostgresSql, type Sql } from '../db/index.js';
import { CachingEmbedder, DeterministicEmbedder, type EmbedOptions, type Embedder } from '../embed/index.js';
import {
  CachingExtractor,
  NumberedEntityExtractor,
  OfflineEntityExtractor,
  PostgresGraphStore,
} from '../graph/index.js';
import { CachingQuestionWriter, LlmQuestionWriter } from '../hyde/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { chatCompletion, sendJson, startChatServer, type ChatServer } from '../llm/chat-test-server.js';
import { OpenAiChatLlm } from '../llm/index.js';
import { CorpusStore, JobStore } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { IngestQueue } from './ingest-queue.js';
import { startIngestWorker, type IngestWorker } from './worker.js';

/** Counts the texts that reach the model, behind the cache: what the provider would bill. */
class CountingEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  texts = 0;
  constructor(private readonly inner: Embedder) {
    this.modelId = inner.modelId;
    this.dimensions = inner.dimensions;
  }
  async embed(options: EmbedOptions) {
    if (options.purpose !== 'query') this.texts += options.texts.length;
    return this.inner.embed(options);
  }
}

/** A long document: 30 sections, each its own chunk at 64 tokens. */
function bigDocument(tag: string): string {
  return Array.from(
    { length: 30 },
    (_, index) =>
      `## Section ${index + 1}\n\nThe \`POST /depots/{depotId}/bays\` endpoint of the ${tag} service assigns bay ${index + 1} to a depot. ` +
      `It returns \`BAY_CONFLICT\` when bay ${index + 1} is taken by the Harbour Freight Desk.\n`,
  ).join('\n');
}

/**
 * A big document's ingest through real workers: split into hyde, embed-chunks and
 * extract-entities jobs on a real Redis, written once by its own job into the real Postgres, and
 * the same chunks, vectors and graph as an unsplit ingest of the same text.
 */
describe.runIf(process.env.REDIS_URL && process.env.TEST_DATABASE_URL)('stage jobs of a big document', () => {
  let sql: Sql;
  let chat: ChatServer;
  let config: Config;
  let queue: IngestQueue;
  const workers: IngestWorker[] = [];
  const counting = new CountingEmbedder(new DeterministicEmbedder({ dimensions: 768 }));
  /** Chunk texts (by a marker) whose question requests fail, and how often they still may. */
  const failing = new Map<string, number>();
  const queued = uniqueWorkspace('stages');
  const inline = uniqueWorkspace('stages-inline');

  const pipelineFor = (database: Sql, embedder: Embedder, llmUrl: string) =>
    new IngestPipeline({
      store: new CorpusStore(database, { graph: new PostgresGraphStore(database) }),
      embedder,
      maxTokens: 64,
      overlapTokens: 0,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()].map(
        (extractor) => new CachingExtractor(extractor, database),
      ),
      questions: new CachingQuestionWriter(
        new LlmQuestionWriter({
          llm: new OpenAiChatLlm({ baseUrl: llmUrl, model: 'questions', maxRetries: 0 }),
          questions: 2,
        }),
        database,
      ),
    });

  beforeAll(async () => {
    sql = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 6 });
    chat = await startChatServer((request, response) => {
      const passage = request.body?.messages?.at(-1)?.content ?? '';
      for (const [marker, left] of failing) {
        if (passage.includes(marker) && left > 0) {
          failing.set(marker, left - 1);
          sendJson(response, 500, { error: { message: 'overloaded' } });
          return;
        }
      }
      const bay = /bay (\d+)/.exec(passage)?.[1] ?? '?';
      sendJson(
        response,
        200,
        chatCompletion({ content: `1. Who assigns bay ${bay}?\n2. Why is bay ${bay} in conflict?` }),
      );
    });
    config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: `stages-${randomUUID().slice(0, 8)}`,
      AGENTIC_RAG_JOB_ATTEMPTS: '2',
      AGENTIC_RAG_JOB_BACKOFF_MS: '20',
      AGENTIC_RAG_STAGE_BATCH_SIZE: '8',
      AGENTIC_RAG_WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'silent',
    });
    const jobs = new JobStore(sql);
    queue = new IngestQueue(config, jobs);
    const pipeline = pipelineFor(sql, new CachingEmbedder(counting, sql), chat.url);
    for (let index = 0; index < 2; index++)
      workers.push(await startIngestWorker({ config, logger: silentLogger, jobs, pipeline }));
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await chat.close();
    for (const ws of [queued, inline]) {
      await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
      await dropWorkspace(sql, ws);
    }
    await sql.close();
  });

  const jobsOf = async (ws: string) =>
    (
      await sql.query<{ kind: string; status: string; n: number }>(
        `SELECT kind, status, count(*)::int AS n FROM rag_jobs WHERE workspace_id = $1
         GROUP BY kind, status ORDER BY kind, status`,
        [ws],
      )
    ).rows;

  it('spreads a big document over stage jobs, pays for each chunk once, and writes what an unsplit ingest writes', async () => {
    // Text no earlier run has seen: the caches are shared by every workspace of the database.
    const text = bigDocument(`yard-${randomUUID().slice(0, 8)}`);
    const small = `# Small\n\nOne paragraph about the ${randomUUID()} service.\n`;
    const ids = [
      await queue.enqueueInline(queued, 'depots/bays.md', text),
      await queue.enqueueInline(queued, 'depots/small.md', small),
    ];
    expect(await queue.waitFor(ids, undefined, 60_000)).toEqual({ completed: 2, dead: 0 });

    const chunkCount = Number(
      (
        await sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
           WHERE c.workspace_id = $1 AND d.source_path = 'depots/bays.md'`,
          [queued],
        )
      ).rows[0]!.n,
    );
    expect(chunkCount).toBeGreaterThan(16);
    const batches = Math.ceil(chunkCount / 8);
    expect(await jobsOf(queued)).toEqual([
      { kind: 'embed-chunks', status: 'completed', n: batches },
      { kind: 'extract-entities', status: 'completed', n: 1 },
      { kind: 'hyde', status: 'completed', n: batches },
      { kind: 'ingest-document', status: 'completed', n: 2 },
    ]);
    // Every chunk's questions asked for once, every text embedded once: the document's own job
    // found all of it in the caches. The small document (one chunk) ran in its own job.
    expect(chat.requests.length).toBe(chunkCount + 1);
    expect(counting.texts).toBe(chunkCount + 1);

    // The same text ingested without the queue, into another workspace: the same chunks, the
    // same vectors (questions included), the same graph.
    const reference = pipelineFor(sql, new DeterministicEmbedder({ dimensions: 768 }), chat.url);
    await reference.ingestInline(inline, [{ id: 'depots/bays.md', content: text }]);
    const compared = await sql.query<{ same_text: number; same_vector: number; total: number }>(
      `SELECT (count(*) FILTER (WHERE a.text = b.text))::int AS same_text,
              (count(*) FILTER (WHERE a.embedding = b.embedding))::int AS same_vector,
              count(*)::int AS total
       FROM rag_chunks a JOIN rag_chunks b ON a.chunk_index = b.chunk_index
       JOIN rag_documents da ON da.id = a.document_id JOIN rag_documents db ON db.id = b.document_id
       WHERE a.workspace_id = $1 AND b.workspace_id = $2
         AND da.source_path = 'depots/bays.md' AND db.source_path = 'depots/bays.md'`,
      [queued, inline],
    );
    expect(compared.rows[0]).toEqual({
      same_text: chunkCount,
      same_vector: chunkCount,
      total: chunkCount,
    });
    const mentions = async (ws: string) =>
      (
        await sql.query<{ entity: string; n: number }>(
          `SELECT e.name AS entity, count(*)::int AS n FROM rag_entity_mentions m
           JOIN rag_entities e ON e.id = m.entity_id JOIN rag_chunks c ON c.id = m.chunk_id
           WHERE c.workspace_id = $1 GROUP BY e.name ORDER BY e.name`,
          [ws],
        )
      ).rows.filter((row) => row.entity !== 'small');
    const graph = await mentions(queued);
    expect(graph.map((row) => row.entity)).toContain('BAY_CONFLICT');
    expect(graph).toEqual(await mentions(inline));
  });

  it('lets a stage job die without losing the document: the document’s job does the missing part', async () => {
    const text = bigDocument(`quay-${randomUUID().slice(0, 8)}`);
    // Both attempts of the hyde job holding section 17 fail; the third request succeeds.
    failing.set('assigns bay 17 to', 2);
    const id = await queue.enqueueInline(queued, 'quay/bays.md', text);
    expect(await queue.waitFor([id], undefined, 60_000)).toEqual({ completed: 1, dead: 0 });

    const letters = await queue.listDeadLetters();
    expect(letters.map((letter) => letter.payload.kind)).toEqual(['hyde']);
    expect(letters[0]!.attempts).toBe(2);
    const stored = await sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE c.workspace_id = $1 AND d.source_path = 'quay/bays.md'`,
      [queued],
    );
    expect(Number(stored.rows[0]!.n)).toBeGreaterThan(16);
    expect((await new JobStore(sql).get(id))?.status).toBe('completed');
  });
});
