import type { LoadedDocument, LoadFailure } from '../document.js';

export interface LoaderInput {
  /** Path relative to the ingested directory, with forward slashes. */
  sourcePath: string;
  /** The file's text after normalizeText(). */
  text: string;
}

export interface LoadResult {
  documents: LoadedDocument[];
  /** Parts of the file that could not be loaded (e.g. one bad record in a .jsonl). */
  failures: LoadFailure[];
}

/** Turns one file's text into documents. Pure: no I/O, so every loader is table-testable. */
export type Loader = (input: LoaderInput) => LoadResult;

export interface BinaryLoaderInput {
  /** Path relative to the ingested directory, with forward slashes. */
  sourcePath: string;
  /** The file's bytes, as read (PDF, DOCX). */
  bytes: Uint8Array;
  /** Stops a long parse (a PDF is read page by page) when the run is aborted: the loader throws. */
  signal?: AbortSignal;
}

/**
 * Turns one binary file into documents. Async, because the parsers are; still no file I/O, so a
 * test feeds it bytes it generated. Bad input is a failure in the result, never a throw.
 */
export type BinaryLoader = (input: BinaryLoaderInput) => Promise<LoadResult>;
