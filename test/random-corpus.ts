import type { WriteDocumentInput } from '../packages/agentic-rag/src/index.js';
import { singleChunkDocument } from './documents.js';

/**
 * BM25F settings that rank the same corpus differently (k, saturation, length normalisation, field
 * weights, a title weight of 0): two ways of scoring must agree under each.
 */
export const RANKING_SETTINGS = [
  { limit: 10, k1: 1.2, b: 0.75, fields: { heading: 1.5, title: 2 } },
  { limit: 1, k1: 1.2, b: 0.75, fields: { heading: 1, title: 0 } },
  { limit: 5, k1: 0.9, b: 0.4, fields: { heading: 0, title: 3 } },
  { limit: 40, k1: 2, b: 1, fields: { heading: 1, title: 1 } },
] as const;

/**
 * A seeded corpus for ranking tests that compare two ways of scoring: a Zipf-shaped vocabulary of
 * 60 words, so every query word is in many chunks and ties are common, and one-chunk documents of
 * very different lengths, with and without titles and headings. The same seed gives the same
 * documents and queries on every run.
 */
export function randomCorpus(seed: number, wordPrefix: string) {
  const vocabulary = Array.from({ length: 60 }, (_, index) => `${wordPrefix}${index}x`);
  let state = seed;
  // mulberry32
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const word = () =>
    vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(next() * Math.log(90)) - 1))]!;
  const words = (count: number) => Array.from({ length: count }, word).join(' ');
  return {
    words,
    queries: (count: number) => Array.from({ length: count }, () => words(1 + Math.floor(next() * 4))),
    document(workspaceId: string, sourcePath: string): WriteDocumentInput {
      const text = words(1 + Math.floor(next() * 30));
      const base = singleChunkDocument({ workspaceId, sourcePath, text });
      return {
        ...base,
        title: next() < 0.3 ? words(2) : null,
        contentHash: `${sourcePath}-${text}-${next()}`,
        chunks: base.chunks.map((chunk) => ({ ...chunk, sectionPath: next() < 0.4 ? [words(2)] : [] })),
      };
    },
  };
}
