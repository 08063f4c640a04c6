export { NumberedEntityExtractor } from './numbered-extractor.js';
export {
  NUMBERED_ENTITY_TYPES,
  numberedEntityName,
  parseEntityReference,
  type EntityReference,
  type NumberedEntityType,
} from './numbered.js';
export { OfflineEntityExtractor, type EntityExtractor, type ExtractionInput } from './offline.js';
export { CachingExtractor } from './caching.js';
