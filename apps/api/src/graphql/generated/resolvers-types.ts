import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { DocumentParent, ApiContext } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string };
  String: { input: string; output: string };
  Boolean: { input: boolean; output: boolean };
  Int: { input: number; output: number };
  Float: { input: number; output: number };
  /** Any JSON value: filters, metadata, entity properties, tool inputs. */
  JSON: { input: unknown; output: unknown };
};

export type AnswerConversation = {
  __typename?: 'AnswerConversation';
  id: Scalars['ID']['output'];
  /** none (a conversation's first question), rules (the deterministic rewriter) or llm. */
  rewriter: Scalars['String']['output'];
  rewritten: Scalars['Boolean']['output'];
  /** The question answered: the follow-up made standalone against the earlier turns. */
  standaloneQuery: Scalars['String']['output'];
  /** This answer's turn, from 1. */
  turn: Scalars['Int']['output'];
};

export type AnswerDebug = {
  __typename?: 'AnswerDebug';
  candidates: Array<Candidate>;
  corrections: Array<Correction>;
  hydeDocument?: Maybe<Scalars['String']['output']>;
  plan: Scalars['JSON']['output'];
  /** Passages cut out of the sources before anything read them because they speak to the model (planted instructions, credential requests, tool-call syntax). Listed here, never quoted in the answer; selfCheck.warnings says that it happened. */
  quarantined: Array<QuarantinedPassage>;
  rewrittenQuery: Scalars['String']['output'];
  stages: Array<Stage>;
  synthesis: Scalars['String']['output'];
  toolCalls: Array<ToolCall>;
};

export type ApiKey = {
  __typename?: 'ApiKey';
  createdAt: Scalars['String']['output'];
  createdBy?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  label?: Maybe<Scalars['String']['output']>;
  lastUsedAt?: Maybe<Scalars['String']['output']>;
  revokedAt?: Maybe<Scalars['String']['output']>;
  role: Scalars['String']['output'];
  workspaceId: Scalars['ID']['output'];
};

export type AuditRecord = {
  __typename?: 'AuditRecord';
  actor: Scalars['String']['output'];
  at: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** The API key that acted; null for a local command or when auth is off. */
  keyId?: Maybe<Scalars['ID']['output']>;
  operation: Scalars['String']['output'];
  /** ok, or the error code the write ended with (FORBIDDEN, INVALID_INPUT, ...). */
  outcome: Scalars['String']['output'];
  target?: Maybe<Scalars['String']['output']>;
  workspaceId?: Maybe<Scalars['ID']['output']>;
};

export type Candidate = {
  __typename?: 'Candidate';
  channelScores: Scalars['JSON']['output'];
  chunkId: Scalars['String']['output'];
  finalScore: Scalars['Float']['output'];
  sourceId: Scalars['String']['output'];
};

export type Chunk = {
  __typename?: 'Chunk';
  chunkId: Scalars['String']['output'];
  endOffset: Scalars['Int']['output'];
  index: Scalars['Int']['output'];
  sectionPath: Scalars['String']['output'];
  startOffset: Scalars['Int']['output'];
  text: Scalars['String']['output'];
  tokenCount: Scalars['Int']['output'];
};

export type Citation = {
  __typename?: 'Citation';
  chunkId: Scalars['String']['output'];
  endOffset: Scalars['Int']['output'];
  index: Scalars['Int']['output'];
  /** The 1-based page the cited passage starts on, for a paged source (PDF); null otherwise. */
  pageNumber?: Maybe<Scalars['Int']['output']>;
  score: Scalars['Float']['output'];
  snippet: Scalars['String']['output'];
  sourceId: Scalars['String']['output'];
  startOffset: Scalars['Int']['output'];
  title?: Maybe<Scalars['String']['output']>;
  url?: Maybe<Scalars['String']['output']>;
};

export type Corpus = {
  __typename?: 'Corpus';
  chunks: Scalars['Int']['output'];
  documents: Scalars['Int']['output'];
  entities: Scalars['Int']['output'];
  relations: Scalars['Int']['output'];
  tokens: Scalars['Int']['output'];
  version: Scalars['Int']['output'];
  workspaceId: Scalars['ID']['output'];
};

export type Correction = {
  __typename?: 'Correction';
  from: Scalars['String']['output'];
  similarity: Scalars['Float']['output'];
  to: Scalars['String']['output'];
};

export type CrawlPageCounts = {
  __typename?: 'CrawlPageCounts';
  /** Kept out by robots.txt, never requested. */
  disallowed: Scalars['Int']['output'];
  failed: Scalars['Int']['output'];
  fetched: Scalars['Int']['output'];
  /** 404 or 410: their documents were removed. */
  gone: Scalars['Int']['output'];
  /** 304: unchanged since the last crawl, nothing parsed or embedded. */
  notModified: Scalars['Int']['output'];
  requested: Scalars['Int']['output'];
  /** Answered with something other than HTML. */
  skipped: Scalars['Int']['output'];
};

export type CrawlResult = {
  __typename?: 'CrawlResult';
  /** The crawl's job; none for a schedule, whose jobs the scheduler adds. */
  jobs: Array<Job>;
  /** inline or queue */
  mode: Scalars['String']['output'];
  /** With schedule: the repeating crawl. */
  schedule?: Maybe<CrawlSchedule>;
  /** Inline only: what the crawl did. */
  summary?: Maybe<CrawlSummary>;
};

export type CrawlSchedule = {
  __typename?: 'CrawlSchedule';
  everySeconds: Scalars['Int']['output'];
  /** Stable per workspace and URL: scheduling the same site again replaces it. */
  id: Scalars['ID']['output'];
  /** When the next crawl is due (ISO 8601). */
  next?: Maybe<Scalars['String']['output']>;
};

export type CrawlSiteInput = {
  /** Requests in flight at once (default 2). */
  concurrency?: InputMaybe<Scalars['Int']['input']>;
  /** Fetch every page in full, without If-None-Match / If-Modified-Since. */
  full?: InputMaybe<Scalars['Boolean']['input']>;
  /** Bytes downloaded per crawl (default 500 MiB). */
  maxBytes?: InputMaybe<Scalars['Int']['input']>;
  /** Links followed from the start page (default 10); a sitemap's pages are all depth 0. */
  maxDepth?: InputMaybe<Scalars['Int']['input']>;
  /** Pages requested per crawl (default 1000). */
  maxPages?: InputMaybe<Scalars['Int']['input']>;
  /** Requests per second (default 2); robots.txt's Crawl-delay may slow it further. */
  rate?: InputMaybe<Scalars['Float']['input']>;
  /** Crawl again at this interval while a worker runs (24h, 30m, 1d; at least a minute). Needs the queue. */
  schedule?: InputMaybe<Scalars['String']['input']>;
  /** A start page (http or https), or a sitemap or sitemap index (a URL ending in .xml). */
  url: Scalars['String']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type CrawlSummary = {
  __typename?: 'CrawlSummary';
  /** Body bytes downloaded. */
  bytes: Scalars['Float']['output'];
  chunks: Scalars['Int']['output'];
  corpusVersion: Scalars['Int']['output'];
  documents: DocumentCounts;
  failures: Array<IngestFailure>;
  pages: CrawlPageCounts;
  seconds: Scalars['Float']['output'];
  /** The origin crawled: its documents' ids are their page URLs. */
  site: Scalars['String']['output'];
  /** max-pages or max-bytes when the crawl stopped at a limit (then nothing unseen is removed); null when it finished. */
  stoppedBy?: Maybe<Scalars['String']['output']>;
};

export type CreateApiKeyInput = {
  label?: InputMaybe<Scalars['String']['input']>;
  /** reader (search, answer, read), writer (+ ingest, delete, refresh, resume) or admin (+ keys, dead letters, audit). */
  role: Scalars['String']['input'];
  /** One workspace id, or * for every workspace. */
  workspaceId: Scalars['ID']['input'];
};

export type CreatedApiKey = {
  __typename?: 'CreatedApiKey';
  id: Scalars['ID']['output'];
  /** The secret: send it as Authorization: Bearer <key>. Shown once. */
  key: Scalars['String']['output'];
  label?: Maybe<Scalars['String']['output']>;
  role: Scalars['String']['output'];
  workspaceId: Scalars['ID']['output'];
};

export type DeadLetter = {
  __typename?: 'DeadLetter';
  attempts: Scalars['Int']['output'];
  /** The document: a path inside the folder it was ingested from, or an inline id. */
  document: Scalars['String']['output'];
  error: Scalars['String']['output'];
  failedAt: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** ingest-document, or a big document's stage job: embed-chunks, hyde, extract-entities. */
  kind: Scalars['String']['output'];
  traceId?: Maybe<Scalars['String']['output']>;
  workspaceId: Scalars['ID']['output'];
};

export type DeleteResult = {
  __typename?: 'DeleteResult';
  corpusVersion: Scalars['Int']['output'];
  deleted: Scalars['Boolean']['output'];
};

export type Document = {
  __typename?: 'Document';
  chunkCount: Scalars['Int']['output'];
  chunks: Array<Chunk>;
  contentHash: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  metadata: Scalars['JSON']['output'];
  title?: Maybe<Scalars['String']['output']>;
  tokenCount: Scalars['Int']['output'];
  updatedAt: Scalars['String']['output'];
  url?: Maybe<Scalars['String']['output']>;
};

export type DocumentChunksArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

export type DocumentConnection = {
  __typename?: 'DocumentConnection';
  edges: Array<DocumentEdge>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type DocumentCounts = {
  __typename?: 'DocumentCounts';
  added: Scalars['Int']['output'];
  failed: Scalars['Int']['output'];
  removed: Scalars['Int']['output'];
  skipped: Scalars['Int']['output'];
  unchanged: Scalars['Int']['output'];
  updated: Scalars['Int']['output'];
};

export type DocumentEdge = {
  __typename?: 'DocumentEdge';
  cursor: Scalars['String']['output'];
  node: Document;
};

export enum DocumentOrder {
  /** By id (source path). */
  Path = 'PATH',
  /** Most recently updated (ingested, changed) first. */
  Updated = 'UPDATED',
}

export type Entity = {
  __typename?: 'Entity';
  aliases: Array<Scalars['String']['output']>;
  /** The document that defines it (where Algorithm 3.2 is written out). */
  definedBy?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  mentions: Array<Mention>;
  name: Scalars['String']['output'];
  properties: Scalars['JSON']['output'];
  type: Scalars['String']['output'];
};

/** One question category of a run; rates are null for a category with no answerable question. */
export type EvalCategory = {
  __typename?: 'EvalCategory';
  answerRecall?: Maybe<Scalars['Float']['output']>;
  category: Scalars['String']['output'];
  hitRate?: Maybe<Scalars['Float']['output']>;
  mrr?: Maybe<Scalars['Float']['output']>;
  questions: Scalars['Int']['output'];
  refusalAccuracy: Scalars['Float']['output'];
};

/**
 * One `pnpm rag:eval` run over a golden set: its headline scores as the report holds them. Rates are
 * fractions from 0 to 1; a report file that cannot be read or is not a golden report is left out.
 */
export type EvalRun = {
  __typename?: 'EvalRun';
  /** Expected facts found in the answers (fact recall). */
  answerRecall: Scalars['Float']['output'];
  /** Questions the corpus answers (the rest must be refused). */
  answerable: Scalars['Int']['output'];
  /** library (in-process ragAnswer) or the API it asked. */
  answerer: Scalars['String']['output'];
  categories: Array<EvalCategory>;
  /** Answers whose citations the self-check found valid. */
  citationCoverage: Scalars['Float']['output'];
  /** Citations that name an expected document. */
  citationPrecision: Scalars['Float']['output'];
  /** The golden set's file. */
  dataset: Scalars['String']['output'];
  /** The endpoint set's first retrieved document is the expected one; null in reports without that set. */
  endpointPrecisionAt1?: Maybe<Scalars['Float']['output']>;
  /** Answerable questions refused anyway. */
  falseRefusals: Scalars['Int']['output'];
  /** Answerable questions with an expected document in the top k. */
  hitRate: Scalars['Float']['output'];
  /** The report's file name without .json: golden-2026-11-24T19-42-51-188Z. */
  id: Scalars['ID']['output'];
  /** Retrieved documents scored for hit rate and MRR. */
  k: Scalars['Int']['output'];
  latencyP50Ms: Scalars['Float']['output'];
  latencyP95Ms: Scalars['Float']['output'];
  mrr: Scalars['Float']['output'];
  questions: Scalars['Int']['output'];
  /** Questions refused exactly when they had to be. */
  refusalAccuracy: Scalars['Float']['output'];
  refusalRequired: Scalars['Int']['output'];
  refusedWhenRequired: Scalars['Int']['output'];
  seconds: Scalars['Float']['output'];
  stages: Array<EvalStageLatency>;
  /** When the run started (ISO 8601). */
  startedAt: Scalars['String']['output'];
  workspaceId: Scalars['ID']['output'];
};

export type EvalStageLatency = {
  __typename?: 'EvalStageLatency';
  p50Ms: Scalars['Float']['output'];
  p95Ms: Scalars['Float']['output'];
  stage: Scalars['String']['output'];
};

export type GraphEdge = {
  __typename?: 'GraphEdge';
  from: Scalars['ID']['output'];
  to: Scalars['ID']['output'];
  type: Scalars['String']['output'];
  weight: Scalars['Float']['output'];
};

export type GraphExpansion = {
  __typename?: 'GraphExpansion';
  edges: Array<GraphEdge>;
  entities: Array<GraphNode>;
};

export type GraphNode = {
  __typename?: 'GraphNode';
  hop: Scalars['Int']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  strength: Scalars['Float']['output'];
  type: Scalars['String']['output'];
};

export type IngestFailure = {
  __typename?: 'IngestFailure';
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  sourceId: Scalars['String']['output'];
};

export type IngestInput = {
  documents?: InputMaybe<Array<InlineDocumentInput>>;
  /** Files or folders inside AGENTIC_RAG_CORPUS_DIR, relative to it ('.' is all of it). */
  paths?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Remove documents of an ingested folder whose files are gone. */
  prune?: InputMaybe<Scalars['Boolean']['input']>;
  workspaceId: Scalars['ID']['input'];
};

export type IngestResult = {
  __typename?: 'IngestResult';
  jobs: Array<Job>;
  /** inline or queue */
  mode: Scalars['String']['output'];
  /** Inline only: what the ingest did. */
  summary?: Maybe<IngestSummary>;
};

export type IngestSummary = {
  __typename?: 'IngestSummary';
  chunks: Scalars['Int']['output'];
  corpusVersion: Scalars['Int']['output'];
  documents: DocumentCounts;
  failures: Array<IngestFailure>;
  /** Documents whose credentials were replaced by [REDACTED:rule] before they were stored (INGEST_SECRETS=redact). */
  redactions: Array<Redaction>;
  seconds: Scalars['Float']['output'];
  tokens: Scalars['Int']['output'];
};

/** One document given inline: exactly one of content and contentBase64. */
export type InlineDocumentInput = {
  /** The document's text (any text format). */
  content?: InputMaybe<Scalars['String']['input']>;
  /** The file's bytes in base64: required for PDF and DOCX, accepted for text formats (UTF-8). */
  contentBase64?: InputMaybe<Scalars['String']['input']>;
  /** Path-like id whose extension picks the loader: notes/faq.md, api/spec.yaml, manuals/guide.pdf. */
  id: Scalars['ID']['input'];
};

export type Job = {
  __typename?: 'Job';
  attempts: Scalars['Int']['output'];
  /** The corpus version a completed ingest left: pass it as minCorpusVersion to read the write. */
  corpusVersion?: Maybe<Scalars['Int']['output']>;
  createdAt: Scalars['String']['output'];
  error?: Maybe<Scalars['String']['output']>;
  finishedAt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  progress: Scalars['Float']['output'];
  status: Scalars['String']['output'];
  /** What the job works on, in words: its document, the documents of an inline ingest, a crawl's start page. */
  subject?: Maybe<Scalars['String']['output']>;
  traceId?: Maybe<Scalars['String']['output']>;
};

export type JobList = {
  __typename?: 'JobList';
  jobs: Array<Job>;
  /** False on a deployment without a queue (no REDIS_URL): every ingest ran inline, within its request. */
  queue: Scalars['Boolean']['output'];
};

export type Mention = {
  __typename?: 'Mention';
  chunkId: Scalars['String']['output'];
  count: Scalars['Int']['output'];
  sourceId: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Crawl a documentation site into the workspace (docs/web-sources.md): from a start page (same-origin
   * links followed) or a sitemap (a URL ending in .xml), robots.txt obeyed, every request through the
   * address policy of http_fetch. A recrawl asks with each page's validators (304: unchanged) and
   * removes the pages the site no longer has. With the queue it returns at once with the queued job;
   * inline, the finished job and its summary. With schedule, a worker crawls it again at that interval.
   */
  crawlSite: CrawlResult;
  /** Create an API key. The key is in this answer once and never again. Admin keys only. */
  createApiKey: CreatedApiKey;
  deleteDocument: DeleteResult;
  /**
   * Ingest server-side paths (inside AGENTIC_RAG_CORPUS_DIR) and/or documents given inline. With the
   * queue (REDIS_URL) it returns at once with one queued job per document; inline, the finished job
   * and its summary.
   */
  ingestDocuments: IngestResult;
  /** Delete every dead letter; returns how many there were. */
  purgeDeadLetters: Scalars['Int']['output'];
  /** Answer a question from the knowledge base, with citations and a self-check. */
  ragAnswer: RagAnswer;
  /** Read a document's source file again and re-ingest it if it changed. */
  refreshDocument: IngestResult;
  /**
   * Restart a workspace's failed and stuck documents: its dead letters go back on the queue, and a
   * document whose latest ingest stopped before it was stored, with no job left to finish it, is
   * enqueued again.
   */
  resumeIngest: ResumeResult;
  /** Put dead-lettered jobs back on the queue (all, or the given ids): restarts failed documents. */
  retryDeadLetters: Array<Scalars['ID']['output']>;
  /** Revoke an API key: its next request is refused. True when it was active. Admin keys only. */
  revokeApiKey: Scalars['Boolean']['output'];
};

export type MutationCrawlSiteArgs = {
  input: CrawlSiteInput;
};

export type MutationCreateApiKeyArgs = {
  input: CreateApiKeyInput;
};

export type MutationDeleteDocumentArgs = {
  id: Scalars['ID']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type MutationIngestDocumentsArgs = {
  input: IngestInput;
};

export type MutationRagAnswerArgs = {
  input: RagAnswerInput;
};

export type MutationRefreshDocumentArgs = {
  id: Scalars['ID']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type MutationResumeIngestArgs = {
  workspaceId: Scalars['ID']['input'];
};

export type MutationRetryDeadLettersArgs = {
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};

export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
};

export type QuarantinedPassage = {
  __typename?: 'QuarantinedPassage';
  chunkId: Scalars['String']['output'];
  /** How the passage was disguised, when it was (base64, invisible characters, letter spacing, ...). */
  disguises: Array<Scalars['String']['output']>;
  /** sentence, item, row, heading, code, comment or title */
  kind: Scalars['String']['output'];
  reason: Scalars['String']['output'];
  /** The detection rules that matched, strongest first (override-instructions, addresses-ai, asks-credentials, tool-call, ...). */
  rules: Array<Scalars['String']['output']>;
  sourceId: Scalars['String']['output'];
  /** The passage as the source has it (flattened, at most 400 characters). */
  text: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** API keys (never their secrets). Admin keys only; a workspace admin sees its workspace's keys. */
  apiKeys: Array<ApiKey>;
  /** Every write attempted through the API, newest first, allowed or not. Admin keys only. */
  auditLog: Array<AuditRecord>;
  /** What a workspace holds; version changes with every write to its corpus. */
  corpus: Corpus;
  /** Jobs that exhausted their attempts (or could never succeed), with their errors. Needs the queue. */
  deadLetters: Array<DeadLetter>;
  /** One document by its id (the source path it was ingested from). */
  document?: Maybe<Document>;
  /** Documents a page at a time, in source-path order or newest update first; search keeps those whose id, title or kind contains it (any case). */
  documents: DocumentConnection;
  /** A numbered entity: entity(type: "algorithm", number: "3.2"). */
  entity?: Maybe<Entity>;
  /** One golden eval run by its id (the report's file name without .json); null when there is none. */
  evalRun?: Maybe<EvalRun>;
  /** Golden eval runs (pnpm rag:eval reports in AGENTIC_RAG_EVAL_RESULTS_DIR), newest first. Admin keys only. */
  evalRuns: Array<EvalRun>;
  /** The knowledge-graph neighbourhood of entities, by relation types, up to 3 hops. */
  expandGraph: GraphExpansion;
  job?: Maybe<Job>;
  /** A workspace's latest jobs, newest first: queued ones and, without a queue, the ingests run inline. */
  jobs: JobList;
  /** Hybrid retrieval alone: ranked chunks with the score of every channel that found them. */
  search: SearchResult;
  /** The workspaces the key may see (every one for a key of every workspace), by id. */
  workspaces: Array<Workspace>;
};

export type QueryApiKeysArgs = {
  includeRevoked?: InputMaybe<Scalars['Boolean']['input']>;
};

export type QueryAuditLogArgs = {
  before?: InputMaybe<Scalars['Int']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  workspaceId?: InputMaybe<Scalars['ID']['input']>;
};

export type QueryCorpusArgs = {
  workspaceId: Scalars['ID']['input'];
};

export type QueryDeadLettersArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};

export type QueryDocumentArgs = {
  id: Scalars['ID']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type QueryDocumentsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<DocumentOrder>;
  search?: InputMaybe<Scalars['String']['input']>;
  sourcePrefix?: InputMaybe<Scalars['String']['input']>;
  workspaceId: Scalars['ID']['input'];
};

export type QueryEntityArgs = {
  number: Scalars['String']['input'];
  type: Scalars['String']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type QueryEvalRunArgs = {
  id: Scalars['ID']['input'];
};

export type QueryEvalRunsArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};

export type QueryExpandGraphArgs = {
  depth?: InputMaybe<Scalars['Int']['input']>;
  ids: Array<Scalars['ID']['input']>;
  relationTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  workspaceId: Scalars['ID']['input'];
};

export type QueryJobArgs = {
  id: Scalars['ID']['input'];
};

export type QueryJobsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  workspaceId: Scalars['ID']['input'];
};

export type QuerySearchArgs = {
  input: SearchInput;
};

export type RagAnswer = {
  __typename?: 'RagAnswer';
  answer: Scalars['String']['output'];
  cached: Scalars['Boolean']['output'];
  citations: Array<Citation>;
  /** Set when the question was asked in a conversation (conversationId or startConversation). */
  conversation?: Maybe<AnswerConversation>;
  corpusVersion: Scalars['Int']['output'];
  debug?: Maybe<AnswerDebug>;
  /** True when nothing in the knowledge base covered the question; the answer says so. */
  refused: Scalars['Boolean']['output'];
  runId: Scalars['ID']['output'];
  selfCheck: SelfCheck;
  traceId: Scalars['String']['output'];
};

export type RagAnswerEvent = {
  __typename?: 'RagAnswerEvent';
  /** type final: what ragAnswer returns for the same input. */
  answer?: Maybe<RagAnswer>;
  /** type citation: final, sent once, before the first piece that cites it. */
  citation?: Maybe<Citation>;
  /** type error: why the stream ended. */
  error?: Maybe<StreamError>;
  /** type stage, finished: the stage's duration. */
  ms?: Maybe<Scalars['Float']['output']>;
  /** type stage: plan, rewrite, hyde, retrieve, quarantine, tools, synthesize, refuse or self-check. */
  stage?: Maybe<Scalars['String']['output']>;
  /** type stage: started or finished. */
  status?: Maybe<Scalars['String']['output']>;
  /** type delta: the next piece of the answer's text; the pieces join to the final answer. */
  text?: Maybe<Scalars['String']['output']>;
  /** stage, delta, citation, final or error. */
  type: Scalars['String']['output'];
};

export type RagAnswerInput = {
  /**
   * Continue a conversation: its earlier turns go to the rewrite stage, which makes a follow-up ("and
   * how do I delete it?") stand alone. A conversation of another key or workspace, or one expired
   * (AGENTIC_RAG_CONVERSATION_TTL_SECONDS), is NOT_FOUND.
   */
  conversationId?: InputMaybe<Scalars['ID']['input']>;
  debug?: InputMaybe<Scalars['Boolean']['input']>;
  filters?: InputMaybe<Scalars['JSON']['input']>;
  /**
   * Read at least this corpus version of the workspace: pass the corpusVersion a write (ingest,
   * delete, refresh) returned to see that write whichever API process and database replica answer.
   */
  minCorpusVersion?: InputMaybe<Scalars['Int']['input']>;
  query: Scalars['String']['input'];
  /** Begin a conversation with this question: the answer's conversation.id names it for the next one. */
  startConversation?: InputMaybe<Scalars['Boolean']['input']>;
  topK?: InputMaybe<Scalars['Int']['input']>;
  useHyde?: InputMaybe<Scalars['Boolean']['input']>;
  useTools?: InputMaybe<Scalars['Boolean']['input']>;
  workspaceId: Scalars['ID']['input'];
};

export type Redaction = {
  __typename?: 'Redaction';
  count: Scalars['Int']['output'];
  /** The secret-scanning rules that matched (aws-secret-access-key, private-key, ...): never the secret. */
  rules: Array<Scalars['String']['output']>;
  sourceId: Scalars['String']['output'];
};

/** Every unfinished document of the workspace appears in exactly one list. */
export type ResumeResult = {
  __typename?: 'ResumeResult';
  /** Unfinished jobs the queue still holds and will run: nothing to do. */
  alive: Array<Scalars['ID']['output']>;
  /** Unfinished jobs the queue had lost, or stuck documents, enqueued again. */
  requeued: Array<Scalars['ID']['output']>;
  /** Dead jobs put back on the queue (from their dead letter, or from rag_jobs when Redis lost it). */
  retried: Array<Scalars['ID']['output']>;
  unrecoverable: Array<UnrecoverableDocument>;
};

export type SearchHit = {
  __typename?: 'SearchHit';
  /** Each channel's raw score, rank and normalised score: why the chunk was retrieved. */
  channels: Scalars['JSON']['output'];
  chunkId: Scalars['String']['output'];
  /** The document's metadata: a knowledge piece's knowledge_type, info_type, tags and entity_id; a spec operation's method and path. */
  documentMetadata?: Maybe<Scalars['JSON']['output']>;
  endOffset: Scalars['Int']['output'];
  /** The score the fusion of the channels gave the chunk. */
  fusedScore: Scalars['Float']['output'];
  graphEntities?: Maybe<Array<Scalars['String']['output']>>;
  /** Graph entities (ids) the chunk mentions: where to start a graph expansion from it. */
  mentions: Array<Scalars['String']['output']>;
  /** When a reranker ran: {score, features} (the features it weighed, when it reports them); else null. */
  rerank?: Maybe<Scalars['JSON']['output']>;
  /** The score hits are ordered by: the reranker's when one ran, else fusedScore. */
  score: Scalars['Float']['output'];
  sectionPath: Scalars['String']['output'];
  sourceId: Scalars['String']['output'];
  startOffset: Scalars['Int']['output'];
  text: Scalars['String']['output'];
  title?: Maybe<Scalars['String']['output']>;
  url?: Maybe<Scalars['String']['output']>;
};

export type SearchInput = {
  filters?: InputMaybe<Scalars['JSON']['input']>;
  k?: InputMaybe<Scalars['Int']['input']>;
  /**
   * Read at least this corpus version of the workspace: pass the corpusVersion a write (ingest,
   * delete, refresh) returned to see that write whichever API process and database replica answer.
   */
  minCorpusVersion?: InputMaybe<Scalars['Int']['input']>;
  query: Scalars['String']['input'];
  workspaceId: Scalars['ID']['input'];
};

export type SearchResult = {
  __typename?: 'SearchResult';
  correctedQuery?: Maybe<Scalars['String']['output']>;
  corrections: Array<Correction>;
  hits: Array<SearchHit>;
  intent: Scalars['JSON']['output'];
  query: Scalars['String']['output'];
  stages: Array<Stage>;
  warnings: Array<Scalars['String']['output']>;
};

export type SelfCheck = {
  __typename?: 'SelfCheck';
  citationCoverage: Scalars['Float']['output'];
  passed: Scalars['Boolean']['output'];
  unsupportedSentences: Array<Scalars['String']['output']>;
  warnings: Array<Scalars['String']['output']>;
};

export type Stage = {
  __typename?: 'Stage';
  ms: Scalars['Float']['output'];
  name: Scalars['String']['output'];
};

export type StreamError = {
  __typename?: 'StreamError';
  /** An error code (INVALID_INPUT, NOT_FOUND, RATE_LIMITED, RAG_DISABLED, ABORTED, ...). */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  retryable: Scalars['Boolean']['output'];
};

/**
 * Served over GraphQL over Server-Sent Events (the graphql-sse protocol) at /graphql/stream, not at
 * /graphql. See docs/streaming.md.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * ragAnswer as it runs: stage events, then the answer's text in pieces with each citation before
   * the first piece that cites it, then one final event whose answer equals ragAnswer's result. A
   * failure ends the stream with an error event (a stable code, never a stack trace).
   */
  ragAnswerStream: RagAnswerEvent;
};

/**
 * Served over GraphQL over Server-Sent Events (the graphql-sse protocol) at /graphql/stream, not at
 * /graphql. See docs/streaming.md.
 */
export type SubscriptionRagAnswerStreamArgs = {
  input: RagAnswerInput;
};

export type ToolCall = {
  __typename?: 'ToolCall';
  error?: Maybe<Scalars['JSON']['output']>;
  input?: Maybe<Scalars['JSON']['output']>;
  ms: Scalars['Float']['output'];
  name: Scalars['String']['output'];
  ok: Scalars['Boolean']['output'];
  output?: Maybe<Scalars['String']['output']>;
};

export type UnrecoverableDocument = {
  __typename?: 'UnrecoverableDocument';
  document: Scalars['String']['output'];
  reason: Scalars['String']['output'];
};

export type Workspace = {
  __typename?: 'Workspace';
  /** Changes with every write to the workspace's corpus. */
  corpusVersion: Scalars['Int']['output'];
  documents: Scalars['Int']['output'];
  id: Scalars['ID']['output'];
  /** When the corpus last changed. */
  updatedAt: Scalars['String']['output'];
};

export type ResolverTypeWrapper<T> = Promise<T> | T;

export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<
  TResult,
  TParent = Record<PropertyKey, never>,
  TContext = Record<PropertyKey, never>,
  TArgs = Record<PropertyKey, never>,
> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo,
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo,
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo,
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<
  TResult,
  TKey extends string,
  TParent = Record<PropertyKey, never>,
  TContext = Record<PropertyKey, never>,
  TArgs = Record<PropertyKey, never>,
> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<
  TTypes,
  TParent = Record<PropertyKey, never>,
  TContext = Record<PropertyKey, never>,
> = (parent: TParent, context: TContext, info: GraphQLResolveInfo) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  obj: T,
  context: TContext,
  info: GraphQLResolveInfo,
) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<
  TResult = Record<PropertyKey, never>,
  TParent = Record<PropertyKey, never>,
  TContext = Record<PropertyKey, never>,
  TArgs = Record<PropertyKey, never>,
> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo,
) => TResult | Promise<TResult>;

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AnswerConversation: ResolverTypeWrapper<AnswerConversation>;
  AnswerDebug: ResolverTypeWrapper<AnswerDebug>;
  ApiKey: ResolverTypeWrapper<ApiKey>;
  AuditRecord: ResolverTypeWrapper<AuditRecord>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Candidate: ResolverTypeWrapper<Candidate>;
  Chunk: ResolverTypeWrapper<Chunk>;
  Citation: ResolverTypeWrapper<Citation>;
  Corpus: ResolverTypeWrapper<Corpus>;
  Correction: ResolverTypeWrapper<Correction>;
  CrawlPageCounts: ResolverTypeWrapper<CrawlPageCounts>;
  CrawlResult: ResolverTypeWrapper<CrawlResult>;
  CrawlSchedule: ResolverTypeWrapper<CrawlSchedule>;
  CrawlSiteInput: CrawlSiteInput;
  CrawlSummary: ResolverTypeWrapper<CrawlSummary>;
  CreateApiKeyInput: CreateApiKeyInput;
  CreatedApiKey: ResolverTypeWrapper<CreatedApiKey>;
  DeadLetter: ResolverTypeWrapper<DeadLetter>;
  DeleteResult: ResolverTypeWrapper<DeleteResult>;
  Document: ResolverTypeWrapper<DocumentParent>;
  DocumentConnection: ResolverTypeWrapper<
    Omit<DocumentConnection, 'edges'> & { edges: Array<ResolversTypes['DocumentEdge']> }
  >;
  DocumentCounts: ResolverTypeWrapper<DocumentCounts>;
  DocumentEdge: ResolverTypeWrapper<Omit<DocumentEdge, 'node'> & { node: ResolversTypes['Document'] }>;
  DocumentOrder: DocumentOrder;
  Entity: ResolverTypeWrapper<Entity>;
  EvalCategory: ResolverTypeWrapper<EvalCategory>;
  EvalRun: ResolverTypeWrapper<EvalRun>;
  EvalStageLatency: ResolverTypeWrapper<EvalStageLatency>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  GraphEdge: ResolverTypeWrapper<GraphEdge>;
  GraphExpansion: ResolverTypeWrapper<GraphExpansion>;
  GraphNode: ResolverTypeWrapper<GraphNode>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  IngestFailure: ResolverTypeWrapper<IngestFailure>;
  IngestInput: IngestInput;
  IngestResult: ResolverTypeWrapper<IngestResult>;
  IngestSummary: ResolverTypeWrapper<IngestSummary>;
  InlineDocumentInput: InlineDocumentInput;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  JSON: ResolverTypeWrapper<Scalars['JSON']['output']>;
  Job: ResolverTypeWrapper<Job>;
  JobList: ResolverTypeWrapper<JobList>;
  Mention: ResolverTypeWrapper<Mention>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  QuarantinedPassage: ResolverTypeWrapper<QuarantinedPassage>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RagAnswer: ResolverTypeWrapper<RagAnswer>;
  RagAnswerEvent: ResolverTypeWrapper<RagAnswerEvent>;
  RagAnswerInput: RagAnswerInput;
  Redaction: ResolverTypeWrapper<Redaction>;
  ResumeResult: ResolverTypeWrapper<ResumeResult>;
  SearchHit: ResolverTypeWrapper<SearchHit>;
  SearchInput: SearchInput;
  SearchResult: ResolverTypeWrapper<SearchResult>;
  SelfCheck: ResolverTypeWrapper<SelfCheck>;
  Stage: ResolverTypeWrapper<Stage>;
  StreamError: ResolverTypeWrapper<StreamError>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  ToolCall: ResolverTypeWrapper<ToolCall>;
  UnrecoverableDocument: ResolverTypeWrapper<UnrecoverableDocument>;
  Workspace: ResolverTypeWrapper<Workspace>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AnswerConversation: AnswerConversation;
  AnswerDebug: AnswerDebug;
  ApiKey: ApiKey;
  AuditRecord: AuditRecord;
  Boolean: Scalars['Boolean']['output'];
  Candidate: Candidate;
  Chunk: Chunk;
  Citation: Citation;
  Corpus: Corpus;
  Correction: Correction;
  CrawlPageCounts: CrawlPageCounts;
  CrawlResult: CrawlResult;
  CrawlSchedule: CrawlSchedule;
  CrawlSiteInput: CrawlSiteInput;
  CrawlSummary: CrawlSummary;
  CreateApiKeyInput: CreateApiKeyInput;
  CreatedApiKey: CreatedApiKey;
  DeadLetter: DeadLetter;
  DeleteResult: DeleteResult;
  Document: DocumentParent;
  DocumentConnection: Omit<DocumentConnection, 'edges'> & {
    edges: Array<ResolversParentTypes['DocumentEdge']>;
  };
  DocumentCounts: DocumentCounts;
  DocumentEdge: Omit<DocumentEdge, 'node'> & { node: ResolversParentTypes['Document'] };
  Entity: Entity;
  EvalCategory: EvalCategory;
  EvalRun: EvalRun;
  EvalStageLatency: EvalStageLatency;
  Float: Scalars['Float']['output'];
  GraphEdge: GraphEdge;
  GraphExpansion: GraphExpansion;
  GraphNode: GraphNode;
  ID: Scalars['ID']['output'];
  IngestFailure: IngestFailure;
  IngestInput: IngestInput;
  IngestResult: IngestResult;
  IngestSummary: IngestSummary;
  InlineDocumentInput: InlineDocumentInput;
  Int: Scalars['Int']['output'];
  JSON: Scalars['JSON']['output'];
  Job: Job;
  JobList: JobList;
  Mention: Mention;
  Mutation: Record<PropertyKey, never>;
  PageInfo: PageInfo;
  QuarantinedPassage: QuarantinedPassage;
  Query: Record<PropertyKey, never>;
  RagAnswer: RagAnswer;
  RagAnswerEvent: RagAnswerEvent;
  RagAnswerInput: RagAnswerInput;
  Redaction: Redaction;
  ResumeResult: ResumeResult;
  SearchHit: SearchHit;
  SearchInput: SearchInput;
  SearchResult: SearchResult;
  SelfCheck: SelfCheck;
  Stage: Stage;
  StreamError: StreamError;
  String: Scalars['String']['output'];
  Subscription: Record<PropertyKey, never>;
  ToolCall: ToolCall;
  UnrecoverableDocument: UnrecoverableDocument;
  Workspace: Workspace;
};

export type AnswerConversationResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['AnswerConversation'] = ResolversParentTypes['AnswerConversation'],
> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  rewriter?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rewritten?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  standaloneQuery?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  turn?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AnswerDebugResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['AnswerDebug'] = ResolversParentTypes['AnswerDebug'],
> = {
  candidates?: Resolver<Array<ResolversTypes['Candidate']>, ParentType, ContextType>;
  corrections?: Resolver<Array<ResolversTypes['Correction']>, ParentType, ContextType>;
  hydeDocument?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  quarantined?: Resolver<Array<ResolversTypes['QuarantinedPassage']>, ParentType, ContextType>;
  rewrittenQuery?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stages?: Resolver<Array<ResolversTypes['Stage']>, ParentType, ContextType>;
  synthesis?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  toolCalls?: Resolver<Array<ResolversTypes['ToolCall']>, ParentType, ContextType>;
};

export type ApiKeyResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['ApiKey'] = ResolversParentTypes['ApiKey'],
> = {
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdBy?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  label?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  role?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  workspaceId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type AuditRecordResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['AuditRecord'] = ResolversParentTypes['AuditRecord'],
> = {
  actor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  at?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  keyId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  operation?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  outcome?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  target?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  workspaceId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
};

export type CandidateResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Candidate'] = ResolversParentTypes['Candidate'],
> = {
  channelScores?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  finalScore?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ChunkResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Chunk'] = ResolversParentTypes['Chunk'],
> = {
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  endOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  index?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sectionPath?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  text?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tokenCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type CitationResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Citation'] = ResolversParentTypes['Citation'],
> = {
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  endOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  index?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pageNumber?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  score?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  snippet?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type CorpusResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Corpus'] = ResolversParentTypes['Corpus'],
> = {
  chunks?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  documents?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  entities?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  relations?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  tokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  version?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  workspaceId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type CorrectionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Correction'] = ResolversParentTypes['Correction'],
> = {
  from?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  similarity?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CrawlPageCountsResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['CrawlPageCounts'] = ResolversParentTypes['CrawlPageCounts'],
> = {
  disallowed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  failed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  fetched?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  gone?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  notModified?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  requested?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  skipped?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type CrawlResultResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['CrawlResult'] = ResolversParentTypes['CrawlResult'],
> = {
  jobs?: Resolver<Array<ResolversTypes['Job']>, ParentType, ContextType>;
  mode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  schedule?: Resolver<Maybe<ResolversTypes['CrawlSchedule']>, ParentType, ContextType>;
  summary?: Resolver<Maybe<ResolversTypes['CrawlSummary']>, ParentType, ContextType>;
};

export type CrawlScheduleResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['CrawlSchedule'] = ResolversParentTypes['CrawlSchedule'],
> = {
  everySeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  next?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type CrawlSummaryResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['CrawlSummary'] = ResolversParentTypes['CrawlSummary'],
> = {
  bytes?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  chunks?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  corpusVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  documents?: Resolver<ResolversTypes['DocumentCounts'], ParentType, ContextType>;
  failures?: Resolver<Array<ResolversTypes['IngestFailure']>, ParentType, ContextType>;
  pages?: Resolver<ResolversTypes['CrawlPageCounts'], ParentType, ContextType>;
  seconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  site?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stoppedBy?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type CreatedApiKeyResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['CreatedApiKey'] = ResolversParentTypes['CreatedApiKey'],
> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  label?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  role?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  workspaceId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type DeadLetterResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['DeadLetter'] = ResolversParentTypes['DeadLetter'],
> = {
  attempts?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  document?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  error?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  failedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  traceId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  workspaceId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type DeleteResultResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['DeleteResult'] = ResolversParentTypes['DeleteResult'],
> = {
  corpusVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  deleted?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type DocumentResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Document'] = ResolversParentTypes['Document'],
> = {
  chunkCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  chunks?: Resolver<
    Array<ResolversTypes['Chunk']>,
    ParentType,
    ContextType,
    RequireFields<DocumentChunksArgs, 'first'>
  >;
  contentHash?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  metadata?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  tokenCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type DocumentConnectionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['DocumentConnection'] = ResolversParentTypes['DocumentConnection'],
> = {
  edges?: Resolver<Array<ResolversTypes['DocumentEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type DocumentCountsResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['DocumentCounts'] = ResolversParentTypes['DocumentCounts'],
> = {
  added?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  failed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  removed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  skipped?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  unchanged?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  updated?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type DocumentEdgeResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['DocumentEdge'] = ResolversParentTypes['DocumentEdge'],
> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Document'], ParentType, ContextType>;
};

export type EntityResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Entity'] = ResolversParentTypes['Entity'],
> = {
  aliases?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  definedBy?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  mentions?: Resolver<Array<ResolversTypes['Mention']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  properties?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type EvalCategoryResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['EvalCategory'] = ResolversParentTypes['EvalCategory'],
> = {
  answerRecall?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  category?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  hitRate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  mrr?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  questions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  refusalAccuracy?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type EvalRunResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['EvalRun'] = ResolversParentTypes['EvalRun'],
> = {
  answerRecall?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  answerable?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  answerer?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  categories?: Resolver<Array<ResolversTypes['EvalCategory']>, ParentType, ContextType>;
  citationCoverage?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  citationPrecision?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  dataset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  endpointPrecisionAt1?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  falseRefusals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  hitRate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  k?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  latencyP50Ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  latencyP95Ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  mrr?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  questions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  refusalAccuracy?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  refusalRequired?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  refusedWhenRequired?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  seconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  stages?: Resolver<Array<ResolversTypes['EvalStageLatency']>, ParentType, ContextType>;
  startedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  workspaceId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type EvalStageLatencyResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['EvalStageLatency'] = ResolversParentTypes['EvalStageLatency'],
> = {
  p50Ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  p95Ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  stage?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type GraphEdgeResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['GraphEdge'] = ResolversParentTypes['GraphEdge'],
> = {
  from?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  weight?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type GraphExpansionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['GraphExpansion'] = ResolversParentTypes['GraphExpansion'],
> = {
  edges?: Resolver<Array<ResolversTypes['GraphEdge']>, ParentType, ContextType>;
  entities?: Resolver<Array<ResolversTypes['GraphNode']>, ParentType, ContextType>;
};

export type GraphNodeResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['GraphNode'] = ResolversParentTypes['GraphNode'],
> = {
  hop?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  strength?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type IngestFailureResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['IngestFailure'] = ResolversParentTypes['IngestFailure'],
> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type IngestResultResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['IngestResult'] = ResolversParentTypes['IngestResult'],
> = {
  jobs?: Resolver<Array<ResolversTypes['Job']>, ParentType, ContextType>;
  mode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  summary?: Resolver<Maybe<ResolversTypes['IngestSummary']>, ParentType, ContextType>;
};

export type IngestSummaryResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['IngestSummary'] = ResolversParentTypes['IngestSummary'],
> = {
  chunks?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  corpusVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  documents?: Resolver<ResolversTypes['DocumentCounts'], ParentType, ContextType>;
  failures?: Resolver<Array<ResolversTypes['IngestFailure']>, ParentType, ContextType>;
  redactions?: Resolver<Array<ResolversTypes['Redaction']>, ParentType, ContextType>;
  seconds?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  tokens?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export interface JsonScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['JSON'], any> {
  name: 'JSON';
}

export type JobResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Job'] = ResolversParentTypes['Job'],
> = {
  attempts?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  corpusVersion?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  finishedAt?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  progress?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  subject?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  traceId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type JobListResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['JobList'] = ResolversParentTypes['JobList'],
> = {
  jobs?: Resolver<Array<ResolversTypes['Job']>, ParentType, ContextType>;
  queue?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type MentionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Mention'] = ResolversParentTypes['Mention'],
> = {
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  count?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type MutationResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation'],
> = {
  crawlSite?: Resolver<
    ResolversTypes['CrawlResult'],
    ParentType,
    ContextType,
    RequireFields<MutationCrawlSiteArgs, 'input'>
  >;
  createApiKey?: Resolver<
    ResolversTypes['CreatedApiKey'],
    ParentType,
    ContextType,
    RequireFields<MutationCreateApiKeyArgs, 'input'>
  >;
  deleteDocument?: Resolver<
    ResolversTypes['DeleteResult'],
    ParentType,
    ContextType,
    RequireFields<MutationDeleteDocumentArgs, 'id' | 'workspaceId'>
  >;
  ingestDocuments?: Resolver<
    ResolversTypes['IngestResult'],
    ParentType,
    ContextType,
    RequireFields<MutationIngestDocumentsArgs, 'input'>
  >;
  purgeDeadLetters?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  ragAnswer?: Resolver<
    ResolversTypes['RagAnswer'],
    ParentType,
    ContextType,
    RequireFields<MutationRagAnswerArgs, 'input'>
  >;
  refreshDocument?: Resolver<
    ResolversTypes['IngestResult'],
    ParentType,
    ContextType,
    RequireFields<MutationRefreshDocumentArgs, 'id' | 'workspaceId'>
  >;
  resumeIngest?: Resolver<
    ResolversTypes['ResumeResult'],
    ParentType,
    ContextType,
    RequireFields<MutationResumeIngestArgs, 'workspaceId'>
  >;
  retryDeadLetters?: Resolver<
    Array<ResolversTypes['ID']>,
    ParentType,
    ContextType,
    Partial<MutationRetryDeadLettersArgs>
  >;
  revokeApiKey?: Resolver<
    ResolversTypes['Boolean'],
    ParentType,
    ContextType,
    RequireFields<MutationRevokeApiKeyArgs, 'id'>
  >;
};

export type PageInfoResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo'],
> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type QuarantinedPassageResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['QuarantinedPassage'] = ResolversParentTypes['QuarantinedPassage'],
> = {
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  disguises?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  reason?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rules?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  text?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type QueryResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query'],
> = {
  apiKeys?: Resolver<
    Array<ResolversTypes['ApiKey']>,
    ParentType,
    ContextType,
    RequireFields<QueryApiKeysArgs, 'includeRevoked'>
  >;
  auditLog?: Resolver<
    Array<ResolversTypes['AuditRecord']>,
    ParentType,
    ContextType,
    RequireFields<QueryAuditLogArgs, 'first'>
  >;
  corpus?: Resolver<
    ResolversTypes['Corpus'],
    ParentType,
    ContextType,
    RequireFields<QueryCorpusArgs, 'workspaceId'>
  >;
  deadLetters?: Resolver<
    Array<ResolversTypes['DeadLetter']>,
    ParentType,
    ContextType,
    RequireFields<QueryDeadLettersArgs, 'limit'>
  >;
  document?: Resolver<
    Maybe<ResolversTypes['Document']>,
    ParentType,
    ContextType,
    RequireFields<QueryDocumentArgs, 'id' | 'workspaceId'>
  >;
  documents?: Resolver<
    ResolversTypes['DocumentConnection'],
    ParentType,
    ContextType,
    RequireFields<QueryDocumentsArgs, 'first' | 'orderBy' | 'workspaceId'>
  >;
  entity?: Resolver<
    Maybe<ResolversTypes['Entity']>,
    ParentType,
    ContextType,
    RequireFields<QueryEntityArgs, 'number' | 'type' | 'workspaceId'>
  >;
  evalRun?: Resolver<
    Maybe<ResolversTypes['EvalRun']>,
    ParentType,
    ContextType,
    RequireFields<QueryEvalRunArgs, 'id'>
  >;
  evalRuns?: Resolver<
    Array<ResolversTypes['EvalRun']>,
    ParentType,
    ContextType,
    RequireFields<QueryEvalRunsArgs, 'limit'>
  >;
  expandGraph?: Resolver<
    ResolversTypes['GraphExpansion'],
    ParentType,
    ContextType,
    RequireFields<QueryExpandGraphArgs, 'depth' | 'ids' | 'workspaceId'>
  >;
  job?: Resolver<Maybe<ResolversTypes['Job']>, ParentType, ContextType, RequireFields<QueryJobArgs, 'id'>>;
  jobs?: Resolver<
    ResolversTypes['JobList'],
    ParentType,
    ContextType,
    RequireFields<QueryJobsArgs, 'first' | 'workspaceId'>
  >;
  search?: Resolver<
    ResolversTypes['SearchResult'],
    ParentType,
    ContextType,
    RequireFields<QuerySearchArgs, 'input'>
  >;
  workspaces?: Resolver<Array<ResolversTypes['Workspace']>, ParentType, ContextType>;
};

export type RagAnswerResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['RagAnswer'] = ResolversParentTypes['RagAnswer'],
> = {
  answer?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  cached?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  citations?: Resolver<Array<ResolversTypes['Citation']>, ParentType, ContextType>;
  conversation?: Resolver<Maybe<ResolversTypes['AnswerConversation']>, ParentType, ContextType>;
  corpusVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  debug?: Resolver<Maybe<ResolversTypes['AnswerDebug']>, ParentType, ContextType>;
  refused?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  runId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  selfCheck?: Resolver<ResolversTypes['SelfCheck'], ParentType, ContextType>;
  traceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type RagAnswerEventResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['RagAnswerEvent'] = ResolversParentTypes['RagAnswerEvent'],
> = {
  answer?: Resolver<Maybe<ResolversTypes['RagAnswer']>, ParentType, ContextType>;
  citation?: Resolver<Maybe<ResolversTypes['Citation']>, ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['StreamError']>, ParentType, ContextType>;
  ms?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  stage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  text?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type RedactionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Redaction'] = ResolversParentTypes['Redaction'],
> = {
  count?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  rules?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ResumeResultResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['ResumeResult'] = ResolversParentTypes['ResumeResult'],
> = {
  alive?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  requeued?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  retried?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  unrecoverable?: Resolver<Array<ResolversTypes['UnrecoverableDocument']>, ParentType, ContextType>;
};

export type SearchHitResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['SearchHit'] = ResolversParentTypes['SearchHit'],
> = {
  channels?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  chunkId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  documentMetadata?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  endOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  fusedScore?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  graphEntities?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  mentions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  rerank?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  score?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  sectionPath?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  sourceId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startOffset?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  text?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  url?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type SearchResultResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['SearchResult'] = ResolversParentTypes['SearchResult'],
> = {
  correctedQuery?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  corrections?: Resolver<Array<ResolversTypes['Correction']>, ParentType, ContextType>;
  hits?: Resolver<Array<ResolversTypes['SearchHit']>, ParentType, ContextType>;
  intent?: Resolver<ResolversTypes['JSON'], ParentType, ContextType>;
  query?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stages?: Resolver<Array<ResolversTypes['Stage']>, ParentType, ContextType>;
  warnings?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type SelfCheckResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['SelfCheck'] = ResolversParentTypes['SelfCheck'],
> = {
  citationCoverage?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  passed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  unsupportedSentences?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  warnings?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type StageResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Stage'] = ResolversParentTypes['Stage'],
> = {
  ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type StreamErrorResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['StreamError'] = ResolversParentTypes['StreamError'],
> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  retryable?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type SubscriptionResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription'],
> = {
  ragAnswerStream?: SubscriptionResolver<
    ResolversTypes['RagAnswerEvent'],
    'ragAnswerStream',
    ParentType,
    ContextType,
    RequireFields<SubscriptionRagAnswerStreamArgs, 'input'>
  >;
};

export type ToolCallResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['ToolCall'] = ResolversParentTypes['ToolCall'],
> = {
  error?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  input?: Resolver<Maybe<ResolversTypes['JSON']>, ParentType, ContextType>;
  ms?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ok?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  output?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type UnrecoverableDocumentResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['UnrecoverableDocument'] =
    ResolversParentTypes['UnrecoverableDocument'],
> = {
  document?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  reason?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type WorkspaceResolvers<
  ContextType = ApiContext,
  ParentType extends ResolversParentTypes['Workspace'] = ResolversParentTypes['Workspace'],
> = {
  corpusVersion?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  documents?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = ApiContext> = {
  AnswerConversation?: AnswerConversationResolvers<ContextType>;
  AnswerDebug?: AnswerDebugResolvers<ContextType>;
  ApiKey?: ApiKeyResolvers<ContextType>;
  AuditRecord?: AuditRecordResolvers<ContextType>;
  Candidate?: CandidateResolvers<ContextType>;
  Chunk?: ChunkResolvers<ContextType>;
  Citation?: CitationResolvers<ContextType>;
  Corpus?: CorpusResolvers<ContextType>;
  Correction?: CorrectionResolvers<ContextType>;
  CrawlPageCounts?: CrawlPageCountsResolvers<ContextType>;
  CrawlResult?: CrawlResultResolvers<ContextType>;
  CrawlSchedule?: CrawlScheduleResolvers<ContextType>;
  CrawlSummary?: CrawlSummaryResolvers<ContextType>;
  CreatedApiKey?: CreatedApiKeyResolvers<ContextType>;
  DeadLetter?: DeadLetterResolvers<ContextType>;
  DeleteResult?: DeleteResultResolvers<ContextType>;
  Document?: DocumentResolvers<ContextType>;
  DocumentConnection?: DocumentConnectionResolvers<ContextType>;
  DocumentCounts?: DocumentCountsResolvers<ContextType>;
  DocumentEdge?: DocumentEdgeResolvers<ContextType>;
  Entity?: EntityResolvers<ContextType>;
  EvalCategory?: EvalCategoryResolvers<ContextType>;
  EvalRun?: EvalRunResolvers<ContextType>;
  EvalStageLatency?: EvalStageLatencyResolvers<ContextType>;
  GraphEdge?: GraphEdgeResolvers<ContextType>;
  GraphExpansion?: GraphExpansionResolvers<ContextType>;
  GraphNode?: GraphNodeResolvers<ContextType>;
  IngestFailure?: IngestFailureResolvers<ContextType>;
  IngestResult?: IngestResultResolvers<ContextType>;
  IngestSummary?: IngestSummaryResolvers<ContextType>;
  JSON?: GraphQLScalarType;
  Job?: JobResolvers<ContextType>;
  JobList?: JobListResolvers<ContextType>;
  Mention?: MentionResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  QuarantinedPassage?: QuarantinedPassageResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  RagAnswer?: RagAnswerResolvers<ContextType>;
  RagAnswerEvent?: RagAnswerEventResolvers<ContextType>;
  Redaction?: RedactionResolvers<ContextType>;
  ResumeResult?: ResumeResultResolvers<ContextType>;
  SearchHit?: SearchHitResolvers<ContextType>;
  SearchResult?: SearchResultResolvers<ContextType>;
  SelfCheck?: SelfCheckResolvers<ContextType>;
  Stage?: StageResolvers<ContextType>;
  StreamError?: StreamErrorResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  ToolCall?: ToolCallResolvers<ContextType>;
  UnrecoverableDocument?: UnrecoverableDocumentResolvers<ContextType>;
  Workspace?: WorkspaceResolvers<ContextType>;
};
