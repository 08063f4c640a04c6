import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import {
  createJsonLogger,
  IngestQueue,
  JobStore,
  loadConfig,
  PostgresSql,
  startTracing,
  type Tracing,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');

/** One sample of a Prometheus text exposition, by metric name and (a subset of) its labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

const DOCUMENTS = [
  {
    id: 'guides/locations.md',
    content:
      '# Locations\n\nCreate a location with POST /locations; the address is validated synchronously.\n',
  },
  {
    id: 'guides/pallets.md',
    content: '# Pallets\n\nPallets at the Reno hub hold at most 1,200 kg of freight.\n',
  },
];

const ANSWER = `mutation Answer($input: RagAnswerInput!) { ragAnswer(input: $input) { answer runId traceId cached } }`;

/** The real API on the test database, its log lines captured; a metrics registry of its own (one per test file). */
describe('API /metrics, request-scoped logs and trace continuation', () => {
  const lines: string[] = [];
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  const ws = uniqueWorkspace('obs');
  let server: Server;
  let stop: () => Promise<void>;
  let close: () => Promise<void>;
  let base: string;
  let authorization: string;

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      AGENTIC_RAG_INGEST_MODE: 'inline',
    });
    const logger = createJsonLogger({ level: 'info', write: (line) => lines.push(line) });
    tracing = startTracing({ config, serviceName: 'agentic-rag-api', exporter });
    const runtime = await createRuntime({ config, sql, logger });
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    ({ server, stop } = await createApi(access.service));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await dropWorkspace(sql, ws);
      await new Promise((resolve) => server.close(resolve));
      await stop();
      await runtime.close();
      await sql.close();
      await tracing.shutdown();
    };
  });

  afterAll(async () => close());

  const graphql = async (query: string, variables?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body: JSON.stringify({ query, variables }),
    });
    // Response shapes differ per query; the assertions are what check them.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { response, body: (await response.json()) as { data?: Record<string, any>; errors?: unknown[] } };
  };
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('counts requests, operations, stages, retrieval scores, cache lookups and ingests on /metrics', async () => {
    const ingest = await graphql(
      `mutation { ingestDocuments(input: {workspaceId: "${ws}", documents: [${DOCUMENTS.map(
        (document) => `{id: ${JSON.stringify(document.id)}, content: ${JSON.stringify(document.content)}}`,
      ).join(', ')}]}) { mode summary { documents { added } chunks } } }`,
    );
    expect(ingest.body.data!.ingestDocuments.summary.documents.added).toBe(2);
    const search = await graphql(
      `{ search(input: {query: "create a location", workspaceId: "${ws}"}) { hits { sourceId } } }`,
    );
    expect(search.body.data!.search.hits.length).toBeGreaterThan(0);
    const question = { input: { query: 'How do I create a location?', workspaceId: ws } };
    expect((await graphql(ANSWER, question)).body.data!.ragAnswer.cached).toBe(false);
    expect((await graphql(ANSWER, question)).body.data!.ragAnswer.cached).toBe(true);
    expect((await graphql('{ nope }')).response.status).toBe(400);
    expect((await fetch(`${base}/no/such/route/${randomUUID()}`)).status).toBe(404);

    const scrape = await fetch(`${base}/metrics`, { headers: { authorization } });
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    const text = await scrape.text();
    const http = 'agentic_rag_http_request_duration_seconds_count';
    expect(sample(text, http, { method: 'POST', route: '/graphql', status_code: '200' })).toBe(4);
    expect(sample(text, http, { method: 'POST', route: '/graphql', status_code: '400' })).toBe(1);
    // Any unknown path is one series: a scanner cannot mint a series per URL.
    expect(sample(text, http, { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    const operations = 'agentic_rag_graphql_operation_duration_seconds_count';
    expect(sample(text, operations, { operation: 'mutation', field: 'ragAnswer', outcome: 'ok' })).toBe(2);
    expect(sample(text, operations, { operation: 'query', field: 'search', outcome: 'ok' })).toBe(1);
    expect(sample(text, operations, { operation: 'mutation', field: 'ingestDocuments', outcome: 'ok' })).toBe(
      1,
    );
    expect(sample(text, operations, { operation: 'unknown', field: 'unknown', outcome: 'error' })).toBe(1);
    // The second answer came from the cache: its stages ran once.
    for (const stage of ['plan', 'rewrite', 'retrieve', 'synthesize', 'self-check']) {
      expect(sample(text, 'agentic_rag_stage_duration_seconds_count', { stage })).toBe(1);
    }
    expect(sample(text, 'agentic_rag_answer_cache_lookups_total')).toBeUndefined();
    expect(sample(text, 'agentic_rag_cache_lookups_total', { cache: 'answer', result: 'miss' })).toBe(1);
    expect(sample(text, 'agentic_rag_cache_lookups_total', { cache: 'answer', result: 'hit' })).toBe(1);
    expect(sample(text, 'agentic_rag_answers_total', { outcome: 'answered' })).toBe(1);
    expect(sample(text, 'agentic_rag_answers_total', { outcome: 'cached' })).toBe(1);
    for (const channel of ['vector', 'lexical']) {
      expect(sample(text, 'agentic_rag_retrieval_score_count', { channel })).toBeGreaterThan(0);
      // Cosine similarities of returned hits sit in (0, 1]: every one falls in the `le="1"` bucket.
      if (channel === 'vector') {
        expect(sample(text, 'agentic_rag_retrieval_score_bucket', { channel, le: '1' })).toBe(
          sample(text, 'agentic_rag_retrieval_score_count', { channel }),
        );
      }
    }
    expect(sample(text, 'agentic_rag_ingest_documents_total', { outcome: 'added' })).toBe(2);
    expect(sample(text, 'agentic_rag_ingest_chunks_total')).toBe(
      ingest.body.data!.ingestDocuments.summary.chunks,
    );
    expect(sample(text, 'agentic_rag_process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('answers with the caller’s x-request-id, or a new one, and puts it on the request’s log lines', async () => {
    const requestId = `agent-${randomUUID()}`;
    const { response, body } = await graphql(
      ANSWER,
      { input: { query: 'How heavy can a pallet at the Reno hub be?', workspaceId: ws } },
      { 'x-request-id': requestId },
    );
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const { runId, traceId } = body.data!.ragAnswer as { runId: string; traceId: string };
    const mine = entries().filter((entry) => entry.requestId === requestId);
    // LOG_RETRIEVAL_STATS (on by default) adds the context's stats line, under the same ids.
    expect(mine.map((entry) => entry.event)).toEqual(['retrieval-stats', 'answer-done', 'http-request']);
    expect(mine[0]).toMatchObject({ level: 'info', runId, traceId, workspaceId: ws });
    expect(mine[1]).toMatchObject({ level: 'info', runId, traceId, workspaceId: ws, cached: false });
    expect(mine[2]).toMatchObject({ method: 'POST', route: '/graphql', status: 200, aborted: false });

    // A header that is not a plain token is replaced, never copied into the logs.
    const forged = await graphql(
      ANSWER,
      { input: { query: 'pallets', workspaceId: ws } },
      {
        'x-request-id': 'x","level":"fatal',
      },
    );
    const generated = forged.response.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      entries()
        .filter((entry) => entry.requestId === generated)
        .map((entry) => entry.event),
    ).toEqual(['retrieval-stats', 'answer-done', 'http-request']);
  });

  it('continues a caller’s traceparent through the request span into ragAnswer; scrapes make no spans', async () => {
    const callerTrace = randomUUID().replaceAll('-', '');
    const callerSpan = randomUUID().replaceAll('-', '').slice(0, 16);
    // Spans of the earlier tests still in the batch: out of the exporter before this request.
    await tracing.flush();
    exporter.reset();
    const { response, body } = await graphql(
      ANSWER,
      { input: { query: 'What does a pallet at the Reno hub hold?', workspaceId: ws } },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    expect(body.data!.ragAnswer.traceId).toBe(callerTrace);
    await fetch(`${base}/metrics`, { headers: { authorization } });
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'POST /graphql')!;
    expect(request.spanContext().traceId).toBe(callerTrace);
    expect(request.parentSpanContext?.spanId).toBe(callerSpan);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/graphql',
      'http.response.status_code': 200,
      'rag.request_id': response.headers.get('x-request-id'),
    });
    const root = spans.find((span) => span.name === 'ragAnswer')!;
    expect(root.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(root.attributes['rag.run_id']).toBe(body.data!.ragAnswer.runId);
    expect(spans.filter((span) => span.name.endsWith('/metrics'))).toEqual([]);
  });
});

/** A real `pnpm worker` process on the test Postgres and Redis, scraped on its metrics port. */
describe.runIf(process.env.REDIS_URL && process.env.TEST_DATABASE_URL)('worker /metrics', () => {
  const ws = uniqueWorkspace('obs-worker');
  const queueName = `obs-${randomUUID().slice(0, 8)}`;
  let child: ChildProcess;
  let output: () => string;
  let queue: IngestQueue;
  let sql: PostgresSql;
  let base: string;
  const WORKER_METRICS_TOKEN = `scrape-${randomUUID()}`;

  /** `pnpm worker` on this queue; `output()` is everything it printed. */
  const spawnWorker = (metricsPort: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(env))
      if (/^(AGENTIC_RAG_|RAG_|OTEL_|DATABASE_URL)/.test(key)) delete env[key];
    const worker = spawn(process.execPath, ['--import', TSX_LOADER, `${REPO}apps/worker/src/main.ts`], {
      cwd: REPO,
      env: {
        ...env,
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        REDIS_URL: process.env.REDIS_URL,
        AGENTIC_RAG_QUEUE_NAME: queueName,
        AGENTIC_RAG_JOB_ATTEMPTS: '1',
        AGENTIC_RAG_WORKER_METRICS_PORT: metricsPort,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        METRICS_TOKEN: WORKER_METRICS_TOKEN,
      },
    });
    let printed = '';
    worker.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    return { child: worker, exited, output: () => printed };
  };

  beforeAll(async () => {
    const worker = spawnWorker('0');
    child = worker.child;
    output = worker.output;
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /"event":"worker-ready".*"metricsPort":(\d+)/.exec(output());
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        } else if (child.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`worker exited with ${child.exitCode}:\n${output()}`));
        }
      }, 100);
    });
    base = `http://127.0.0.1:${port}`;
    sql = new PostgresSql({ connectionString: process.env.TEST_DATABASE_URL!, maxConnections: 2 });
    queue = new IngestQueue(
      loadConfig({ REDIS_URL: process.env.REDIS_URL, AGENTIC_RAG_QUEUE_NAME: queueName }),
      new JobStore(sql),
    );
  });

  afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await sql.close();
  });

  it('reports job outcomes, queue depth by state and the dead-letter queue', async () => {
    const good = await queue.enqueueInline(
      ws,
      'notes/dock.md',
      `# Dock\n\nDock seven is cold (${randomUUID()}).\n`,
    );
    // No loader reads .exe: unrecoverable, so it goes to the dead-letter queue at once.
    const poison = await queue.enqueueInline(ws, 'notes/tool.exe', 'MZ binary');
    expect(await queue.waitFor([good, poison], undefined, 30_000)).toEqual({ completed: 1, dead: 1 });

    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const refused = await fetch(`${base}/metrics`);
    expect(refused.status).toBe(401);
    const authorization = `Bearer ${WORKER_METRICS_TOKEN}`;
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization } })).text();
    expect(sample(text, 'agentic_rag_jobs_total', { kind: 'ingest-document', outcome: 'completed' })).toBe(1);
    expect(sample(text, 'agentic_rag_jobs_total', { kind: 'ingest-document', outcome: 'dead' })).toBe(1);
    expect(sample(text, 'agentic_rag_job_duration_seconds_count', { kind: 'ingest-document' })).toBe(2);
    expect(sample(text, 'agentic_rag_queue_jobs', { queue: queueName, state: 'completed' })).toBe(1);
    expect(sample(text, 'agentic_rag_queue_jobs', { queue: queueName, state: 'failed' })).toBe(1);
    expect(sample(text, 'agentic_rag_queue_jobs', { queue: queueName, state: 'waiting' })).toBe(0);
    expect(sample(text, 'agentic_rag_dead_letter_jobs', { queue: queueName })).toBe(1);
    expect(sample(text, 'agentic_rag_ingest_documents_total', { outcome: 'added' })).toBe(1);
    expect(output()).toContain(`"event":"job-failed","attempt":1,"dead":true`);
  });

  it('stops before taking any job when its metrics port is taken', async () => {
    const taken = new URL(base).port;
    const second = spawnWorker(taken);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `worker failed to start: metrics port ${taken} is already in use (set AGENTIC_RAG_WORKER_METRICS_PORT; 0 picks a free one)`,
    );
    expect(second.output()).not.toContain('"event":"worker-ready"');
  });
});
