export {
  RELATION_TYPES as CONTRACT_RELATION_TYPES,
  TRAVERSE_TYPES as CONTRACT_TRAVERSE_TYPES,
} from './entities.js';
export type { EntityFields, RelationType, TraverseType } from './entities.js';
export { getEntity } from './entity.js';
export { expandGraph, parseExpandRequest } from './expand.js';
export type { ExpandedDocument, ExpandRequest } from './expand.js';
export { invalid as invalidParameter } from './problems.js';
export { parseSemanticRequest, semanticSearch } from './semantic.js';
export type { SemanticRequest, SemanticResult } from './semantic.js';
