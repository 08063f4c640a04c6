import path from 'node:path';
import { ErrorCode, toRagError, type RagError } from '../errors/index.js';
import {
  mergeFacts,
  toSourceGraph,
  type DocumentFacts,
  type ExtractionInput,
  type SourceGraph,
} from '../graph/index.js';
import type { WriteDocumentInput, WriteDocumentResult } from '../store/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import { chunkText, type Chunk } from './chunker.js';
import { contentHash, pipelineFingerprint, stableChunkId } from './content-hash.js';
import { codePointOffsets } from './offsets.js';
import { chunkPages, pageAt } from './pages.js';
import type { LoadedDocument } from './document.js';
import type {
  DocumentSource,
  IngestPipelineOptions,
  IngestSourcesOptions,
  IngestStage,
  PendingWork,
} from './pipeline-options.js';
import { screenForIngest, type SecretRedaction } from './secrets/index.js';
import { pruneSiblings, pruneSource } from './prune.js';
import { discoverSources, extractionInput, loadFile, loadInline, runPool } from './sources.js';
import {
  countIngest,
  emptySummary,
  STOP_THE_RUN,
  tally,
  type DocumentOutcome,
  type IngestFailure,
  type IngestSummary,
} from './summary.js';
import { cl100kTokenizer, type Tokenizer } from './tokenizer.js';
import { GroupCommit } from './group-commit.js';
import { WriteBatcher } from './write-batcher.js';

/**
 * A paged document's defined entities get the page their definition starts on (an algorithm whose
 * body runs from page 88 onto 89 is on page 88), unless an extractor already said.
 */
function withPages(facts: DocumentFacts, document: LoadedDocument): DocumentFacts {
  const { pages } = document;
  if (!pages || pages.length === 0) return facts;
  return {
    ...facts,
    entities: facts.entities.map((entity) =>
      entity.definition && entity.properties?.page === undefined
        ? { ...entity, properties: { ...entity.properties, page: pageAt(pages, entity.definition.start) } }
        : entity,
    ),
  };
}

/** A document ready to write, and what finishing it needs once written. */
interface PreparedDocument {
  input: WriteDocumentInput;
  tokens: number;
  redactions: SecretRedaction[];
}

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
  /** Documents ingested one at a time by concurrent callers (queue jobs, API calls) share transactions. */
  private readonly commits: GroupCommit;

  constructor(private readonly options: IngestPipelineOptions) {
    this.commits = new GroupCommit((inputs) => options.store.writeDocuments(inputs), options.batch);
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

    const sources = await discoverSources(options.sources, fail, options.namingRoot);
    const filesTotal = sources.reduce((total, source) => total + source.files.length, 0);
    let filesDone = 0;
    this.logger.info('ingest start', {
      event: 'ingest-start',
      workspaceId: options.workspaceId,
      files: filesTotal,
    });
    // Identities of this run: two sources whose folders share a name must not overwrite each other.
    const produced = new Set<string>();

    // Prepared documents are written in batches while the next ones are prepared (see
    // WriteBatcher); a document's outcome is tallied when its batch commits.
    const batcher = new WriteBatcher(
      (inputs) => this.options.store.writeDocuments(inputs, options.signal),
      this.options.batch,
    );
    const written: Array<Promise<void>> = [];
    let fatal: unknown = null;
    let lastFile = '';
    const settle = (sourcePath: string, sourceFile: string, failedFiles: Set<string>, error: unknown) => {
      const ragError = toRagError(error);
      // A dead store or embedder fails every document the same way: stop instead of reporting
      // the same error for each of them.
      if (ragError.code === ErrorCode.ABORTED || options.signal?.aborted || STOP_THE_RUN.has(ragError.code)) {
        fatal ??= ragError;
        return;
      }
      fail({
        sourcePath: reportedPath(ragError, sourcePath),
        code: ragError.code,
        message: ragError.message,
      });
      failedFiles.add(sourceFile);
    };

    await this.options.store.withBulkLoad(async () => {
      try {
        for (const source of sources) {
          const failedFiles = new Set<string>();
          const seen = new Set<string>();
          await runPool(source.files, this.options.concurrency ?? 4, async (file) => {
            options.signal?.throwIfAborted();
            if (fatal) throw fatal;
            const sourceFile = `${source.label}/${file.relativePath}`;
            const loaded = await loadFile(file, sourceFile, source.root, options.signal);
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
                const prepared = await this.prepare(
                  options.workspaceId,
                  source.label,
                  document,
                  options.signal,
                );
                if ('status' in prepared) {
                  tally(summary, document.sourcePath, prepared);
                  continue;
                }
                written.push(
                  batcher.add(prepared.input).then(
                    async (result) =>
                      tally(summary, document.sourcePath, await this.finish(prepared, result)),
                    (error: unknown) => settle(document.sourcePath, sourceFile, failedFiles, error),
                  ),
                );
                await batcher.room();
              } catch (error) {
                settle(document.sourcePath, sourceFile, failedFiles, error);
                if (fatal) throw fatal;
              }
            }
            summary.files++;
            filesDone++;
            lastFile = sourceFile;
            options.onProgress?.({ filesTotal, filesDone, currentFile: sourceFile, chunks: summary.chunks });
          });
          await batcher.drain();
          await Promise.all(written.splice(0));
          if (fatal) throw fatal;
          // A file counts as done once prepared; its chunks count once its batch commits.
          options.onProgress?.({ filesTotal, filesDone, currentFile: lastFile, chunks: summary.chunks });

          // A single file says nothing about which of its neighbours still exist: only directories prune.
          if (options.prune && source.isDirectory) {
            summary.documents.removed += await pruneSource(
              this.options.store,
              options.workspaceId,
              source,
              (document) => seen.has(document.sourcePath) || failedFiles.has(document.sourceFile),
            );
          }
        }
      } finally {
        // Whatever stopped the run, nothing is left writing behind it.
        await batcher.drain().catch(() => undefined);
        await Promise.allSettled(written);
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
   * Removes the documents of the given folders whose files are gone: the prune of a queued ingest,
   * where workers ingest what exists and nobody sees the folder whole. A folder that could not be
   * walked completely says nothing about what is gone, so nothing is removed then.
   */
  async pruneMissing(options: Omit<IngestSourcesOptions, 'prune' | 'onProgress'>): Promise<number> {
    let incomplete = false;
    const sources = await discoverSources(options.sources, () => (incomplete = true), options.namingRoot);
    if (incomplete) return 0;
    let removed = 0;
    for (const source of sources.filter((candidate) => candidate.isDirectory)) {
      const present = new Set(source.files.map((file) => `${source.label}/${file.relativePath}`));
      removed += await pruneSource(this.options.store, options.workspaceId, source, (document) =>
        present.has(document.sourceFile),
      );
    }
    return removed;
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
      const { loaded, sourceRoot } = await loadInline(id, content, signal);
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
          fail({
            sourcePath: reportedPath(ragError, document.sourcePath),
            code: ragError.code,
            message: ragError.message,
          });
        }
      }
      summary.documents.removed += await pruneSiblings(this.options.store, workspaceId, sourceRoot, loaded);
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
      signal,
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
        fail({
          sourcePath: reportedPath(ragError, document.sourcePath),
          code: ragError.code,
          message: ragError.message,
        });
      }
    }
    summary.documents.removed += await pruneSiblings(this.options.store, workspaceId, label, loaded);
    summary.files = 1;
    return this.finished(summary, started);
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
   * are screened first: a refused document throws SECRET_REFUSED before the store is read. The
   * write shares a transaction with the documents of the workspace other callers are ingesting at
   * the same moment (GroupCommit).
   */
  async ingestDocument(
    workspaceId: string,
    sourceRoot: string,
    loadedDocument: LoadedDocument,
    signal?: AbortSignal,
  ): Promise<DocumentOutcome> {
    const ticket = this.commits.begin(workspaceId);
    try {
      const prepared = await this.prepare(workspaceId, sourceRoot, loadedDocument, signal);
      if ('status' in prepared) return prepared;
      return await this.finish(prepared, await ticket.write(prepared.input, signal));
    } finally {
      ticket.release();
    }
  }

  /**
   * Everything before the write: screening, chunking, embedding, graph facts. Returns the outcome
   * instead when there is nothing to write (stored unchanged, or no text left).
   */
  private async prepare(
    workspaceId: string,
    sourceRoot: string,
    loadedDocument: LoadedDocument,
    signal?: AbortSignal,
  ): Promise<PreparedDocument | DocumentOutcome> {
    const { store, embedder } = this.options;
    const { document, redactions } = await screenForIngest(
      loadedDocument,
      this.options.secrets ?? 'redact',
      this.logger,
    );
    const hash = contentHash(document);
    const state = await store.documentState(workspaceId, document.sourcePath);
    if (state && state.contentHash === hash && state.pipelineFingerprint === this.fingerprint) {
      return { status: 'unchanged', chunks: 0, tokens: 0, redactions };
    }

    const stage = (name: IngestStage) => this.stage(workspaceId, document.sourcePath, hash, name);
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
    return {
      tokens: chunks.reduce((total, chunk) => total + chunk.tokenCount, 0),
      redactions,
      input: {
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
            ...chunkPages(document.pages, chunk.start, chunk.end),
          },
          embedding: embeddings[index]!,
        })),
        ...(graph ? { graph } : {}),
      },
    };
  }

  /** A written document's outcome, once its transaction committed. */
  private async finish(prepared: PreparedDocument, result: WriteDocumentResult): Promise<DocumentOutcome> {
    const { input } = prepared;
    await this.stage(input.workspaceId, input.sourcePath, input.contentHash, 'stored');
    this.logger.debug('document ingested', {
      event: 'document-ingested',
      workspaceId: input.workspaceId,
      sourcePath: input.sourcePath,
      status: result.status,
      chunks: input.chunks.length,
    });
    const written = result.status !== 'unchanged';
    return {
      status: result.status,
      chunks: written ? input.chunks.length : 0,
      tokens: written ? prepared.tokens : 0,
      redactions: prepared.redactions,
    };
  }

  private async stage(
    workspaceId: string,
    sourcePath: string,
    hash: string,
    stage: IngestStage,
  ): Promise<void> {
    await this.options.onStage?.({ workspaceId, sourcePath, contentHash: hash, stage });
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
        : await loadInline(source.id, source.content);
    const pending: PendingWork[] = [];
    for (const loadedDocument of loaded.documents) {
      // Stage jobs embed and extract ahead of the ingest: what they see is screened the same way.
      // A refused document has no pending work; the ingest that follows reports it.
      const document = await screenForIngest(
        loadedDocument,
        this.options.secrets ?? 'redact',
        this.logger,
      ).then(
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
      ...(document.pages ? { pageStarts: document.pages.map((page) => page.start) } : {}),
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
    return toSourceGraph(workspaceId, document.sourcePath, withPages(facts, document), chunks);
  }
}

/** The document id a failure names: the redacted one when the id itself held a secret. */
function reportedPath(error: RagError, sourcePath: string): string {
  const redacted = error.details?.sourcePath;
  return typeof redacted === 'string' ? redacted : sourcePath;
}
