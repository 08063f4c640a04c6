import type { Embedder } from '../embed/index.js';
import type { EntityExtractor, ExtractionInput } from '../graph/index.js';
import type { QuestionWriter } from '../hyde/index.js';
import type { CorpusStore } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import type { SecretsMode } from './secrets/index.js';
import type { IngestProgress } from './summary.js';
import type { Tokenizer } from './tokenizer.js';
import type { WriteBatcherLimits } from './write-batcher.js';

/** What the pipeline needs of the store; the benchmark swaps in a naive writer here. */
export type IngestStore = Pick<
  CorpusStore,
  | 'documentState'
  | 'writeDocument'
  | 'writeDocuments'
  | 'listDocuments'
  | 'deleteDocuments'
  | 'stats'
  | 'corpusVersion'
  | 'withBulkLoad'
>;

export interface IngestPipelineOptions {
  store: IngestStore;
  embedder: Embedder;
  maxTokens: number;
  overlapTokens: number;
  tokenizer?: Tokenizer;
  logger?: Logger;
  /** Documents in flight at once; embedding over HTTP benefits, PGlite serialises writes anyway. */
  concurrency?: number;
  /**
   * How a multi-document run batches its writes (see WriteBatcher). The embedded database serves
   * one transaction at a time, so there a batch is also how long a search can wait behind it.
   */
  batch?: WriteBatcherLimits;
  /**
   * Entity extractors whose facts (merged with what the loader states, e.g. an OpenAPI spec's
   * $ref graph) go to the knowledge graph with the document. None: no graph facts are written.
   */
  extractors?: readonly EntityExtractor[];
  /** Ingest-side HyDE: questions per chunk, embedded with it. None: chunks are embedded as they are. */
  questions?: QuestionWriter;
  /**
   * Told as each document passes a stage, so a queue can record how far a document got. Parsing
   * and chunking are cheap and deterministic; the embedder (with its cache) is what a retry must
   * not pay for twice.
   */
  onStage?: (event: StageEvent) => Promise<void> | void;
  /**
   * What a document holding a secret (a cloud key, a private key block, a token, a password in a
   * connection string) becomes before anything is chunked, embedded or stored: `redact` (the
   * default) replaces each secret with `[REDACTED:<rule>]`, `refuse` fails the document with
   * SECRET_REFUSED and leaves any stored version as it was, `off` stores it as it is.
   */
  secrets?: SecretsMode;
}

export type IngestStage = 'parsed' | 'chunked' | 'embedded' | 'graph-extracted' | 'stored';

export interface StageEvent {
  workspaceId: string;
  sourcePath: string;
  contentHash: string;
  stage: IngestStage;
}

export interface IngestSourcesOptions {
  workspaceId: string;
  /** Directories (or single files) to ingest. */
  sources: readonly string[];
  /**
   * The folder that names what is inside it (the corpus directory): a path below it is named
   * `<its name>/<path below it>` however it is reached (see discoverSources).
   */
  namingRoot?: string;
  /** Remove documents previously ingested from the same directory whose files are gone. */
  prune?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

/** One document to ingest: a file of a folder (with the identity a folder ingest gives it), or text. */
export type DocumentSource =
  { type: 'file'; root: string; relativePath: string } | { type: 'inline'; id: string; content: string };

/**
 * What a document's ingest still has to compute that a cache in front of the stage could hold:
 * the work a queue may spread over workers before the document is written.
 */
export interface PendingWork {
  sourcePath: string;
  contentHash: string;
  /** Chunk texts without questions yet. Questions are part of what is embedded, so they come first. */
  questions: string[];
  /** Texts to embed that the embedding cache lacks (empty while questions are pending). */
  embeddings: string[];
  /** The extractors' input, when some extractor's facts for it are not cached. */
  extraction: ExtractionInput | null;
}
