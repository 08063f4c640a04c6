export { writeSyntheticCorpus } from './synthetic-corpus.js';
export type { SyntheticCorpusOptions } from './synthetic-corpus.js';
export { naiveWriter } from './naive-writer.js';
