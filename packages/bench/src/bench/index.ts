export { writeSyntheticCorpus } from './synthetic-corpus.js';
export type { SyntheticCorpusOptions } from './synthetic-corpus.js';
export { syntheticGraph } from './synthetic-graph.js';
export type { SyntheticGraphOptions } from './synthetic-graph.js';
export { naiveWriter } from './naive-writer.js';
export {
  databaseUrl,
  dropScratchDatabase,
  openScratchDatabase,
  recreateScratchDatabase,
} from './scratch-database.js';
export { startSlowEmbeddingServer } from './slow-embedding-server.js';
export type { SlowEmbeddingServer } from './slow-embedding-server.js';
export { ensureCorpusPackages, parseChunkSizes, parseCorpus } from './bench-options.js';
export { readScratchMarker, writeScratchMarker } from './search-scratch.js';
export type { ScratchMarker } from './search-scratch.js';
export { textbookPdf } from './textbook-pdf.js';
export type { PlacedEntity, TextbookPdf } from './textbook-pdf.js';
export {
  benchArguments,
  benchLog,
  benchServerUrl,
  formatTable,
  keyCheckPair,
  latency,
  latencyColumns,
  measureConcurrently,
  openBenchDatabase,
  parseBackends,
  report,
  requireBenchServer,
  target,
  verdict,
} from './bench-main.js';
export type { BenchBackend, BenchDatabase, Column, KeyCheckPair, Latency } from './bench-main.js';
