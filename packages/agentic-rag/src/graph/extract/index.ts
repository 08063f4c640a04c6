export { NumberedEntityExtractor } from './numbered-extractor.js';
export { numberedEntityName, parseEntityReference, type EntityReference } from './numbered.js';
export { OfflineEntityExtractor, type EntityExtractor, type ExtractionInput } from './offline.js';
export { CachingExtractor } from './caching.js';
export { BestEffortExtractor } from './best-effort.js';
export { DocPageExtractor, docPageFacts } from './doc-page.js';
export { LlmEntityExtractor, groundReplies, type LlmEntityExtractorOptions } from './llm-extractor.js';
export {
  entityExtractionPrompt,
  parseExtractionReply,
  LLM_ENTITY_TYPES,
  LLM_RELATION_TYPES,
} from './llm-prompt.js';
