import { loadHtml } from './html.js';
import { loadJsonRecords } from './json-records.js';
import { jsonOrPack } from './knowledge-pack.js';
import type { Loader } from './loader.js';
import { loadMarkdown } from './markdown.js';
import { isOpenApi3, loadOpenApi, loadOpenApiSpec } from './openapi.js';
import { loadPlainText } from './plain-text.js';
import { loadYaml, loadYamlOrOpenApi } from './yaml.js';

export type { Loader, LoaderInput, LoadResult } from './loader.js';
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
  loadHtml,
  loadJsonRecords,
  loadMarkdown,
  loadOpenApi,
  loadOpenApiSpec,
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

export function loaderFor(sourcePath: string): Loader | undefined {
  const dot = sourcePath.lastIndexOf('.');
  return dot === -1 ? undefined : LOADERS[sourcePath.slice(dot).toLowerCase()];
}
export { collapse as collapseWhitespace, rawText as preformattedText } from './html-text.js';
