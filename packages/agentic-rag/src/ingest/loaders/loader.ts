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
