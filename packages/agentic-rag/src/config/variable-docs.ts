import type { Config } from './schema.js';

/**
 * What each environment variable means, for the configuration table in docs/configuration.md
 * (generated with `pnpm docs:gen`; test/docs.test.ts fails when it drifts). The accepted values
 * come from the schema's own `describe()`, and the default from the schema itself, except where
 * it depends on the machine or on another variable: then `default` says so in words.
 */
export interface VariableDoc {
  meaning: string;
  default?: string;
}

export const VARIABLE_DOCS: Partial<Record<keyof Config, VariableDoc>> = {
  NODE_ENV: { meaning: '`development`, `production` or `test`' },
  HOST: { meaning: "interface the API, the worker's metrics listener and `pnpm mcp:http` listen on" },
  PORT: { meaning: 'API port (`0` picks a free one)' },
  LOG_LEVEL: {
    meaning:
      '`trace` … `fatal`, `silent`: the level of the JSON log (in `LOG_FILE`, or on stdout with `LOG_FORMAT=json`; CLIs: stderr, `warn` unless set)',
  },
  LOG_FORMAT: {
    meaning:
      "how `pnpm start` (the API) writes its log: `pretty` prints one line on stdout when ready (console URL, where the admin key is, the corpus's documents and chunks), warnings and errors as short lines on stderr, and every JSON log line (the configuration, redacted, included) to `LOG_FILE`; `json` writes the JSON lines to stdout instead and no file, for containers and log shippers. The worker and CLIs are unaffected; `pnpm mcp` logs to stderr either way",
  },
  LOG_FILE: {
    default: '`DATA_DIR/logs/agentic-rag.log`',
    meaning:
      'file the API appends its JSON log lines to when `LOG_FORMAT=pretty` (directories are created; a file that cannot be written stops the start with one line)',
  },
  AGENTIC_RAG_WORKER_METRICS_PORT: {
    meaning:
      "port of `pnpm worker`'s `/metrics` and `/healthz` (on `HOST`); `0` picks a free one, named in the `worker-ready` log line; a taken port stops the worker",
  },
  OTEL_SERVICE_NAME: {
    default: 'per process',
    meaning: 'service name on every span: `agentic-rag-api` or `agentic-rag-worker` unless set',
  },
  OTEL_TRACES_EXPORTER: {
    default: '`none`',
    meaning:
      '`otlp`, `console` (spans on stdout) or `none` (no SDK started: spans cost nothing); unset with an OTLP endpoint set means `otlp`',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    meaning:
      'base URL of an OTLP/HTTP (protobuf) collector, e.g. `http://localhost:4318`; spans go to `<endpoint>/v1/traces`',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    meaning: 'headers for the collector, `name=value,name2=value2` (values URL-encoded; never logged)',
  },
  DATA_DIR: { meaning: 'embedded database directory (`DATA_DIR/pglite`), used when `DATABASE_URL` is unset' },
  DATABASE_URL: { meaning: '`postgres://…` of a Postgres with pgvector; unset = embedded PGlite' },
  DATABASE_READ_URL: {
    meaning:
      '`postgres://…` of a streaming replica of `DATABASE_URL`: searches and answers read there unless they need a newer corpus version than it has replayed (then the primary)',
  },
  DATABASE_POOL_MAX: {
    default: '2 × CPU cores (2–10)',
    meaning:
      "connections in the node-postgres pool (more than the database's cores only queue in Postgres and take CPU from the API)",
  },
  VECTOR_INDEX_BUILD_MEMORY_MB: {
    meaning:
      'memory (MB) the vector index build after a bulk load may use (`maintenance_work_mem`); past it pgvector builds far slower',
  },
  VECTOR_INDEX_BUILD_WORKERS: {
    meaning:
      "parallel maintenance workers for that build on Postgres (capped by the server's `max_parallel_maintenance_workers` limits)",
  },
  BENCH_DATABASE_URL: {
    meaning: "Postgres server for `pnpm bench:ingest`'s scratch database (default: `DATABASE_URL`)",
  },
  REDIS_URL: { meaning: '`redis://…` for the job queue, the answer cache and the rate limiter' },
  REDIS_CLUSTER_NODES: {
    meaning:
      "`host:port,host:port,…` seed nodes of a Redis Cluster for the job queue (instead of `REDIS_URL`'s single server); queue keys carry a hash tag so each queue lives on one slot",
  },
  NEO4J_URI: {
    meaning:
      '`neo4j://` or `bolt://` URI: the knowledge graph goes to Neo4j instead of Postgres. The adapter has never run against a Neo4j server (its contract suite runs only when this is set)',
  },
  NEO4J_USER: { meaning: 'Neo4j user' },
  NEO4J_PASSWORD: { meaning: 'Neo4j password (never logged)' },
  AGENTIC_RAG_ENABLED: {
    meaning: '`false` turns every RAG operation into a `RAG_DISABLED` error (API work)',
  },
  AGENTIC_RAG_AUTH: {
    meaning:
      '`on`: every GraphQL, REST and MCP call needs `Authorization: Bearer <key>` (docs/access.md); `off` is for local development and refused on a non-loopback `HOST`',
  },
  AGENTIC_RAG_API_KEY: { meaning: 'the API key `pnpm mcp` on stdio acts with (never logged)' },
  METRICS_TOKEN: {
    meaning:
      'bearer token (16+ characters) that may read `/metrics` and `/readyz` details without an API key (never logged)',
  },
  RATE_LIMIT_PER_SECOND: {
    meaning:
      'per-key token bucket refill rate in requests per second (`0`: no limit); in Redis when `REDIS_URL` is set, else per process',
  },
  RATE_LIMIT_BURST: { meaning: 'per-key token bucket size: requests a key may make at once' },
  AUTH_PROOFS_PER_MINUTE: {
    meaning:
      'per client address: API keys a process has not yet verified (each costs one scrypt, ~50 ms of CPU) it may present per minute; past it, `RATE_LIMITED` before any hashing (`0`: no limit). A wrong or unknown key spends it too',
  },
  AUTH_PROOF_BURST: { meaning: 'per client address: unverified keys it may present at once' },
  INGEST_SECRETS: {
    meaning:
      "what ingestion does with credentials in a document: `redact` (replaced by `[REDACTED:rule]`, recorded in the document's metadata and the ingest summary) or `refuse` (`SECRET_REFUSED`)",
  },
  AGENTIC_RAG_WORKSPACE: { meaning: 'default workspace of the CLIs and the start-up ingest' },
  AGENTIC_RAG_CORPUS_DIR: { meaning: 'corpus ingested at start and by `rag:ingest` without `--source`' },
  AGENTIC_RAG_EVAL_RESULTS_DIR: {
    meaning:
      "where `pnpm rag:eval` reports (`golden-*.json`) are read from for the admin `evalRuns` query and the console's Eval runs page; a missing directory is no runs",
  },
  AGENTIC_RAG_INGEST_ON_START: {
    meaning: 'ingest the corpus when the API starts (unchanged files are skipped)',
  },
  AGENTIC_RAG_TOPK: { meaning: 'default number of results (1–50)' },
  AGENTIC_RAG_USE_HYDE: { meaning: 'HyDE by default in `ragAnswer` (API work)' },
  AGENTIC_RAG_USE_TOOLS: { meaning: 'tool routing by default in `ragAnswer` (API work)' },
  AGENTIC_RAG_REDIS_TTL_SECONDS: { meaning: 'answer-cache lifetime (API work)' },
  AGENTIC_RAG_CONVERSATION_TURNS: {
    meaning: 'turns of a conversation kept and read back to rewrite a follow-up (docs/streaming.md)',
  },
  AGENTIC_RAG_CONVERSATION_TTL_SECONDS: {
    meaning: 'a conversation expires this long after its last turn (then NOT_FOUND)',
  },
  AGENTIC_RAG_ENABLE_HTTP_FETCH: { meaning: 'allow the `http_fetch` tool' },
  AGENTIC_RAG_HTTP_FETCH_ALLOWLIST: {
    meaning:
      'hosts `http_fetch` may reach, comma-separated (`docs.example.com,*.example.org`); empty allows none',
  },
  AGENTIC_RAG_MIN_EVIDENCE: {
    meaning:
      'share of the question\'s words one retrieved source must contain; below it `ragAnswer` answers "not found" with the closest sources',
  },
  AGENTIC_RAG_CACHE: { meaning: 'cache answers by workspace, corpus version, normalised query and options' },
  CACHE_REDIS_URL: {
    default: '`REDIS_URL`',
    meaning:
      "Redis for the answer cache (give it `maxmemory-policy allkeys-lru`; BullMQ's Redis must not evict); with neither set, answers are cached in Postgres",
  },
  GRAPHQL_MAX_DEPTH: { meaning: 'deepest selection nesting a GraphQL request may have' },
  GRAPHQL_MAX_ALIASES: { meaning: 'aliases per GraphQL request' },
  GRAPHQL_MAX_TOKENS: { meaning: 'tokens per GraphQL document (parsing stops past it)' },
  GRAPHQL_MAX_COST: {
    meaning:
      'static cost per request: fields cost 1 (`ragAnswer` 50, `search` 10, ...), times the size of enclosing lists',
  },
  AGENTIC_RAG_MCP_PORT: {
    meaning:
      'port of `pnpm mcp:http` (on `HOST`, path `/mcp`); `0` picks a free one, named in the `mcp-listening` log line',
  },
  AGENTIC_RAG_MCP_TOOLS: {
    default: 'all six',
    meaning:
      'tools the MCP server offers, comma-separated: `kb_search`, `kb_get_doc`, `graph_find_endpoints`, `graph_expand`, `get_entity`, `rag_answer`',
  },
  AGENTIC_RAG_MCP_WORKSPACES: {
    meaning:
      'workspaces an MCP tool call may name besides `AGENTIC_RAG_WORKSPACE` (its default), comma-separated; `*` for any',
  },
  AGENTIC_RAG_MCP_ALLOWED_ORIGINS: {
    meaning:
      'browser origins (`https://agent.example.com`) the MCP HTTP transport accepts; a request with any other `Origin` is refused',
  },
  AGENTIC_RAG_QUEUE_NAME: {
    meaning: 'BullMQ queue name; the DLQ is `<name>-dlq` (BullMQ forbids `:` in names)',
  },
  AGENTIC_RAG_JOB_ATTEMPTS: { meaning: 'attempts per job (queue work)' },
  AGENTIC_RAG_JOB_BACKOFF_MS: { meaning: 'base of the exponential job backoff (queue work)' },
  AGENTIC_RAG_WORKER_CONCURRENCY: { meaning: 'jobs one `pnpm worker` process runs at once' },
  AGENTIC_RAG_JOB_LOCK_MS: {
    meaning:
      "a job's lock; a killed worker's job goes to another worker about this long after its last renewal",
  },
  AGENTIC_RAG_ENQUEUE_WAIT_MS: {
    meaning:
      "how long an ingest waits for Redis to take each job before it answers anyway: the job is already recorded in Postgres (`rag_jobs`), and reaches the queue when Redis is back (a worker's reconciler enqueues it)",
  },
  AGENTIC_RAG_RECONCILE_MS: {
    meaning:
      'how often each worker compares `rag_jobs` with the queue and repairs the difference (a job Redis lost is enqueued again; one whose worker died is marked retried)',
  },
  AGENTIC_RAG_STAGE_BATCH_SIZE: {
    meaning:
      'chunks per stage job: a queued document with more pending embeddings or HyDE questions is split into `embed-chunks`/`hyde`/`extract-entities` jobs',
  },
  AGENTIC_RAG_INGEST_MODE: {
    meaning:
      '`auto` (through the queue when `REDIS_URL` is set), `inline` or `queue`: how `rag:ingest` and `ingestDocuments` ingest (the start-up ingest of the quick start is always inline)',
  },
  HYBRID_VECTOR_WEIGHT: { meaning: 'fusion weight of the dense channel (0–1)' },
  HYBRID_LEXICAL_WEIGHT: { meaning: 'fusion weight of the lexical channel (0–1)' },
  HYBRID_GRAPH_WEIGHT: { meaning: 'fusion weight of the graph channel (graph work)' },
  HYBRID_FUSION: {
    meaning:
      '`adaptive` (the heaviest channel anchors, the others count by per-query confidence), `weighted` (normalised scores, weighted sum) or `rrf` (reciprocal rank fusion, k = 60)',
  },
  HYBRID_NORMALIZATION: { meaning: 'per-channel normalisation for weighted fusion: `minmax` or `zscore`' },
  BM25_K1: { meaning: 'BM25 term-frequency saturation (0–10)' },
  BM25_B: { meaning: 'BM25 length normalisation (0–1)' },
  BM25_HEADING_WEIGHT: {
    meaning: "BM25F weight of a word in the chunk's heading trail, relative to one in its body (0–10)",
  },
  BM25_TITLE_WEIGHT: {
    meaning: "BM25F weight of a word in the document's title (0 leaves the title out of the lexical channel)",
  },
  LEXICAL_FEEDBACK_WEIGHT: {
    meaning:
      'RM3 pseudo-relevance feedback: share of the expanded lexical query given to expansion terms (0 = off)',
  },
  LEXICAL_FEEDBACK_DOCUMENTS: { meaning: 'RM3: best first-pass chunks the expansion terms are learned from' },
  LEXICAL_FEEDBACK_TERMS: { meaning: 'RM3: expansion terms added to the query' },
  HNSW_EF_SEARCH: {
    meaning: 'pgvector `hnsw.ef_search` for the dense channel (at least the candidate count is used)',
  },
  RETRIEVAL_CANDIDATES: { meaning: 'candidates per channel before fusion; the reranker sees this many' },
  QUERY_SYNONYM_WEIGHT: {
    meaning:
      'how much a WordNet synonym of a question word counts against the word itself (0 to 1; 0: no synonyms). Off by default: at 0.3 the dev sets gained one API question and lost nDCG on two BEIR rows and a manual page first (docs/search.md)',
  },
  TYPO_SIMILARITY_THRESHOLD: {
    meaning:
      'minimum trigram similarity for correcting an unknown query word (pg_trgm; below 0.3 acts as 0.3)',
  },
  RAG_RERANKER: { meaning: '`heuristic` (model-free), `http` (TEI-style `/rerank` cross-encoder) or `none`' },
  RAG_RERANKER_URL: { meaning: 'base URL of the `/rerank` server; required with `http`' },
  RAG_RERANKER_TIMEOUT_MS: {
    meaning: 'timeout of one rerank request; on failure results keep the fused order',
  },
  MMR_LAMBDA: { meaning: 'maximal marginal relevance; `1` is off, lower values diversify the top k' },
  CONTEXT_TOKEN_LIMIT: { meaning: 'token budget of an assembled context' },
  RETRIEVAL_MAX_TOTAL_CHUNKS: { meaning: 'chunk budget of an assembled context' },
  RETRIEVAL_MAX_PRIMARY_RESULTS: {
    meaning:
      "how many of the search's hits enter the context as primary chunks (references are followed from these)",
  },
  RETRIEVAL_MAX_DEPTH: { meaning: 'levels of `ref_ids` the reference expansion follows (0 = none)' },
  RETRIEVAL_GRAPH_HOPS: { meaning: "hops of the graph channel's neighbourhood (0 turns the channel off)" },
  RETRIEVAL_REFERENCE_SHARE: { meaning: 'share of the chunk budget references may take (the 60/40 split)' },
  RETRIEVAL_TIMEOUT_MS: {
    meaning:
      'deadline of the reference expansion; past it the context is flagged partial (`timeout` in its stats)',
  },
  ENABLE_QUERY_ANALYSIS: {
    meaning:
      'intent recognition: endpoint, schema and error questions search their kind of document first (falling back below 3 hits); `false` searches every question as asked',
  },
  CONTEXT_PRIORITIZE_PRIMARY: {
    meaning:
      "primary hits enter the context first and keep their slots; `false` orders hits and references by score alone (a reference scores its hit's score halved per level)",
  },
  LOG_RETRIEVAL_STATS: {
    meaning:
      'one `retrieval-stats` info line per assembled context: chunk counts, tokens, depth, visited, missing, limits hit, timings',
  },
  BATCH_REFERENCE_LOOKUP: {
    meaning:
      'one query for all documents of a reference level; `false` looks each up on its own (same context, more round trips)',
  },
  CHUNK_MAX_TOKENS: { meaning: 'chunk budget in cl100k tokens (32–8192)' },
  CHUNK_OVERLAP_TOKENS: {
    meaning: 'overlap between consecutive chunks of a section; must be below the budget',
  },
  RAG_EMBEDDER: { meaning: '`deterministic` (offline) or `openai` (OpenAI-compatible server)' },
  RAG_EMBEDDING_DIMENSIONS: { meaning: 'vector size; must match the `vector(768)` column' },
  RAG_EMBEDDER_BASE_URL: { meaning: 'e.g. `http://localhost:11434/v1`; required with `openai`' },
  RAG_EMBEDDER_MODEL: { meaning: 'model name; required with `openai`' },
  RAG_EMBEDDER_API_KEY: { meaning: 'bearer token (never logged)' },
  RAG_EMBEDDER_BATCH_SIZE: { meaning: 'texts per embeddings request' },
  RAG_EMBEDDER_TIMEOUT_MS: { meaning: 'timeout of one request' },
  RAG_EMBEDDER_MAX_RETRIES: { meaning: 'retries of a request on 429/5xx/network errors' },
  RAG_EMBEDDER_SEND_DIMENSIONS: { meaning: 'send `dimensions` with each request' },
  RAG_EMBEDDING_CACHE: {
    meaning:
      'keep embeddings by model and text hash (`rag_embedding_cache`) so a retried job or an edited file re-embeds only new text: `auto` (on for remote embedders), `on`, `off`',
  },
  RAG_LLM: { meaning: '`offline` (model-free stages) or `openai` (API work)' },
  RAG_LLM_BASE_URL: { meaning: 'OpenAI-compatible chat server; required with `openai`' },
  RAG_LLM_MODEL: { meaning: 'chat model; required with `openai`' },
  RAG_LLM_API_KEY: { meaning: 'bearer token (never logged)' },
  RAG_LLM_TIMEOUT_MS: { meaning: 'timeout of one chat request' },
  RAG_LLM_MAX_RETRIES: { meaning: 'retries of a chat request on 429/5xx/network errors' },
  RAG_INGEST_HYDE: {
    meaning:
      'ingest-side HyDE: the model writes questions each chunk answers, embedded with it (needs `RAG_LLM=openai`)',
  },
  RAG_INGEST_HYDE_QUESTIONS: { meaning: 'questions per chunk (1–10)' },
  RAG_INGEST_LLM_ENTITIES: {
    meaning:
      'a chat model adds entities and relations to the knowledge graph at ingest, cached by content; a failure keeps the offline facts (needs `RAG_LLM=openai`)',
  },
  AGENTIC_RAG_ENABLE_LLM_JUDGE: {
    meaning:
      '`rag:eval --dataset` also asks the model to score faithfulness and relevance (needs `RAG_LLM=openai`)',
  },
};
