export { loadBeirDataset } from './beir-dataset.js';
export type { BeirDataset, BeirQuery } from './beir-dataset.js';
export { EVAL_MODES, runBeir } from './run-beir.js';
export type { BeirReport, EvalMode, ModeReport, RunBeirOptions } from './run-beir.js';
export { mean, mrrAt, ndcgAt, percentile, recallAt } from './metrics.js';
export type { Judgments } from './metrics.js';
