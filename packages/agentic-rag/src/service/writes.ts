import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/index.js';
import type { pageRefreshRequest } from '../crawl/index.js';
import { PageRefresher, parsePageRefreshRequest, type PageRefreshResult } from '../crawl/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { IngestFailure, IngestProgress, IngestSummary } from '../ingest/index.js';
import { Reconciler } from '../queue/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { unfinishedIngests } from '../store/index.js';
import type { Caller } from './caller.js';
import { inlineDocument, InlineDocumentInput } from './inline-documents.js';
import { idText, parseInput } from './inputs.js';
import { jobView, type JobView } from './job-view.js';
import {
  queueOf,
  type CallOptions,
  type OperationContext,
  type OperationHost,
  type WorkspaceCall,
} from './operation-host.js';

/** Operations that change a workspace: a writer key whose scope holds it; every one audited. */

const MAX_DOCUMENTS = 1000;

export const IngestInput = z.object({
  paths: z.array(idText('each path', 4096), { error: 'paths must be a list of strings' }).nullish(),
  documents: z
    .array(InlineDocumentInput, { error: 'documents must be a list of {id, content or contentBase64}' })
    .max(MAX_DOCUMENTS, { error: `documents must hold at most ${MAX_DOCUMENTS} documents per call` })
    .nullish(),
  prune: z.boolean({ error: 'prune must be a boolean' }).nullish(),
});

export interface IngestOutcome {
  mode: 'inline' | 'queue';
  jobs: (JobView | null)[];
  summary: IngestSummary | null;
  /** Queue mode: files found but not queued (gone or unreadable by the time they were read). */
  skipped: IngestFailure[];
  /** Queue mode with `prune`: documents removed now because their files are gone (inline: in the summary). */
  pruned: number;
}

/** What only the operator at this machine asks of an ingest (the CLI, the API's start-up). */
export interface IngestCallOptions extends CallOptions {
  /** Ingest now, in this process, even where a queue would take it (the start-up ingest). */
  inline?: boolean;
  /** Inline mode: called after each file. */
  onProgress?: (progress: IngestProgress) => void;
}

/**
 * Ingests server-side paths (inside AGENTIC_RAG_CORPUS_DIR, symlinks resolved; anywhere for the
 * local operator) and inline documents: through the queue when there is one (one job per document,
 * returned queued), else now, recorded as one finished job with its summary. Bad input fails the
 * same way in both modes.
 */
export async function ingest(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof IngestInput>,
  options: IngestCallOptions = {},
): Promise<IngestOutcome> {
  const { inline = false, onProgress, ...callOptions } = options;
  const { workspaceId: claimed, ...fields } = input;
  return service.guard(
    caller,
    'ingest',
    claimed,
    async (context) => {
      // Checked inside the guard: a caller without the role learns FORBIDDEN, not what was wrong.
      const parsed = parseInput(IngestInput, fields);
      const paths = parsed.paths ?? [];
      const documents = (parsed.documents ?? []).map(inlineDocument);
      if (paths.length === 0 && documents.length === 0) {
        throw new RagError(ErrorCode.INVALID_INPUT, 'give paths or documents to ingest');
      }
      const { runtime, workspaceId, signal } = context;
      const sources = await Promise.all(
        paths.map((requested) =>
          caller.local ? path.resolve(requested) : corpusPath(runtime.config, requested),
        ),
      );
      // Everything the server reads is named from the corpus directory, so a file has one identity
      // whether the start-up ingest, a folder or the file itself brought it in.
      const namingRoot = runtime.config.AGENTIC_RAG_CORPUS_DIR;
      if (runtime.queue && !inline) {
        // Every inline document is screened before any is queued: a refusal queues nothing.
        for (const document of documents) await runtime.queue.screenInline(document.id, document.content);
        const ids: string[] = [];
        const skipped: IngestFailure[] = [];
        let pruned = 0;
        if (sources.length > 0) {
          const queued = await runtime.queue.enqueuePaths(workspaceId, sources, namingRoot);
          ids.push(...queued.ids);
          skipped.push(...queued.failures);
          if (parsed.prune === true)
            pruned = await runtime.pipeline.pruneMissing({ workspaceId, sources, namingRoot });
        }
        for (const document of documents)
          ids.push(await runtime.queue.enqueueInline(workspaceId, document.id, document.content));
        const jobs = await Promise.all(ids.map((id) => runtime.jobs.get(id)));
        return {
          mode: 'queue',
          jobs: jobs.filter((job) => job !== null).map(jobView),
          summary: null,
          skipped,
          pruned,
        };
      }
      return inlineJob(
        context,
        'ingest-documents',
        { paths, documents: documents.map((d) => d.id) },
        async () => {
          const fromFiles =
            sources.length > 0
              ? await runtime.pipeline.ingestSources({
                  workspaceId,
                  sources,
                  namingRoot,
                  prune: parsed.prune === true,
                  ...(signal ? { signal } : {}),
                  ...(onProgress ? { onProgress } : {}),
                })
              : null;
          const inline =
            documents.length > 0 ? await runtime.pipeline.ingestInline(workspaceId, documents, signal) : null;
          return mergeSummaries(fromFiles, inline);
        },
      );
    },
    { ...callOptions, workspace: 'create', target: ingestTarget(input) },
  );
}

/** What an ingest names, for its audit record, read leniently from input not yet validated. */
function ingestTarget(input: { paths?: unknown; documents?: unknown }): string | null {
  const paths: unknown[] = Array.isArray(input.paths) ? input.paths : [];
  const documents: unknown[] = Array.isArray(input.documents) ? input.documents : [];
  const names = [...paths, ...documents.map((document) => (document as { id?: unknown } | null)?.id)];
  return names.filter((name): name is string => typeof name === 'string').join(', ') || null;
}

/**
 * A write to one document of a workspace: its id is checked inside the guard, so a caller without
 * the role learns FORBIDDEN, not what was wrong with the id.
 */
export const DocumentIdInput = z.object({ id: idText('id') });

function documentWrite<T>(
  operation: 'deleteDocument' | 'refreshDocument',
  work: (context: OperationContext, id: string) => Promise<T>,
) {
  return (
    service: OperationHost,
    caller: Caller,
    input: WorkspaceCall<typeof DocumentIdInput>,
    options: CallOptions = {},
  ) =>
    service.guard(
      caller,
      operation,
      input.workspaceId,
      (context) => work(context, parseInput(DocumentIdInput, { id: input.id }).id),
      { ...options, target: typeof input.id === 'string' ? input.id : null },
    );
}

export const deleteDocument = documentWrite('deleteDocument', async ({ runtime, workspaceId }, id) => {
  const deleted = await runtime.store.deleteDocuments(workspaceId, [id], { supersede: true });
  const corpusVersion = await runtime.store.corpusVersion(workspaceId);
  runtime.corpusVersions.note(workspaceId, corpusVersion);
  return { deleted: deleted > 0, corpusVersion };
});

/**
 * Reads a document's file again (unchanged content is skipped by its hash): only that file, named
 * as it was, so a refresh never re-reads or duplicates the rest of the corpus.
 */
export const refreshDocument = documentWrite('refreshDocument', async (context, id) => {
  const { runtime, workspaceId, signal } = context;
  const document = await runtime.store.getDocument(workspaceId, id);
  if (!document) throw new RagError(ErrorCode.NOT_FOUND, `document "${id}" does not exist`);
  const namingRoot = path.resolve(runtime.config.AGENTIC_RAG_CORPUS_DIR);
  const below = document.sourceFile.slice(document.sourceRoot.length + 1);
  if (path.basename(namingRoot) !== document.sourceRoot || below === '') {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `document "${document.sourcePath}" was not ingested from AGENTIC_RAG_CORPUS_DIR and cannot be re-read by the server`,
    );
  }
  // As a queued job reads a file: inside the corpus directory (links resolved), and the file's
  // documents it no longer yields go with it (an operation removed from a spec).
  return inlineJob(context, 'refresh-document', { id: document.sourcePath }, () =>
    runtime.pipeline.ingestFile(workspaceId, namingRoot, below, signal),
  );
});

/**
 * Fetches one page of a crawled site again now (POST /admin/kb/refresh): admin, scoped to the
 * workspace, audited with the URL as target. See crawl/page-refresh.ts for what it does.
 */
export async function refreshUrl(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof pageRefreshRequest>,
  options: CallOptions = {},
): Promise<PageRefreshResult> {
  return service.guard(
    caller,
    'refreshUrl',
    input.workspaceId,
    async ({ runtime, workspaceId, signal, logger }) => {
      const request = parsePageRefreshRequest({ url: input.url, full: input.full ?? false });
      // Tests give the runtime a policy that lets their loopback site through, as crawlSite's do.
      const deps: Pick<RagRuntime, 'pipeline' | 'store' | 'sql'> & {
        crawlAddressPolicy?: (ip: string) => boolean;
      } = runtime;
      const { crawlAddressPolicy } = deps;
      const refresher = new PageRefresher({
        pipeline: deps.pipeline,
        store: deps.store,
        sql: deps.sql,
        logger,
        ...(crawlAddressPolicy ? { addressPolicy: crawlAddressPolicy } : {}),
      });
      const result = await refresher.refresh(workspaceId, request, signal);
      runtime.corpusVersions.note(workspaceId, result.corpusVersion);
      return result;
    },
    { ...options, target: typeof input.url === 'string' ? input.url.slice(0, 2048) : null },
  );
}

export async function resumeIngest(
  service: OperationHost,
  caller: Caller,
  input: { workspaceId: string },
  options: CallOptions = {},
) {
  return service.guard(
    caller,
    'resumeIngest',
    input.workspaceId,
    async ({ runtime, workspaceId }) => {
      const unfinished = await unfinishedIngests(runtime.sql, workspaceId);
      const resumed = await new Reconciler(queueOf(runtime), runtime.jobs).resume(workspaceId, unfinished);
      // The documents whose ingest stopped part-way, for an operator to see what was picked up.
      return { ...resumed, unfinished };
    },
    options,
  );
}

/**
 * A path a client may ask the server to ingest: inside the corpus directory once every symlink is
 * resolved, nowhere else (a link inside the folder pointing out of it is refused too).
 */
export async function corpusPath(config: Config, requested: string): Promise<string> {
  const root = path.resolve(config.AGENTIC_RAG_CORPUS_DIR);
  const resolved = path.resolve(root, requested);
  const outside = new RagError(
    ErrorCode.SOURCE_OUTSIDE_ROOT,
    `path "${requested}" is outside AGENTIC_RAG_CORPUS_DIR`,
  );
  if (!within(root, resolved)) throw outside;
  let real: string;
  let realRoot: string;
  try {
    [realRoot, real] = await Promise.all([realpath(root), realpath(resolved)]);
  } catch {
    throw new RagError(ErrorCode.NOT_FOUND, `path "${requested}" does not exist in AGENTIC_RAG_CORPUS_DIR`);
  }
  if (!within(realRoot, real)) throw outside;
  return resolved;
}

const within = (root: string, candidate: string) =>
  candidate === root || candidate.startsWith(`${root}${path.sep}`);

/** Runs an ingestion now, recorded as a job (the inline mode). */
async function inlineJob(
  { runtime, workspaceId }: OperationContext,
  kind: string,
  payload: unknown,
  work: () => Promise<IngestSummary>,
): Promise<IngestOutcome> {
  const id = await runtime.jobs.start({ kind, workspaceId, payload });
  try {
    const summary = await work();
    // This process reads its own write from now on, even through a lagging replica.
    runtime.corpusVersions.note(workspaceId, summary.corpusVersion);
    await runtime.jobs.finish(id, { result: summary });
    const job = await runtime.jobs.get(id);
    return { mode: 'inline', jobs: [job && jobView(job)], summary, skipped: [], pruned: 0 };
  } catch (error) {
    await runtime.jobs.finish(id, { error: (error as Error).message });
    throw error;
  }
}

function mergeSummaries(fromFiles: IngestSummary | null, inline: IngestSummary | null): IngestSummary {
  if (!fromFiles) return inline!;
  if (!inline) return fromFiles;
  const counts = { ...fromFiles.documents };
  for (const key of Object.keys(counts) as Array<keyof typeof counts>) counts[key] += inline.documents[key];
  return {
    ...inline,
    files: fromFiles.files + inline.files,
    documents: counts,
    chunks: fromFiles.chunks + inline.chunks,
    tokens: fromFiles.tokens + inline.tokens,
    seconds: fromFiles.seconds + inline.seconds,
    failures: [...fromFiles.failures, ...inline.failures],
    redactions: [...fromFiles.redactions, ...inline.redactions],
  };
}
