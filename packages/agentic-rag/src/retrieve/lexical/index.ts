export { blockMaxApplies, blockMaxBm25 } from './block-max.js';
export type { BlockMaxOptions, BlockMaxResult, LexicalWatermark } from './block-max.js';
