export { blockMaxApplies, blockMaxBm25 } from './block-max.js';
export type { BlockMaxOptions, BlockMaxResult, LexicalWatermark } from './block-max.js';
export { DEFAULT_RANGE_SIZE, rebuildLexicalSummaries, refreshLexicalSummaries } from './summaries.js';
export type { LexicalSummaryResult, RefreshLexicalSummariesOptions } from './summaries.js';
