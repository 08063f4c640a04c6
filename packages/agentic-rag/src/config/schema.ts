import os from 'node:os';
import { z } from 'zod';

/**
 * Every environment variable the service reads, in one place. Defaults are the embedded mode of
 * the quick start: PGlite under DATA_DIR, inline ingestion, offline embedder and LLM.
 * Each entry's `describe()` is what a user sees when the value is wrong, so it says what is accepted.
 */
const bool = (fallback: boolean) =>
  z.stringbool().default(fallback).describe('a boolean: true/false, 1/0, yes/no, on/off');

/**
 * Connections beyond what the database's cores can run only queue inside Postgres and take CPU
 * from this process (bench:load on 2 cores: 10 connections, /healthz p99 99 ms and answer p95
 * 7.1 s; 4 connections, 42 ms and 6.3 s). Sized for a server on this machine; a bigger remote
 * server deserves a bigger DATABASE_POOL_MAX.
 */
const DEFAULT_POOL_SIZE = Math.min(10, Math.max(2, 2 * os.availableParallelism()));

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback).describe(`an integer from ${min} to ${max}`);

const weight = (fallback: number) =>
  z.coerce.number().min(0).max(1).default(fallback).describe('a number from 0 to 1');

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    })
    .optional()
    .describe(`a URL with scheme ${protocols.join(' or ')}`);

const text = (fallback: string) => z.string().trim().min(1).default(fallback).describe('a non-empty string');

const commaList = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A workspace id: written here once; the store, the service and the keys all check this pattern. */
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const WORKSPACE_ID = WORKSPACE_ID_PATTERN;

/** The tools the MCP server (apps/mcp) can offer; AGENTIC_RAG_MCP_TOOLS picks a subset. */
export const MCP_TOOL_NAMES = [
  'kb_search',
  'kb_get_doc',
  'graph_find_endpoints',
  'graph_expand',
  'get_entity',
  'rag_answer',
] as const;

export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** `https://agent.example.com`: a scheme, a host and an optional port, nothing else. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return ['http:', 'https:'].includes(url.protocol) && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

/** OTLP headers as the OTel spec writes them: `name=value,name2=value2`, values URL-encoded. */
function parseHeaders(value: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    if (at < 1 || !name) return null;
    try {
      headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return headers;
}

export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe('one of development, production, test'),
  // Loopback by default: a fresh install is not reachable from the network until someone says so.
  HOST: text('127.0.0.1'),
  PORT: int(4000, 0, 65535),
  DATA_DIR: text('.data'),
  LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
    .default('info')
    .describe('one of trace, debug, info, warn, error, fatal, silent'),
  // A person running `pnpm start` reads one line; a container's log shipper reads JSON on stdout.
  // What each means in full: variable-docs.ts (the docs table); runtime/service-log.ts applies them.
  LOG_FORMAT: z.enum(['pretty', 'json']).default('pretty').describe('one of pretty, json'),
  LOG_FILE: z.string().trim().min(1).optional().describe('a file path (appended to)'),
  AGENTIC_RAG_WORKER_METRICS_PORT: int(9465, 0, 65535),

  // OpenTelemetry's own variable names, read here and handed to the SDK (telemetry/tracing.ts).
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional().describe('a non-empty string'),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'console', 'none']).optional().describe('one of otlp, console, none'),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http', 'https']),
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .transform((value, context) => {
      const headers = parseHeaders(value);
      if (headers) return headers;
      context.addIssue({ code: 'custom', message: 'not name=value pairs' });
      return z.NEVER;
    })
    .optional()
    .describe('comma-separated name=value pairs (values URL-encoded)'),

  DATABASE_URL: url(['postgres', 'postgresql']),
  DATABASE_POOL_MAX: int(DEFAULT_POOL_SIZE, 1, 200),
  DATABASE_READ_URL: url(['postgres', 'postgresql']),
  VECTOR_INDEX_BUILD_MEMORY_MB: int(1024, 64, 1_048_576),
  VECTOR_INDEX_BUILD_WORKERS: int(2, 0, 64),
  BENCH_DATABASE_URL: url(['postgres', 'postgresql']),
  REDIS_URL: url(['redis', 'rediss']),
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((value) => commaList(value))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/)).min(1))
    .optional()
    .describe('comma-separated host:port seed nodes of a Redis Cluster'),
  NEO4J_URI: url(['neo4j', 'neo4j+s', 'neo4j+ssc', 'bolt', 'bolt+s', 'bolt+ssc']),
  NEO4J_USER: text('neo4j'),
  NEO4J_PASSWORD: z.string().optional().describe('a string'),

  AGENTIC_RAG_ENABLED: bool(true),
  // Every transport authenticates callers with API keys unless this is off (loopback HOST only).
  AGENTIC_RAG_AUTH: z
    .enum(['on', 'off'])
    .default('on')
    .describe('one of on, off (off only on a loopback HOST)'),
  AGENTIC_RAG_API_KEY: z.string().trim().min(1).optional().describe('an API key (ar_...)'),
  METRICS_TOKEN: z.string().trim().min(16).optional().describe('a string of at least 16 characters'),
  RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .min(0)
    .max(100_000)
    .default(20)
    .describe('a number from 0 to 100000 (0 turns rate limiting off)'),
  RATE_LIMIT_BURST: int(60, 1, 1_000_000),
  AUTH_PROOFS_PER_MINUTE: int(60, 0, 1_000_000),
  AUTH_PROOF_BURST: int(100, 1, 1_000_000),
  INGEST_SECRETS: z
    .enum(['redact', 'refuse'])
    .default('redact')
    .describe('one of redact (replace secrets and record it), refuse (fail the document)'),
  AGENTIC_RAG_WORKSPACE: z
    .string()
    .regex(WORKSPACE_ID)
    .default('demo')
    .describe('a workspace id: letters, digits, _ . - (max 64)'),
  AGENTIC_RAG_CORPUS_DIR: text('./simulated_ingestion'),
  AGENTIC_RAG_EVAL_RESULTS_DIR: text('eval/results').describe(
    'a directory path, relative to the working directory or absolute',
  ),
  AGENTIC_RAG_INGEST_ON_START: bool(true),
  AGENTIC_RAG_TOPK: int(8, 1, 50),
  AGENTIC_RAG_USE_HYDE: bool(false),
  AGENTIC_RAG_USE_TOOLS: bool(true),
  AGENTIC_RAG_REDIS_TTL_SECONDS: int(900, 1, 30 * 24 * 3600),
  AGENTIC_RAG_CONVERSATION_TURNS: int(10, 1, 100),
  AGENTIC_RAG_CONVERSATION_TTL_SECONDS: int(86_400, 60, 30 * 24 * 3600),
  AGENTIC_RAG_ENABLE_HTTP_FETCH: bool(false),
  AGENTIC_RAG_HTTP_FETCH_ALLOWLIST: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((domain) => domain.trim().toLowerCase())
        .filter(Boolean),
    )
    .describe('comma-separated host names, `*.example.com` for subdomains'),
  AGENTIC_RAG_MIN_EVIDENCE: weight(0.5),
  AGENTIC_RAG_CACHE: bool(true),
  CACHE_REDIS_URL: url(['redis', 'rediss']),
  GRAPHQL_MAX_DEPTH: int(10, 2, 100),
  GRAPHQL_MAX_ALIASES: int(15, 1, 1000),
  GRAPHQL_MAX_TOKENS: int(2000, 50, 100_000),
  GRAPHQL_MAX_COST: int(1000, 10, 1_000_000),

  // MCP server (apps/mcp).
  AGENTIC_RAG_MCP_PORT: int(4100, 0, 65535),
  AGENTIC_RAG_MCP_TOOLS: z
    .string()
    .default(MCP_TOOL_NAMES.join(','))
    .transform((value) => [...new Set(commaList(value))])
    .pipe(z.array(z.enum(MCP_TOOL_NAMES)).min(1))
    .describe(`a comma-separated list of ${MCP_TOOL_NAMES.join(', ')}`),
  AGENTIC_RAG_MCP_WORKSPACES: z
    .string()
    .default('')
    .transform(commaList)
    .pipe(z.array(z.union([z.literal('*'), z.string().regex(WORKSPACE_ID)])))
    .describe('comma-separated workspace ids (letters, digits, _ . -), or * for any'),
  AGENTIC_RAG_MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) => commaList(value).map((origin) => origin.replace(/\/$/, '')))
    .pipe(z.array(z.string().refine(isOrigin)))
    .describe('comma-separated origins such as https://agent.example.com'),
  AGENTIC_RAG_QUEUE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default('agentic-rag')
    .describe('a queue name: letters, digits, _ - (max 64)'),
  AGENTIC_RAG_JOB_ATTEMPTS: int(3, 1, 50),
  AGENTIC_RAG_JOB_BACKOFF_MS: int(5000, 0, 3_600_000),
  AGENTIC_RAG_WORKER_CONCURRENCY: int(2, 1, 64),
  AGENTIC_RAG_JOB_LOCK_MS: int(30_000, 1000, 3_600_000),
  AGENTIC_RAG_RECONCILE_MS: int(30_000, 1000, 3_600_000),
  AGENTIC_RAG_ENQUEUE_WAIT_MS: int(2000, 100, 60_000),
  AGENTIC_RAG_STAGE_BATCH_SIZE: int(64, 1, 4096),
  AGENTIC_RAG_INGEST_MODE: z
    .enum(['auto', 'inline', 'queue'])
    .default('auto')
    .describe('one of auto (queue when REDIS_URL is set), inline, queue'),

  HYBRID_VECTOR_WEIGHT: weight(0.7),
  HYBRID_LEXICAL_WEIGHT: weight(1),
  HYBRID_GRAPH_WEIGHT: weight(0.3),

  HYBRID_FUSION: z
    .enum(['adaptive', 'weighted', 'rrf'])
    .default('adaptive')
    .describe(
      'one of adaptive (weighted, non-anchor channels scaled by per-query confidence), weighted (normalised scores, weighted sum), rrf (reciprocal rank fusion)',
    ),
  HYBRID_NORMALIZATION: z.enum(['minmax', 'zscore']).default('minmax').describe('one of minmax, zscore'),
  BM25_K1: z.coerce.number().min(0).max(10).default(0.9).describe('a number from 0 to 10'),
  BM25_B: weight(0.4),
  BM25_HEADING_WEIGHT: z.coerce.number().min(0).max(10).default(1).describe('a number from 0 to 10'),
  LEXICAL_FEEDBACK_WEIGHT: weight(0.5),
  LEXICAL_FEEDBACK_DOCUMENTS: int(10, 1, 100),
  LEXICAL_FEEDBACK_TERMS: int(10, 1, 100),
  BM25_TITLE_WEIGHT: z.coerce.number().min(0).max(10).default(2).describe('a number from 0 to 10'),
  HNSW_EF_SEARCH: int(100, 1, 1000),
  RETRIEVAL_CANDIDATES: int(50, 10, 1000),
  TYPO_SIMILARITY_THRESHOLD: weight(0.3),
  QUERY_SYNONYM_WEIGHT: weight(0),
  RAG_RERANKER: z
    .enum(['heuristic', 'http', 'none'])
    .default('heuristic')
    .describe('one of heuristic (model-free), http (TEI-style /rerank server), none'),
  RAG_RERANKER_URL: url(['http', 'https']),
  RAG_RERANKER_TIMEOUT_MS: int(10_000, 100, 600_000),
  MMR_LAMBDA: weight(1),
  // The Knowledge Retriever's switches, with its design's defaults (docs/design-conformance.md).
  CONTEXT_TOKEN_LIMIT: int(4000, 100, 200_000),
  RETRIEVAL_MAX_PRIMARY_RESULTS: int(5, 1, 100),
  RETRIEVAL_MAX_TOTAL_CHUNKS: int(15, 1, 200),
  RETRIEVAL_MAX_DEPTH: int(3, 0, 10),
  RETRIEVAL_GRAPH_HOPS: int(2, 0, 3),
  RETRIEVAL_REFERENCE_SHARE: weight(0.4),
  RETRIEVAL_TIMEOUT_MS: int(5000, 10, 600_000),
  ENABLE_QUERY_ANALYSIS: bool(true),
  CONTEXT_PRIORITIZE_PRIMARY: bool(true),
  LOG_RETRIEVAL_STATS: bool(true),
  BATCH_REFERENCE_LOOKUP: bool(true),

  CHUNK_MAX_TOKENS: int(400, 32, 8192),
  CHUNK_OVERLAP_TOKENS: int(60, 0, 2048),

  RAG_EMBEDDER: z
    .enum(['deterministic', 'openai'])
    .default('deterministic')
    .describe('one of deterministic, openai'),
  RAG_EMBEDDING_DIMENSIONS: int(768, 8, 16000),
  RAG_EMBEDDER_BASE_URL: url(['http', 'https']),
  RAG_EMBEDDER_MODEL: z.string().trim().min(1).optional().describe('a model name'),
  RAG_EMBEDDER_API_KEY: z.string().optional().describe('a string'),
  RAG_EMBEDDER_BATCH_SIZE: int(64, 1, 2048),
  RAG_EMBEDDER_TIMEOUT_MS: int(30_000, 100, 600_000),
  RAG_EMBEDDER_MAX_RETRIES: int(4, 0, 10),
  RAG_EMBEDDER_SEND_DIMENSIONS: bool(false),
  RAG_EMBEDDING_CACHE: z
    .enum(['auto', 'on', 'off'])
    .default('auto')
    .describe('one of auto (on for remote embedders), on, off'),

  RAG_LLM: z.enum(['offline', 'openai']).default('offline').describe('one of offline, openai'),
  RAG_LLM_BASE_URL: url(['http', 'https']),
  RAG_LLM_MODEL: z.string().trim().min(1).optional().describe('a model name'),
  RAG_LLM_API_KEY: z.string().optional().describe('a string'),
  RAG_LLM_TIMEOUT_MS: int(30_000, 100, 600_000),
  RAG_LLM_MAX_RETRIES: int(2, 0, 10),
  RAG_INGEST_HYDE: bool(false),
  RAG_INGEST_LLM_ENTITIES: bool(false),
  AGENTIC_RAG_ENABLE_LLM_JUDGE: bool(false),
  RAG_INGEST_HYDE_QUESTIONS: int(3, 1, 10),
});

export type Config = Readonly<z.output<typeof configSchema>>;

/** Variables whose values never appear in logs or error messages. */
export const SECRET_KEYS = [
  'NEO4J_PASSWORD',
  'RAG_EMBEDDER_API_KEY',
  'RAG_LLM_API_KEY',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'AGENTIC_RAG_API_KEY',
  'METRICS_TOKEN',
] as const satisfies readonly (keyof Config)[];

/** URL-valued variables that may carry credentials in their user-info part. */
export const URL_KEYS = [
  'DATABASE_URL',
  'REDIS_URL',
  'CACHE_REDIS_URL',
  'NEO4J_URI',
] as const satisfies readonly (keyof Config)[];
