import { ErrorCode, RagError } from '../errors/index.js';
import { silentLogger, type Logger } from '../telemetry/index.js';
import type { EmbedOptions, EmbedResult, Embedder } from './embedder.js';
import { identifierParts, stem, STOPWORDS, wordsOf } from './text-features.js';

export interface DeterministicEmbedderOptions {
  dimensions?: number;
  logger?: Logger;
}

// Relative weight of each feature family. Words carry meaning; bigrams carry phrases
// ("belief update"); character trigrams carry spelling, so "POMP" still lands near "POMDP".
const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.35;
const STOPWORD_WEIGHT = 0.1;

/**
 * An embedder that needs no model: signed feature hashing of stemmed word unigrams, word
 * bigrams and character trigrams into a fixed number of dimensions, with sublinear term
 * frequency and L2 normalisation. Identical text gives identical vectors on every machine, and
 * texts sharing words, phrases or spellings get high cosine similarity, which makes the dense
 * channel useful offline. Queries and documents are embedded the same way.
 */
export class DeterministicEmbedder implements Embedder {
  readonly modelId = 'deterministic-hash-v1';
  readonly dimensions: number;
  private readonly logger: Logger;

  constructor(options: DeterministicEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 768;
    this.logger = options.logger ?? silentLogger;
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    if (options.signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'embedding aborted');
    const started = performance.now();
    const embeddings = options.texts.map((text) => this.embedOne(text));
    this.logger.debug('embedding call', {
      event: 'embedding-call',
      provider: 'deterministic',
      model: this.modelId,
      inputs: options.texts.length,
      latencyMs: Math.round(performance.now() - started),
      outcome: 'ok',
    });
    return { embeddings };
  }

  embedOne(text: string): number[] {
    const features = new Map<string, number>();
    const add = (feature: string, weight: number) =>
      features.set(feature, (features.get(feature) ?? 0) + weight);

    const words = wordsOf(identifierParts(text));
    const content = words.filter((word) => !STOPWORDS.has(word)).map(stem);
    for (const word of words) if (STOPWORDS.has(word)) add(`s:${word}`, STOPWORD_WEIGHT);
    for (const word of content) {
      add(`w:${word}`, WORD_WEIGHT);
      const padded = `^${word}$`;
      if (padded.length > 3) {
        const share = TRIGRAM_WEIGHT / (padded.length - 2);
        for (let index = 0; index + 3 <= padded.length; index++)
          add(`c:${padded.slice(index, index + 3)}`, share);
      }
    }
    for (let index = 0; index + 1 < content.length; index++)
      add(`b:${content[index]} ${content[index + 1]}`, BIGRAM_WEIGHT);

    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [feature, weight] of features) {
      const hash = fnv1a(feature);
      const slot = hash % this.dimensions;
      const sign = (hash >>> 31) & 1 ? -1 : 1;
      // Sublinear frequency: the tenth mention of a word says less than the first.
      vector[slot]! += sign * (1 + Math.log(weight > 1 ? weight : 1)) * Math.min(weight, 1);
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm);
    if (norm === 0) {
      // Text without a single word (punctuation only): a fixed unit vector rather than a zero
      // vector, whose cosine distance is undefined.
      vector[0] = 1;
      return vector;
    }
    for (let index = 0; index < vector.length; index++) vector[index] = vector[index]! / norm;
    return vector;
  }
}

/** 32-bit FNV-1a with a final avalanche so nearby strings spread over all slots. */
function fnv1a(input: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < input.length; index++) {
    hash ^= input.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}
