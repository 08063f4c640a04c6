import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per process, served on /metrics. Every metric of the service is here,
 * so names stay consistent (base units, `_total` counters) and labels stay low-cardinality: label
 * values come from closed sets (stages, channels, outcomes, route templates, schema field names),
 * never from queries, ids or free-form request text.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'agentic_rag_' });

/** Request latencies: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new Histogram({
  name: 'agentic_rag_http_request_duration_seconds',
  help: 'HTTP requests to the API by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const graphqlOperationDuration = new Histogram({
  name: 'agentic_rag_graphql_operation_duration_seconds',
  help: 'GraphQL operations by operation type, root field and outcome (ok, error)',
  labelNames: ['operation', 'field', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const stageDuration = new Histogram({
  name: 'agentic_rag_stage_duration_seconds',
  help: 'Duration of each ragAnswer stage',
  labelNames: ['stage'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const answersTotal = new Counter({
  name: 'agentic_rag_answers_total',
  help: 'ragAnswer outcomes: answered, refused, cached, failed',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const routedReads = new Counter({
  name: 'agentic_rag_routed_reads_total',
  help: 'Reads that asked for a corpus version, with DATABASE_READ_URL set: where they ran (replica, primary) and replica reads that failed over to the primary (fallback)',
  labelNames: ['target'] as const,
  registers: [metricsRegistry],
});

export const cacheLookups = new Counter({
  name: 'agentic_rag_cache_lookups_total',
  help: 'Cache lookups by cache (answer, embedding) and result (hit, miss, error)',
  labelNames: ['cache', 'result'] as const,
  registers: [metricsRegistry],
});

/**
 * Channels score on their own scales: cosine similarity (vector) lies in -1..1; BM25 (lexical)
 * and the graph channel's sum over entities are unbounded, BM25 rarely above 50. One bucket set
 * covers them all: tenths up to 1, then coarser steps.
 */
export const retrievalScore = new Histogram({
  name: 'agentic_rag_retrieval_score',
  help: 'Raw per-channel scores of the hits retrieval returns, by channel (vector, lexical, graph)',
  labelNames: ['channel'] as const,
  buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 2, 5, 10, 20, 50],
  registers: [metricsRegistry],
});

/**
 * Every call through the tool router. `tool` is a registered tool's name or `unknown` (a name the
 * caller made up must not become a label value); `outcome` is `ok` or the failure's error code in
 * lower case (`tool_timeout`, `invalid_input`, `tool_not_allowed`, ...).
 */
export const toolCalls = new Counter({
  name: 'agentic_rag_tool_calls_total',
  help: 'Tool calls through the tool router by tool and outcome (ok, or the error code in lower case)',
  labelNames: ['tool', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const ingestDocuments = new Counter({
  name: 'agentic_rag_ingest_documents_total',
  help: 'Documents ingested, by outcome: added, updated, unchanged, removed, skipped, failed',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const ingestChunks = new Counter({
  name: 'agentic_rag_ingest_chunks_total',
  help: 'Chunks written (added or replaced) by ingestion',
  registers: [metricsRegistry],
});

/** PDF and .docx files parsed, by format and outcome (`ok`, or the failure code in lower case). */
export const ingestBinaryFiles = new Counter({
  name: 'agentic_rag_ingest_binary_files_total',
  help: 'PDF and .docx files parsed by format (pdf, docx) and outcome (ok, or the failure code in lower case)',
  labelNames: ['format', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** Pages of the PDFs parsed: its rate is the pages/s an ingest reads. */
export const ingestPdfPages = new Counter({
  name: 'agentic_rag_ingest_pdf_pages_total',
  help: 'Pages of the PDF files parsed by ingestion',
  registers: [metricsRegistry],
});

/**
 * Every page request a web crawl made, by outcome: `fetched` (a body ingested), `not_modified`
 * (304), `gone` (404/410), `skipped` (not HTML), `failed` (any other answer, or none).
 */
export const crawlRequests = new Counter({
  name: 'agentic_rag_crawl_requests_total',
  help: 'Page requests of web crawls by outcome: fetched, not_modified, gone, skipped, failed',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/** A model-backed extractor that failed on a document; ingestion went on with the offline facts. */
export const entityExtractionFailures = new Counter({
  name: 'agentic_rag_entity_extraction_failures_total',
  help: 'Documents whose model-based entity extraction failed (ingested with offline extraction), by error code',
  labelNames: ['code'] as const,
  registers: [metricsRegistry],
});

export const jobsTotal = new Counter({
  name: 'agentic_rag_jobs_total',
  help: 'Queue job attempts by kind and outcome: completed, retried, dead, split (into stage jobs)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

/** Jobs take from milliseconds (a cached stage) to minutes (a big document on a remote embedder). */
export const jobDuration = new Histogram({
  name: 'agentic_rag_job_duration_seconds',
  help: 'Duration of one job attempt by kind',
  labelNames: ['kind'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [metricsRegistry],
});

/** What a queue holds, by BullMQ state, and its dead-letter queue's size. */
export interface QueueCounts {
  queue: string;
  jobs: Record<string, number>;
  deadLetters: number;
}

export type QueueProbe = () => Promise<QueueCounts>;

/** A scrape must answer even when Redis does not: past this, the queue gauges are left out. */
const PROBE_TIMEOUT_MS = 1000;

const probes = new Set<QueueProbe>();

/**
 * Reports a queue's depth and dead letters on every scrape (read from Redis then, not kept up to
 * date in between). The composition root that owns the queue connection registers it, and
 * unregisters it with the returned function before closing that connection.
 */
export function watchQueue(probe: QueueProbe): () => void {
  probes.add(probe);
  return () => probes.delete(probe);
}

let probed: Promise<QueueCounts[]> | null = null;

/** Both gauges are filled from one probe per scrape. */
function probeQueues(): Promise<QueueCounts[]> {
  probed ??= Promise.all([...probes].map((probe) => withTimeout(probe(), PROBE_TIMEOUT_MS).catch(() => null)))
    .then((results) => results.filter((result): result is QueueCounts => result !== null))
    .finally(() => {
      probed = null;
    });
  return probed;
}

export const queueJobs = new Gauge({
  name: 'agentic_rag_queue_jobs',
  help: 'Jobs in the ingest queue by state (waiting, active, delayed, prioritized, waiting-children, completed, failed)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const counts of await probeQueues()) {
      for (const [state, count] of Object.entries(counts.jobs))
        this.set({ queue: counts.queue, state }, count);
    }
  },
});

export const deadLetterJobs = new Gauge({
  name: 'agentic_rag_dead_letter_jobs',
  help: 'Jobs in the dead-letter queue',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const counts of await probeQueues()) this.set({ queue: counts.queue }, counts.deadLetters);
  },
});

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
