import { loadDocx } from './docx.js';
import { loadHtml } from './html.js';
import { loadJsonRecords } from './json-records.js';
import { jsonOrPack } from './knowledge-pack.js';
import type { BinaryLoader, Loader } from './loader.js';
import { loadMarkdown } from './markdown.js';
import { isOpenApi3, loadOpenApi, loadOpenApiSpec } from './openapi.js';
import { loadPdf } from './pdf.js';
import { loadPlainText } from './plain-text.js';
import { loadYaml, loadYamlOrOpenApi } from './yaml.js';

export type { BinaryLoader, BinaryLoaderInput, Loader, LoaderInput, LoadResult } from './loader.js';
export { docxLoader } from './docx.js';
export { pdfLoader } from './pdf.js';
export { layoutPdf } from './pdf-layout.js';
export type { PdfLayout, PdfPage, TextRun } from './pdf-layout.js';
export { DEFAULT_DOCUMENT_LIMITS } from './limits.js';
export type { DocumentLimits } from './limits.js';
export { parseMarkdownBlocks, stripInlineMarkup } from './markdown-blocks.js';
export { normalizeText, looksBinary } from './normalize.js';
export type { OperationType } from './openapi.js';
export {
  INFO_TYPES,
  isKnowledgePack,
  KNOWLEDGE_TYPES,
  loadKnowledgePack,
  secretIn,
} from './knowledge-pack.js';
export type { KnowledgePack, KnowledgePiece, KnowledgeType } from './knowledge-pack.js';
export {
  isOpenApi3,
  loadDocx,
  loadHtml,
  loadJsonRecords,
  loadMarkdown,
  loadOpenApi,
  loadOpenApiSpec,
  loadPdf,
  loadPlainText,
  loadYaml,
  loadYamlOrOpenApi,
};

/** File extension (lower case, with the dot) to loader. Anything else is UNSUPPORTED_FILE_TYPE. */
export const LOADERS: Readonly<Record<string, Loader>> = {
  '.md': loadMarkdown,
  '.markdown': loadMarkdown,
  '.mdx': loadMarkdown,
  '.txt': loadPlainText,
  '.text': loadPlainText,
  '.html': loadHtml,
  '.htm': loadHtml,
  '.json': jsonOrPack(loadJsonRecords),
  '.jsonl': loadJsonRecords,
  '.ndjson': loadJsonRecords,
  '.yaml': loadYamlOrOpenApi,
  '.yml': loadYamlOrOpenApi,
};

/** Formats read from bytes, not text: the file is handed over as read, and parsed asynchronously. */
export const BINARY_LOADERS: Readonly<Record<string, BinaryLoader>> = {
  '.pdf': loadPdf,
  '.docx': loadDocx,
};

/** Every supported extension, for the UNSUPPORTED_FILE_TYPE message. */
export const SUPPORTED_EXTENSIONS: readonly string[] = [
  ...Object.keys(LOADERS),
  ...Object.keys(BINARY_LOADERS),
];

const extensionOf = (sourcePath: string) => {
  const dot = sourcePath.lastIndexOf('.');
  return dot === -1 ? '' : sourcePath.slice(dot).toLowerCase();
};

export function loaderFor(sourcePath: string): Loader | undefined {
  return LOADERS[extensionOf(sourcePath)];
}

export function binaryLoaderFor(sourcePath: string): BinaryLoader | undefined {
  return BINARY_LOADERS[extensionOf(sourcePath)];
}
export { collapse as collapseWhitespace, rawText as preformattedText } from './html-text.js';
