export { cacheKey, normalizeQuery } from './answer-cache.js';
export type { AnswerCache, AnswerKey } from './answer-cache.js';
export { PostgresAnswerCache } from './postgres.js';
export { RedisAnswerCache } from './redis.js';
export { inputHash, StageOutputs } from './stage-outputs.js';
export type { OutputStage } from './stage-outputs.js';
