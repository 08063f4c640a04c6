export { CorpusVersions, currentReadConsistency, withCorpusVersion } from './read-consistency.js';
export type { ReadConsistency } from './read-consistency.js';
export { ReadRoutingSql } from './read-routing-sql.js';
export type { ReadRoutingSqlOptions, ReadRoutingStats, ReadTarget } from './read-routing-sql.js';
