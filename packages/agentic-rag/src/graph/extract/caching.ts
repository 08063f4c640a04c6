import { inputHash, StageOutputs } from '../../cache/index.js';
import type { SqlExecutor } from '../../db/index.js';
import type { DocumentFacts } from '../facts.js';
import type { EntityExtractor, ExtractionInput } from './offline.js';

/**
 * An extractor that remembers what it found in a document (by extractor name and input), in
 * `rag_stage_outputs`. A queue can run extraction as a job of its own (`extract-entities`) and the
 * document's write then reads the facts instead of extracting again.
 */
export class CachingExtractor implements EntityExtractor {
  readonly name: string;
  private readonly outputs: StageOutputs<DocumentFacts>;

  constructor(
    private readonly inner: EntityExtractor,
    sql: SqlExecutor,
  ) {
    this.name = inner.name;
    this.outputs = new StageOutputs(sql, 'extract-entities', inner.name);
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<DocumentFacts> {
    const hash = inputHash(input);
    const cached = await this.outputs.get([hash]);
    const known = cached.get(hash);
    if (known) return known;
    const facts = await this.inner.extract(input, signal);
    await this.outputs.put([{ hash, output: facts }]);
    return facts;
  }

  async isCached(input: ExtractionInput): Promise<boolean> {
    const hash = inputHash(input);
    return (await this.outputs.get([hash])).has(hash);
  }
}
