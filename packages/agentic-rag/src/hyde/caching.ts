import { inputHash, StageOutputs } from '../cache/index.js';
import type { SqlExecutor } from '../db/index.js';
import type { QuestionWriter } from './question-writer.js';

const SLICE = 8;

/**
 * A question writer that remembers (by writer name and chunk text) in `rag_stage_outputs`: the
 * `hyde` stage jobs of a queued ingest write there, and the document's write reads from there.
 */
export class CachingQuestionWriter implements QuestionWriter {
  readonly name: string;
  private readonly outputs: StageOutputs<string[]>;

  constructor(
    private readonly inner: QuestionWriter,
    sql: SqlExecutor,
  ) {
    this.name = inner.name;
    this.outputs = new StageOutputs(sql, 'hyde', inner.name);
  }

  async write(texts: readonly string[], signal?: AbortSignal): Promise<string[][]> {
    const hashes = texts.map((text) => inputHash(text));
    const known = await this.outputs.get(hashes);
    const missing = [...new Set(hashes.filter((hash) => !known.has(hash)))];
    // A few at a time, each slice cached as it arrives: a failure late in a long batch does not
    // throw away the questions already paid for.
    for (let start = 0; start < missing.length; start += SLICE) {
      const slice = missing.slice(start, start + SLICE);
      const fresh = await this.inner.write(
        slice.map((hash) => texts[hashes.indexOf(hash)]!),
        signal,
      );
      slice.forEach((hash, index) => known.set(hash, fresh[index]!));
      await this.outputs.put(slice.map((hash) => ({ hash, output: known.get(hash)! })));
    }
    return hashes.map((hash) => known.get(hash)!);
  }

  async uncached(texts: readonly string[]): Promise<string[]> {
    const hashes = texts.map((text) => inputHash(text));
    const known = await this.outputs.get(hashes);
    return texts.filter((_, index) => !known.has(hashes[index]!));
  }
}
