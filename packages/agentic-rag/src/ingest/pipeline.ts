import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { Embedder } from '../embed/index.js';
import {
  mergeFacts,
  toSourceGraph,
  type EntityExtractor,
  type ExtractionInput,
  type SourceGraph,
} from '../graph/index.js';
import type { QuestionWriter } from '../hyde/index.js';
import type { CorpusStore, WriteStatus } from '../store/index.js';
import { ingestChunks, ingestDocuments, silentLogger, type Logger } from '../telemetry/index.js';
import { chunkText, type Chunk } from './chunker.js';
import { contentHash, pipelineFingerprint, stableChunkId } from './content-hash.js';
import { discoverFiles, resolveInsideRoot, type DiscoveredFile } from './discover.js';
import { codePointOffsets } from './offsets.js';
import type { LoadedDocument, LoadFailure } from './document.js';
import { LOADERS, loaderFor, looksBinary, normalizeText, type LoadResult } from './loaders/index.js';
import { screenDocument, type SecretRedaction, type SecretsMode } from './secrets/index.js';
import { cl100kTokenizer, type Tokenizer } from './tokenizer.js';

/** What the pipeline needs of the store; the benchmark swaps in a naive writer here. */
export type IngestStore = Pick<
  CorpusStore,
  | 'documentState'
  | 'writeDocument'
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
  /** Remove documents previously ingested from the same directory whose files are gone. */
  prune?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  filesTotal: number;
  filesDone: number;
  currentFile: string;
  chunks: number;
}

export interface IngestFailure {
  sourcePath: string;
  code: string;
  message: string;
}

export interface IngestSummary {
  workspaceId: string;
  files: number;
  /** `skipped`: new documents with no text; `removed`: pruned, or emptied since the last run. */
  documents: {
    added: number;
    updated: number;
    unchanged: number;
    removed: number;
    skipped: number;
    failed: number;
  };
  /** Chunks written (added or replaced) by this run. */
  chunks: number;
  /** Tokens in the chunks written by this run. */
  tokens: number;
  seconds: number;
  chunksPerSecond: number;
  corpusVersion: number;
  failures: IngestFailure[];
  /** Documents whose secrets were replaced by `[REDACTED:<rule>]`: rule names and counts, never a secret. */
  redactions: IngestRedaction[];
}

export interface IngestRedaction {
  sourcePath: string;
  rules: string[];
  count: number;
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

export interface DocumentOutcome {
  status: WriteStatus | 'removed' | 'skipped';
  chunks: number;
  tokens: number;
  /** Secrets cut out of the document before it was chunked (none: an empty list). */
  redactions: SecretRedaction[];
}

interface Source {
  /** The folder's name: the first segment of every source path from it, and the prune scope. */
  label: string;
  files: DiscoveredFile[];
  isDirectory: boolean;
  /** The folder its files must resolve inside; null for a file named on its own. */
  root: string | null;
}

/** Errors that would fail every remaining document the same way. */
const STOP_THE_RUN: ReadonlySet<string> = new Set([
  ErrorCode.STORE_UNAVAILABLE,
  ErrorCode.EMBEDDER_UNAVAILABLE,
  ErrorCode.EMBEDDER_REQUEST_REJECTED,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
]);

/** Bumped when chunking changes in a way that should re-chunk stored documents. */
const CHUNKER_VERSION = 1;

/**
 * Files → loaders → chunker → embedder → store. A document whose content hash and pipeline
 * fingerprint match what is stored is skipped before any chunking or embedding; a changed one is
 * replaced in one transaction. One bad file is reported and the rest still ingest.
 */
export class IngestPipeline {
  private readonly tokenizer: Tokenizer;
  private readonly logger: Logger;
  private readonly fingerprint: string;

  constructor(private readonly options: IngestPipelineOptions) {
    this.tokenizer = options.tokenizer ?? cl100kTokenizer();
    this.logger = options.logger ?? silentLogger;
    this.fingerprint = pipelineFingerprint({
      chunker: CHUNKER_VERSION,
      tokenizer: this.tokenizer.name,
      maxTokens: options.maxTokens,
      overlapTokens: options.overlapTokens,
      embedder: options.embedder.modelId,
      dimensions: options.embedder.dimensions,
      extractors: (options.extractors ?? []).map((extractor) => extractor.name),
      ...(options.questions ? { questions: options.questions.name } : {}),
    });
  }

  async ingestSources(options: IngestSourcesOptions): Promise<IngestSummary> {
    const started = performance.now();
    const summary = emptySummary(options.workspaceId);
    const fail = (failure: IngestFailure) => {
      summary.failures.push(failure);
      summary.documents.failed++;
      this.logger.warn('ingest failure', { event: 'ingest-failed', ...failure });
    };

    const sources: Source[] = [];
    for (const source of options.sources) {
      const resolved = path.resolve(source);
      const info = await stat(resolved).catch(() => null);
      if (!info) {
        fail({ sourcePath: source, code: ErrorCode.NOT_FOUND, message: `source ${source} does not exist` });
        continue;
      }
      if (info.isDirectory()) {
        const label = path.basename(resolved);
        const discovered = await discoverFiles(resolved);
        for (const failure of discovered.failures)
          fail({ ...failure, sourcePath: `${label}/${failure.sourcePath}` });
        sources.push({ label, files: discovered.files, isDirectory: true, root: resolved });
      } else {
        const label = path.basename(path.dirname(resolved));
        sources.push({
          label,
          files: [{ absolutePath: resolved, relativePath: path.basename(resolved) }],
          isDirectory: false,
          root: null,
        });
      }
    }

    const filesTotal = sources.reduce((total, source) => total + source.files.length, 0);
    let filesDone = 0;
    this.logger.info('ingest start', {
      event: 'ingest-start',
      workspaceId: options.workspaceId,
      files: filesTotal,
    });
    // Identities of this run: two sources whose folders share a name must not overwrite each other.
    const produced = new Set<string>();

    await this.options.store.withBulkLoad(async () => {
      for (const source of sources) {
        const failedFiles = new Set<string>();
        const seen = new Set<string>();
        await runPool(source.files, this.options.concurrency ?? 4, async (file) => {
          options.signal?.throwIfAborted();
          const sourceFile = `${source.label}/${file.relativePath}`;
          const loaded = await loadFile(file, sourceFile, source.root);
          for (const failure of loaded.failures) {
            fail(failure);
            failedFiles.add(sourceFile);
          }
          for (const document of loaded.documents) {
            seen.add(document.sourcePath);
            if (produced.has(document.sourcePath)) {
              fail({
                sourcePath: document.sourcePath,
                code: ErrorCode.INVALID_INPUT,
                message:
                  'another source of this run has the same path; give the source folders different names',
              });
              continue;
            }
            produced.add(document.sourcePath);
            try {
              const outcome = await this.ingestDocument(
                options.workspaceId,
                source.label,
                document,
                options.signal,
              );
              tally(summary, document.sourcePath, outcome);
            } catch (error) {
              const ragError = toRagError(error);
              if (ragError.code === ErrorCode.ABORTED || options.signal?.aborted) throw ragError;
              // A dead store or embedder fails every document the same way: stop instead of
              // reporting the same error for each of them.
              if (STOP_THE_RUN.has(ragError.code)) throw ragError;
              fail({ sourcePath: document.sourcePath, code: ragError.code, message: ragError.message });
              failedFiles.add(sourceFile);
            }
          }
          summary.files++;
          filesDone++;
          options.onProgress?.({ filesTotal, filesDone, currentFile: sourceFile, chunks: summary.chunks });
        });

        // A single file says nothing about which of its neighbours still exist: only directories prune.
        if (options.prune && source.isDirectory) {
          const stored = await this.options.store.listDocuments(options.workspaceId, source.label);
          const gone = stored
            .filter((document) => !seen.has(document.sourcePath) && !failedFiles.has(document.sourceFile))
            .map((document) => document.sourcePath);
          summary.documents.removed += await this.options.store.deleteDocuments(options.workspaceId, gone);
        }
      }
    });

    const stats = await this.options.store.stats(options.workspaceId);
    summary.corpusVersion = stats.corpusVersion;
    summary.seconds = (performance.now() - started) / 1000;
    summary.chunksPerSecond = summary.seconds > 0 ? summary.chunks / summary.seconds : 0;
    countIngest(summary);
    this.logger.info('ingest done', { event: 'ingest-done', ...summary, failures: summary.failures.length });
    return summary;
  }

  /**
   * Documents given as text (an API call) rather than files: each id is a path-like name whose
   * extension picks the loader (`notes/faq.md`, `api/spec.yaml`) and whose first segment is its
   * source root. The same loaders, identity, hashing and failure reporting as files.
   */
  async ingestInline(
    workspaceId: string,
    documents: ReadonlyArray<{ id: string; content: string }>,
    signal?: AbortSignal,
  ): Promise<IngestSummary> {
    const started = performance.now();
    const summary = emptySummary(workspaceId);
    const fail = (failure: IngestFailure) => {
      summary.failures.push(failure);
      summary.documents.failed++;
    };
    for (const { id, content } of documents) {
      signal?.throwIfAborted();
      const { loaded, sourceRoot } = loadInline(id, content);
      loaded.failures.forEach(fail);
      if (sourceRoot === null) continue;
      summary.files++;
      for (const document of loaded.documents) {
        try {
          const outcome = await this.ingestDocument(workspaceId, sourceRoot, document, signal);
          tally(summary, document.sourcePath, outcome);
        } catch (error) {
          const ragError = toRagError(error);
          if (ragError.code === ErrorCode.ABORTED || STOP_THE_RUN.has(ragError.code)) throw ragError;
          fail({ sourcePath: document.sourcePath, code: ragError.code, message: ragError.message });
        }
      }
      summary.documents.removed += await this.pruneSiblings(workspaceId, sourceRoot, loaded);
    }
    return this.finished(summary, started);
  }

  /**
   * One file of a folder, with the identity a whole-folder ingest gives it (`<folder>/<path>`):
   * the unit of work of a queued ingest.
   */
  async ingestFile(
    workspaceId: string,
    root: string,
    relativePath: string,
    signal?: AbortSignal,
  ): Promise<IngestSummary> {
    const started = performance.now();
    const summary = emptySummary(workspaceId);
    const label = path.basename(path.resolve(root));
    const sourceFile = `${label}/${relativePath}`;
    const loaded = await loadFile(
      { absolutePath: path.join(path.resolve(root), relativePath), relativePath },
      sourceFile,
      root,
    );
    const fail = (failure: IngestFailure) => {
      summary.failures.push(failure);
      summary.documents.failed++;
    };
    loaded.failures.forEach(fail);
    for (const document of loaded.documents) {
      try {
        const outcome = await this.ingestDocument(workspaceId, label, document, signal);
        tally(summary, document.sourcePath, outcome);
      } catch (error) {
        // A refused document is this job's answer, not a fault to retry; anything else still throws.
        const ragError = toRagError(error);
        if (ragError.code !== ErrorCode.SECRET_REFUSED) throw error;
        fail({ sourcePath: document.sourcePath, code: ragError.code, message: ragError.message });
      }
    }
    summary.documents.removed += await this.pruneSiblings(workspaceId, label, loaded);
    summary.files = 1;
    return this.finished(summary, started);
  }

  /**
   * A file split into documents (a knowledge pack's pieces, a spec's operations, JSONL records)
   * that is ingested again on its own takes the documents it no longer yields with it: a piece
   * removed or edited (a new id) must not stay searchable beside its replacement. A file that
   * loaded nothing says nothing about its documents and prunes nothing.
   */
  private async pruneSiblings(workspaceId: string, sourceRoot: string, loaded: LoadResult): Promise<number> {
    const sourceFile = loaded.documents[0]?.sourceFile;
    if (!sourceFile) return 0;
    const produced = new Set(loaded.documents.map((document) => document.sourcePath));
    const stored = await this.options.store.listDocuments(workspaceId, sourceRoot, sourceFile);
    const gone = stored
      .filter((document) => !produced.has(document.sourcePath))
      .map((document) => document.sourcePath);
    return gone.length > 0 ? this.options.store.deleteDocuments(workspaceId, gone) : 0;
  }

  /** Stamps a run's summary with the corpus version it left and its speed. */
  private async finished(summary: IngestSummary, started: number): Promise<IngestSummary> {
    summary.corpusVersion = await this.options.store.corpusVersion(summary.workspaceId);
    summary.seconds = (performance.now() - started) / 1000;
    summary.chunksPerSecond = summary.seconds > 0 ? summary.chunks / summary.seconds : 0;
    countIngest(summary);
    return summary;
  }

  /**
   * Chunks, embeds and stores one loaded document, unless it is already stored unchanged. Secrets
   * are screened first: a refused document throws SECRET_REFUSED before the store is read.
   */
  async ingestDocument(
    workspaceId: string,
    sourceRoot: string,
    loadedDocument: LoadedDocument,
    signal?: AbortSignal,
  ): Promise<DocumentOutcome> {
    const { store, embedder } = this.options;
    const { document, redactions } = await this.screened(loadedDocument);
    const hash = contentHash(document);
    const state = await store.documentState(workspaceId, document.sourcePath);
    if (state && state.contentHash === hash && state.pipelineFingerprint === this.fingerprint) {
      return { status: 'unchanged', chunks: 0, tokens: 0, redactions };
    }

    const stage = async (name: IngestStage) =>
      this.options.onStage?.({
        workspaceId,
        sourcePath: document.sourcePath,
        contentHash: hash,
        stage: name,
      });
    await stage('parsed');
    const chunks = this.chunksOf(document);
    if (chunks.length === 0) {
      // A file emptied since the last run takes its old chunks with it; a new empty one is skipped.
      // Either way the document is done with, as far as `--resume` is concerned.
      if (state) await store.deleteDocuments(workspaceId, [document.sourcePath]);
      await stage('stored');
      return { status: state ? 'removed' : 'skipped', chunks: 0, tokens: 0, redactions };
    }
    await stage('chunked');
    const toCodePoint = codePointOffsets(document.text);
    const { embeddings } = await embedder.embed({
      texts: await this.embeddingTexts(document, chunks, signal),
      purpose: 'document',
      ...(signal ? { signal } : {}),
    });
    await stage('embedded');
    const tokens = chunks.reduce((total, chunk) => total + chunk.tokenCount, 0);
    const chunkIds = chunks.map((chunk) =>
      stableChunkId(workspaceId, document.sourcePath, chunk.index, chunk.text),
    );
    const graph = await this.graphOf(
      workspaceId,
      document,
      chunks.map((chunk, index) => ({ chunkId: chunkIds[index]!, start: chunk.start, end: chunk.end })),
      signal,
    );
    await stage('graph-extracted');
    const result = await store.writeDocument(
      {
        workspaceId,
        sourcePath: document.sourcePath,
        sourceFile: document.sourceFile,
        sourceRoot,
        kind: document.kind,
        title: document.title,
        url: document.url,
        content: document.text,
        contentHash: hash,
        pipelineFingerprint: this.fingerprint,
        tokenCount: this.tokenizer.count(document.text),
        metadata: document.metadata,
        embeddingModel: embedder.modelId,
        embeddingDimensions: embedder.dimensions,
        chunks: chunks.map((chunk, index) => ({
          chunkId: chunkIds[index]!,
          index: chunk.index,
          text: chunk.text,
          tokenCount: chunk.tokenCount,
          start: toCodePoint(chunk.start),
          end: toCodePoint(chunk.end),
          sectionPath: chunk.sectionPath,
          metadata: {
            block_types: chunk.metadata.blockTypes,
            ...(chunk.metadata.splitAtomicBlock ? { split_atomic_block: true } : {}),
          },
          embedding: embeddings[index]!,
        })),
        ...(graph ? { graph } : {}),
      },
      signal,
    );
    await stage('stored');
    this.logger.debug('document ingested', {
      event: 'document-ingested',
      workspaceId,
      sourcePath: document.sourcePath,
      status: result.status,
      chunks: chunks.length,
    });
    const written = result.status !== 'unchanged';
    return {
      status: result.status,
      chunks: written ? chunks.length : 0,
      tokens: written ? tokens : 0,
      redactions,
    };
  }

  /**
   * The document as it may enter the store: its secrets redacted, or a SECRET_REFUSED error that
   * names the rules (never the secret). Runs before hashing, so the stored hash is of what is stored.
   */
  private async screened(
    document: LoadedDocument,
  ): Promise<{ document: LoadedDocument; redactions: SecretRedaction[] }> {
    const screened = await screenDocument(document, this.options.secrets ?? 'redact');
    if (screened.outcome === 'clean') return { document: screened.document, redactions: [] };
    if (screened.outcome === 'refused') {
      this.logger.warn('document refused: it holds secrets', {
        event: 'secrets-refused',
        sourcePath: document.sourcePath,
        rules: screened.rules,
      });
      throw new RagError(
        ErrorCode.SECRET_REFUSED,
        `document not stored: it holds secrets (${screened.rules.join(', ')}); remove them, or ingest with secrets redacted`,
      );
    }
    this.logger.warn('secrets redacted', {
      event: 'secrets-redacted',
      sourcePath: document.sourcePath,
      redactions: screened.redactions,
    });
    return { document: screened.document, redactions: screened.redactions };
  }

  /**
   * What one document source still needs from the cached stages (questions, embeddings,
   * extraction), without writing anything. A source that does not load, or whose documents are
   * stored unchanged, has no pending work: the ingest that follows reports or skips it.
   */
  async pendingWork(workspaceId: string, source: DocumentSource): Promise<PendingWork[]> {
    const { loaded } =
      source.type === 'file'
        ? {
            loaded: await loadFile(
              {
                absolutePath: path.join(path.resolve(source.root), source.relativePath),
                relativePath: source.relativePath,
              },
              `${path.basename(path.resolve(source.root))}/${source.relativePath}`,
              source.root,
            ),
          }
        : loadInline(source.id, source.content);
    const pending: PendingWork[] = [];
    for (const loadedDocument of loaded.documents) {
      // Stage jobs embed and extract ahead of the ingest: what they see is screened the same way.
      // A refused document has no pending work; the ingest that follows reports it.
      const document = await this.screened(loadedDocument).then(
        (screened) => screened.document,
        () => null,
      );
      if (!document) continue;
      const hash = contentHash(document);
      const state = await this.options.store.documentState(workspaceId, document.sourcePath);
      if (state && state.contentHash === hash && state.pipelineFingerprint === this.fingerprint) continue;
      const chunks = this.chunksOf(document);
      if (chunks.length === 0) continue;
      const { questions, embedder } = this.options;
      const withoutQuestions = questions?.uncached
        ? await questions.uncached(chunks.map((chunk) => chunk.text))
        : [];
      const embeddings =
        withoutQuestions.length === 0 && embedder.uncached
          ? await embedder.uncached(await this.embeddingTexts(document, chunks))
          : [];
      const input = extractionInput(document);
      let extraction: ExtractionInput | null = null;
      for (const extractor of this.options.extractors ?? []) {
        if (extractor.isCached && !(await extractor.isCached(input))) extraction = input;
      }
      pending.push({
        sourcePath: document.sourcePath,
        contentHash: hash,
        questions: withoutQuestions,
        embeddings,
        extraction,
      });
    }
    return pending;
  }

  /** Stage work on its own (a queue's `embed-chunks` job): the vectors land in the embedding cache. */
  async embedTexts(texts: readonly string[], signal?: AbortSignal): Promise<void> {
    await this.options.embedder.embed({ texts, purpose: 'document', ...(signal ? { signal } : {}) });
  }

  /** Stage work on its own (a queue's `hyde` job): the questions land in the stage cache. */
  async writeQuestions(texts: readonly string[], signal?: AbortSignal): Promise<void> {
    await this.options.questions?.write(texts, signal);
  }

  /** Stage work on its own (a queue's `extract-entities` job): every extractor's facts, cached. */
  async extractFacts(input: ExtractionInput, signal?: AbortSignal): Promise<void> {
    await Promise.all((this.options.extractors ?? []).map((extractor) => extractor.extract(input, signal)));
  }

  private chunksOf(document: LoadedDocument): Chunk[] {
    return chunkText(document.text, document.blocks, {
      tokenizer: this.tokenizer,
      maxTokens: this.options.maxTokens,
      overlapTokens: this.options.overlapTokens,
    });
  }

  /**
   * What is embedded for each chunk. The title and heading trail go in (not into the stored
   * text): a chunk that says "returns 404" should still be found by a question about its
   * endpoint. So do the chunk's HyDE questions, when a question writer is configured.
   */
  private async embeddingTexts(
    document: LoadedDocument,
    chunks: readonly Chunk[],
    signal?: AbortSignal,
  ): Promise<string[]> {
    const questions = this.options.questions
      ? await this.options.questions.write(
          chunks.map((chunk) => chunk.text),
          signal,
        )
      : null;
    // A knowledge piece may say how it wants to be found (`embedding_text`); it is one chunk.
    const body = (chunk: Chunk) =>
      document.embeddingText !== undefined && chunks.length === 1 ? document.embeddingText : chunk.text;
    return chunks.map((chunk, index) =>
      [document.title ?? '', chunk.sectionPath.join(' > '), ...(questions?.[index] ?? []), body(chunk)]
        .filter(Boolean)
        .join('\n'),
    );
  }

  /** The document's graph facts: the loader's own, merged with every extractor's. */
  private async graphOf(
    workspaceId: string,
    document: LoadedDocument,
    chunks: Array<{ chunkId: string; start: number; end: number }>,
    signal?: AbortSignal,
  ): Promise<SourceGraph | null> {
    const extractors = this.options.extractors ?? [];
    if (extractors.length === 0) return null;
    const input = extractionInput(document);
    const extracted = await Promise.all(extractors.map((extractor) => extractor.extract(input, signal)));
    const facts = mergeFacts(document.facts ? [document.facts, ...extracted] : extracted);
    return toSourceGraph(workspaceId, document.sourcePath, facts, chunks);
  }
}

function extractionInput(document: LoadedDocument): ExtractionInput {
  return {
    text: document.text,
    title: document.title,
    kind: document.kind,
    sourcePath: document.sourcePath,
  };
}

/**
 * A document given as text: its id is a path-like name whose extension picks the loader and whose
 * first segment is its source root (null when the id itself is refused).
 */
function loadInline(id: string, content: string): { loaded: LoadResult; sourceRoot: string | null } {
  const refuse = (sourcePath: string, code: string, message: string) => ({
    loaded: { documents: [], failures: [{ sourcePath, code, message } satisfies LoadFailure] },
    sourceRoot: null,
  });
  const sourcePath = id.replace(/\\/g, '/').replace(/^\/+/, '');
  if (!sourcePath || sourcePath.split('/').some((segment) => segment === '..' || segment === '')) {
    return refuse(
      id,
      ErrorCode.INVALID_INPUT,
      'document id must be a relative path without "..": notes/faq.md',
    );
  }
  const loader = loaderFor(sourcePath);
  if (!loader) {
    return refuse(
      sourcePath,
      ErrorCode.UNSUPPORTED_FILE_TYPE,
      `unsupported file type "${path.extname(sourcePath) || '(none)'}" (supported: ${Object.keys(LOADERS).join(' ')})`,
    );
  }
  try {
    return {
      loaded: loader({ sourcePath, text: normalizeText(content) }),
      sourceRoot: sourcePath.split('/')[0]!,
    };
  } catch (error) {
    return refuse(sourcePath, ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
  }
}

/** Adds one document's outcome to a run's summary. */
function tally(summary: IngestSummary, sourcePath: string, outcome: DocumentOutcome): void {
  summary.documents[outcome.status]++;
  summary.chunks += outcome.chunks;
  summary.tokens += outcome.tokens;
  if (outcome.redactions.length > 0) {
    summary.redactions.push({
      sourcePath,
      rules: outcome.redactions.map((redaction) => redaction.rule),
      count: outcome.redactions.reduce((total, redaction) => total + redaction.count, 0),
    });
  }
}

/** Every run's outcome counts, whatever started it: the API, a CLI or a queued job. */
function countIngest(summary: IngestSummary): void {
  for (const [outcome, count] of Object.entries(summary.documents)) {
    if (count > 0) ingestDocuments.inc({ outcome }, count);
  }
  ingestChunks.inc(summary.chunks);
}

function emptySummary(workspaceId: string): IngestSummary {
  return {
    workspaceId,
    files: 0,
    documents: { added: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0 },
    chunks: 0,
    tokens: 0,
    seconds: 0,
    chunksPerSecond: 0,
    corpusVersion: 0,
    failures: [],
    redactions: [],
  };
}

/**
 * One file's documents. With a `root`, the file is read only if its real path (links resolved) is
 * inside the root's: a link out of the folder being ingested is refused, never read.
 */
async function loadFile(file: DiscoveredFile, sourcePath: string, root: string | null): Promise<LoadResult> {
  const failure = (code: string, message: string): LoadResult => ({
    documents: [],
    failures: [{ sourcePath, code, message } satisfies LoadFailure],
  });
  const loader = loaderFor(sourcePath);
  if (!loader) {
    return failure(
      ErrorCode.UNSUPPORTED_FILE_TYPE,
      `unsupported file type "${path.extname(file.relativePath) || '(none)'}" (supported: ${Object.keys(LOADERS).join(' ')})`,
    );
  }
  let readPath = file.absolutePath;
  if (root !== null) {
    const resolved = await resolveInsideRoot(root, file.absolutePath);
    if ('code' in resolved) return failure(resolved.code, `${sourcePath} ${resolved.reason}`);
    readPath = resolved.realPath;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(readPath);
  } catch (error) {
    return failure(
      ErrorCode.FILE_UNREADABLE,
      `cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (looksBinary(bytes))
    return failure(ErrorCode.UNSUPPORTED_FILE_TYPE, 'binary content in a text file type');
  try {
    return loader({ sourcePath, text: normalizeText(bytes.toString('utf8')) });
  } catch (error) {
    return failure(ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
  }
}

/** Runs `work` over items with bounded concurrency; the first error stops every lane. */
async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const results = await Promise.allSettled(lanes);
  const rejected = results.find((result) => result.status === 'rejected');
  if (rejected) throw (rejected as PromiseRejectedResult).reason;
}
