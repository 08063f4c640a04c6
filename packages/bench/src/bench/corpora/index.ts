export { chunkFileTexts } from './chunk-file.js';
export type { ChunkFileOptions } from './chunk-file.js';
export type { CorpusDocument, ManualName } from './debian-manuals.js';
export { cleanQuery, sampleHeadingQueries } from './heading-queries.js';
export { markCopy, writeRealTextCorpus } from './real-text-corpus.js';
export type { RealTextCorpus, RealTextCorpusOptions } from './real-text-corpus.js';
export { rstToMarkdown } from './rst-to-markdown.js';
export {
  CORPUS_NAMES,
  isCorpusName,
  missingCorpusPackages,
  prepareCorpus,
  PROVISION_SCRIPT,
} from './prepare-corpus.js';
export type { CorpusName, PrepareCorpusOptions, PreparedCorpus } from './prepare-corpus.js';
export { sampleZipfQueries } from './zipf-queries.js';
