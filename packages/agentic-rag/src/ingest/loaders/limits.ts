/**
 * Bounds on one binary document (PDF, DOCX). A file past them is a per-file FILE_TOO_LARGE
 * failure: parsing is in-process and memory-bound, and one huge file must not take the ingest of
 * its neighbours down with it. The size is checked before the file is read.
 */
export interface DocumentLimits {
  maxBytes: number;
  maxPages: number;
  /** A zip container's (DOCX) entries: Word writes a few dozen. */
  maxArchiveEntries: number;
  /**
   * What a zip container's XML parts may unpack to. Word's text of a 3,000-page document is well
   * under it; a zip bomb (kilobytes that inflate to gigabytes) is far over.
   */
  maxUnpackedBytes: number;
}

export const DEFAULT_DOCUMENT_LIMITS: Readonly<DocumentLimits> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxPages: 3000,
  maxArchiveEntries: 5000,
  maxUnpackedBytes: 64 * 1024 * 1024,
});
