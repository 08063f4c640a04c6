import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '../errors/index.js';
import { ingestBinaryFiles, ingestPdfPages } from '../telemetry/index.js';
import type { ExtractionInput } from '../graph/index.js';
import { discoverFiles, resolveInsideRoot, type DiscoveredFile } from './discover.js';
import type { LoadedDocument, LoadFailure } from './document.js';
import type { IngestFailure } from './summary.js';
import {
  binaryLoaderFor,
  DEFAULT_DOCUMENT_LIMITS,
  loaderFor,
  looksBinary,
  normalizeText,
  SUPPORTED_EXTENSIONS,
  type LoadResult,
} from './loaders/index.js';

export interface Source {
  /** The naming folder's name: the first segment of every source path from it, and the prune scope. */
  label: string;
  /** The folder named `label`: each file is at `folder/relativePath`. */
  folder: string;
  /** Each file's path below `folder` (its identity after `label/`). */
  files: DiscoveredFile[];
  isDirectory: boolean;
  /** The folder its files must resolve inside; null for a file named on its own outside any root. */
  root: string | null;
  /**
   * The source files (`label/...`) a prune of this folder may remove: `label/sub/` for a folder
   * below the naming root, null for all of `label`.
   */
  scope: string | null;
}

/**
 * The files of each source: a directory's files (walked, with its discovery failures reported),
 * or a single file. A source that does not exist is reported and left out.
 *
 * One file has one identity however it is reached. Inside `namingRoot` (the corpus directory)
 * every path is named `<namingRoot's name>/<path below it>`, so the start-up ingest of the whole
 * folder, an ingest of one sub-folder and an ingest of one file agree. Outside it a folder names
 * its files `<folder>/<path>` and a lone file `<its folder>/<file>`.
 */
export async function discoverSources(
  paths: readonly string[],
  fail: (failure: IngestFailure) => void,
  namingRoot?: string,
): Promise<Source[]> {
  const sources: Source[] = [];
  const naming = namingRoot ? path.resolve(namingRoot) : null;
  for (const source of paths) {
    const resolved = path.resolve(source);
    const info = await stat(resolved).catch(() => null);
    if (!info) {
      fail({ sourcePath: source, code: ErrorCode.NOT_FOUND, message: `source ${source} does not exist` });
      continue;
    }
    const below = naming !== null && isInside(naming, resolved) ? path.relative(naming, resolved) : null;
    if (info.isDirectory()) {
      const label = below === null ? path.basename(resolved) : path.basename(naming!);
      const prefix = below ? `${below.split(path.sep).join('/')}/` : '';
      const discovered = await discoverFiles(resolved);
      for (const failure of discovered.failures)
        fail({ ...failure, sourcePath: `${label}/${prefix}${failure.sourcePath}` });
      sources.push({
        label,
        folder: below === null ? resolved : naming!,
        files: discovered.files.map((file) => ({ ...file, relativePath: `${prefix}${file.relativePath}` })),
        isDirectory: true,
        root: resolved,
        scope: prefix ? `${label}/${prefix}` : null,
      });
    } else if (below !== null) {
      sources.push({
        label: path.basename(naming!),
        folder: naming!,
        files: [{ absolutePath: resolved, relativePath: below.split(path.sep).join('/') }],
        isDirectory: false,
        root: naming,
        scope: null,
      });
    } else {
      sources.push({
        label: path.basename(path.dirname(resolved)),
        folder: path.dirname(resolved),
        files: [{ absolutePath: resolved, relativePath: path.basename(resolved) }],
        isDirectory: false,
        root: null,
        scope: null,
      });
    }
  }
  return sources;
}

/** Whether `candidate` is `root` or below it (both resolved). */
export function isInside(root: string, candidate: string): boolean {
  const inside = path.relative(root, candidate);
  return (
    inside === '' || (inside !== '..' && !inside.startsWith(`..${path.sep}`) && !path.isAbsolute(inside))
  );
}

/**
 * One file's documents. With a `root`, the file is read only if its real path (links resolved) is
 * inside the root's: a link out of the folder being ingested is refused, never read.
 */
export async function loadFile(
  file: DiscoveredFile,
  sourcePath: string,
  root: string | null,
  signal?: AbortSignal,
): Promise<LoadResult> {
  const failure = (code: string, message: string): LoadResult => ({
    documents: [],
    failures: [{ sourcePath, code, message } satisfies LoadFailure],
  });
  const loader = loaderFor(sourcePath);
  const binaryLoader = binaryLoaderFor(sourcePath);
  if (!loader && !binaryLoader) {
    return failure(
      ErrorCode.UNSUPPORTED_FILE_TYPE,
      `unsupported file type "${path.extname(file.relativePath) || '(none)'}" (supported: ${SUPPORTED_EXTENSIONS.join(' ')})`,
    );
  }
  let readPath = file.absolutePath;
  if (root !== null) {
    const resolved = await resolveInsideRoot(root, file.absolutePath);
    if ('code' in resolved) return failure(resolved.code, `${sourcePath} ${resolved.reason}`);
    readPath = resolved.realPath;
  }
  if (binaryLoader) {
    // Sized before it is read: a file past the limit is never loaded into memory.
    const size = await stat(readPath).then(
      (info) => info.size,
      () => 0,
    );
    if (size > DEFAULT_DOCUMENT_LIMITS.maxBytes) {
      return failure(
        ErrorCode.FILE_TOO_LARGE,
        `${size} bytes; the limit is ${DEFAULT_DOCUMENT_LIMITS.maxBytes}`,
      );
    }
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
  if (binaryLoader) {
    try {
      const loaded = await binaryLoader({ sourcePath, bytes, ...(signal ? { signal } : {}) });
      countBinaryFile(sourcePath, loaded);
      return loaded;
    } catch (error) {
      // A stopped run is not a bad file: the abort goes up to whoever stopped it.
      if (signal?.aborted) throw error;
      return failure(ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
    }
  }
  if (looksBinary(bytes))
    return failure(ErrorCode.UNSUPPORTED_FILE_TYPE, 'binary content in a text file type');
  try {
    return loader!({ sourcePath, text: normalizeText(bytes.toString('utf8')) });
  } catch (error) {
    return failure(ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
  }
}

/** The parse's outcome on /metrics, and a PDF's pages. */
function countBinaryFile(sourcePath: string, loaded: LoadResult): void {
  const format = path.extname(sourcePath).slice(1).toLowerCase();
  ingestBinaryFiles.inc({ format, outcome: loaded.failures[0]?.code.toLowerCase() ?? 'ok' });
  for (const document of loaded.documents) {
    const pages = document.metadata.page_count;
    if (typeof pages === 'number') ingestPdfPages.inc(pages);
  }
}

/**
 * A document given inline: its id is a path-like name whose extension picks the loader and whose
 * first segment is its source root (null when the id itself is refused). The content of a binary
 * format (PDF, DOCX) is its bytes in base64, the text of any other.
 */
export async function loadInline(
  id: string,
  content: string,
  signal?: AbortSignal,
): Promise<{ loaded: LoadResult; sourceRoot: string | null }> {
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
  const binaryLoader = binaryLoaderFor(sourcePath);
  if (!loader && !binaryLoader) {
    return refuse(
      sourcePath,
      ErrorCode.UNSUPPORTED_FILE_TYPE,
      `unsupported file type "${path.extname(sourcePath) || '(none)'}" (supported: ${SUPPORTED_EXTENSIONS.join(' ')})`,
    );
  }
  const sourceRoot = sourcePath.split('/')[0]!;
  if (binaryLoader) {
    // A binary format's inline content is its bytes in base64 (the service's contentBase64).
    const bytes = Buffer.from(content, 'base64');
    if (bytes.length > DEFAULT_DOCUMENT_LIMITS.maxBytes) {
      const limit = DEFAULT_DOCUMENT_LIMITS.maxBytes;
      return refuse(sourcePath, ErrorCode.FILE_TOO_LARGE, `${bytes.length} bytes; the limit is ${limit}`);
    }
    try {
      const loaded = await binaryLoader({ sourcePath, bytes, ...(signal ? { signal } : {}) });
      countBinaryFile(sourcePath, loaded);
      return { loaded, sourceRoot };
    } catch (error) {
      if (signal?.aborted) throw error;
      return refuse(sourcePath, ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
    }
  }
  try {
    return { loaded: loader!({ sourcePath, text: normalizeText(content) }), sourceRoot };
  } catch (error) {
    return refuse(sourcePath, ErrorCode.PARSE_FAILED, `cannot parse: ${(error as Error).message}`);
  }
}

export function extractionInput(document: LoadedDocument): ExtractionInput {
  return {
    text: document.text,
    title: document.title,
    kind: document.kind,
    sourcePath: document.sourcePath,
  };
}

/** Runs `work` over items with bounded concurrency; the first error stops every lane. */
export async function runPool<T>(
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
