import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { startIngestWorker, type IngestWorker } from '../queue/index.js';
import { createRuntime, type RagRuntime } from '../runtime/index.js';
import { startTracing, type Tracing } from './tracing.js';

const DOCUMENTS = [
  {
    id: 'guides/locations.md',
    content:
      '# Locations\n\nA location is a warehouse, store or depot. Create one with POST /locations; the address is validated synchronously.\n\nDelete a location with DELETE /locations/{id} once no shipment uses it.\n',
  },
  {
    id: 'guides/pallets.md',
    content:
      '# Pallets\n\nStandard pallets at the Reno hub hold at most 1,200 kg of freight and stand 1.8 m tall.\n',
  },
];

/**
 * The SDK as the API and the worker start it (startTracing), with an in-memory exporter in place
 * of OTLP, around a real ragAnswer on the test database and a real job on Redis.
 */
describe('traces of ragAnswer and of queued jobs', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let sql: Sql;
  let runtime: RagRuntime;
  const ws = uniqueWorkspace('trace');

  beforeAll(async () => {
    tracing = startTracing({ config: loadConfig({}), serviceName: 'agentic-rag-test', exporter });
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      AGENTIC_RAG_CACHE: 'false',
      AGENTIC_RAG_INGEST_MODE: 'queue',
      AGENTIC_RAG_QUEUE_NAME: `trace-${randomUUID().slice(0, 8)}`,
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL }
        : { AGENTIC_RAG_INGEST_MODE: 'inline' }),
    });
    runtime = await createRuntime({ config, sql, queue: true });
    await runtime.pipeline.ingestInline(ws, DOCUMENTS);
  });

  beforeEach(() => exporter.reset());

  afterAll(async () => {
    await runtime.queue?.queue.obliterate({ force: true });
    await runtime.queue?.deadLetters.obliterate({ force: true });
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await runtime.close();
    await sql.close();
    await tracing.shutdown();
  });

  const finished = async () => {
    await tracing.flush();
    return exporter.getFinishedSpans();
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;

  it('records ragAnswer as a root span with a child span per stage, ids and counts on each', async () => {
    const answer = await runtime.orchestrator.answer({
      query: 'How do I create a location?',
      workspaceId: ws,
    });
    expect(answer.refused).toBe(false);
    const spans = await finished();
    const root = spans.find((span) => span.name === 'ragAnswer')!;
    expect(root).toBeDefined();
    expect(parentOf(root)).toBeUndefined();
    // The answer's traceId is the trace these spans belong to: a client can look the run up.
    expect(root.spanContext().traceId).toBe(answer.traceId);
    expect(root.attributes).toMatchObject({
      'rag.run_id': answer.runId,
      'rag.workspace': ws,
      'rag.cached': false,
      'rag.refused': false,
      'rag.citations': answer.citations.length,
      'rag.self_check.passed': true,
    });

    const children = spans
      .filter((span) => parentOf(span) === idOf(root))
      .sort(
        (left, right) => left.startTime[0] - right.startTime[0] || left.startTime[1] - right.startTime[1],
      );
    expect(children.map((span) => span.name)).toEqual([
      'rag.plan',
      'rag.rewrite',
      'rag.retrieve',
      'rag.quarantine',
      'rag.synthesize',
      'rag.self-check',
    ]);
    for (const child of children) {
      expect(child.spanContext().traceId).toBe(answer.traceId);
      expect(child.attributes).toMatchObject({ 'rag.run_id': answer.runId, 'rag.workspace': ws });
    }
    const [planSpan, rewriteSpan, retrieveSpan, quarantineSpan, synthesizeSpan, checkSpan] = children;
    expect(quarantineSpan!.attributes).toMatchObject({ 'rag.quarantine.units': 0 });
    expect(planSpan!.attributes).toMatchObject({ 'rag.plan.intent': 'general', 'rag.plan.tools': 0 });
    expect(rewriteSpan!.attributes).toMatchObject({ 'rag.rewrite.corrections': 0 });
    const retrieved = retrieveSpan!.attributes;
    const chunks = await sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rag_chunks WHERE workspace_id = $1',
      [ws],
    );
    // The dense channel returns every chunk of so small a workspace.
    expect(retrieved['rag.retrieve.candidates.vector']).toBe(chunks.rows[0]!.n);
    expect(retrieved['rag.retrieve.candidates.lexical']).toBeGreaterThanOrEqual(1);
    expect(retrieved['rag.retrieve.hits']).toBeGreaterThanOrEqual(1);
    expect(retrieved['rag.context.primary']).toBeGreaterThanOrEqual(1);
    expect(retrieved['rag.sources']).toBeGreaterThanOrEqual(1);
    expect(synthesizeSpan!.attributes).toMatchObject({
      'rag.synthesis.method': 'extractive',
      'rag.citations': answer.citations.length,
    });
    expect(checkSpan!.attributes).toMatchObject({
      'rag.self_check.passed': true,
      'rag.self_check.coverage': answer.selfCheck.citationCoverage,
      'rag.self_check.unsupported': 0,
    });
    // Counts and flags only: no attribute carries the question or an answer sentence.
    for (const span of [root, ...children]) {
      for (const value of Object.values(span.attributes)) {
        expect(String(value)).not.toMatch(/location/i);
      }
    }
  });

  it('adds a tools span for a question the plan routes to a tool', async () => {
    const answer = await runtime.orchestrator.answer({ query: 'What is (120 - 20) / 4?', workspaceId: ws });
    const spans = await finished();
    const tools = spans.find((span) => span.name === 'rag.tools')!;
    expect(tools.attributes).toMatchObject({
      'rag.run_id': answer.runId,
      'rag.tools.calls': 1,
      'rag.tools.failed': 0,
    });
    expect(parentOf(tools)).toBe(idOf(spans.find((span) => span.name === 'ragAnswer')!));
  });

  describe.runIf(process.env.REDIS_URL)('a queued job', () => {
    let worker: IngestWorker;

    beforeAll(async () => {
      worker = await startIngestWorker(runtime);
    });

    afterAll(async () => {
      await worker.close();
    });

    it('continues the trace of the span that enqueued it, with its result counts', async () => {
      const enqueued = await trace.getTracer('test').startActiveSpan('test.enqueue', async (span) => {
        try {
          const id = await runtime.queue!.enqueueInline(
            ws,
            'notes/dock.md',
            `# Dock\n\nDock seven takes refrigerated trailers (${randomUUID()}).\n`,
          );
          return { id, spanId: span.spanContext().spanId, traceId: span.spanContext().traceId };
        } finally {
          span.end();
        }
      });
      expect(await runtime.queue!.waitFor([enqueued.id], undefined, 30_000)).toEqual({
        completed: 1,
        dead: 0,
      });
      const spans = await finished();
      const job = spans.find((span) => span.name === 'job.ingest-document')!;
      expect(job).toBeDefined();
      expect(job.spanContext().traceId).toBe(enqueued.traceId);
      expect(parentOf(job)).toBe(enqueued.spanId);
      expect(job.attributes).toMatchObject({
        'rag.job_id': enqueued.id,
        'rag.job_kind': 'ingest-document',
        'rag.workspace': ws,
        'rag.attempt': 1,
        'rag.job.outcome': 'completed',
        'rag.ingest.added': 1,
        'rag.ingest.failed': 0,
      });
      expect(job.attributes['rag.ingest.chunks']).toBeGreaterThanOrEqual(1);
      // rag_jobs keeps the same trace id: a dead letter or `rag:jobs show` leads to this trace.
      expect((await runtime.jobs.get(enqueued.id))?.traceId).toBe(enqueued.traceId);
    });
  });
});
