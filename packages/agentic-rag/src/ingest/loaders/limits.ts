/**
 * Bounds on one binary document (PDF, DOCX). A file past them is a per-file FILE_TOO_LARGE
 * failure: parsing is in-process and memory-bound, and one huge file must not take the ingest of
 * its neighbours down with it. The size is checked before the file is read.
 */
export interface DocumentLimits {
  maxBytes: number;
  maxPages: number;
}

export const DEFAULT_DOCUMENT_LIMITS: Readonly<DocumentLimits> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxPages: 3000,
});
