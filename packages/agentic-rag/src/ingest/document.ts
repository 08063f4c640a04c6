import type { DocumentFacts } from '../graph/index.js';

/** What a source file is, as far as loading and chunking are concerned. */
export type SourceKind =
  'markdown' | 'text' | 'html' | 'pdf' | 'docx' | 'json-record' | 'yaml' | 'openapi' | 'knowledge';

export type BlockType = 'heading' | 'paragraph' | 'code' | 'math' | 'table' | 'list';

/**
 * A structural unit of a document's text, as character offsets into `LoadedDocument.text`.
 * The chunker packs blocks; it cuts inside one only when the block alone exceeds the budget.
 */
export interface Block {
  type: BlockType;
  start: number;
  end: number;
  /** Headings only: 1 for `#`, 2 for `##`, ... */
  level?: number;
  /** Headings only: the heading's text without markup. */
  title?: string;
}

/** Where a page of a paged source (PDF) starts in `LoadedDocument.text`. */
export interface PageStart {
  /** 1-based page number as the source counts it. */
  page: number;
  /** UTF-16 offset into the text of the page's first character. */
  start: number;
}

export interface LoadedDocument {
  /** Identity within a workspace: relative file path, plus `#<id>` for records in a file. */
  sourcePath: string;
  /** The relative path of the file it came from. */
  sourceFile: string;
  kind: SourceKind;
  title: string | null;
  url: string | null;
  /** Normalised text (LF line ends, no BOM); chunk offsets index into it. */
  text: string;
  blocks: Block[];
  metadata: Record<string, unknown>;
  /** Graph facts the format itself states (an OpenAPI spec's endpoints and $refs), if any. */
  facts?: DocumentFacts;
  /**
   * Paged sources only: where each page with text starts, in text order. Chunks get the page they
   * start on (`page_number`) and, when they run onto another, the page they end on (`page_end`).
   */
  pages?: PageStart[];
  /** What to embed instead of the text, for a one-chunk document (a knowledge piece's `embedding_text`). */
  embeddingText?: string;
}

/** A file that produced no documents, with the reason. */
export interface LoadFailure {
  sourcePath: string;
  code: string;
  message: string;
}
