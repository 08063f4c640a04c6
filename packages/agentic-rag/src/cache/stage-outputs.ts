import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../db/index.js';

export type OutputStage = 'extract-entities' | 'hyde';

/** The key an input is filed under: sha256 of its canonical JSON. */
export function inputHash(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/**
 * `rag_stage_outputs`: what a slow stage made of an input (an extractor's facts for a document,
 * a model's questions for a chunk), by stage, producer and input hash. Written by whichever
 * process ran the stage, read by the one that writes the document. One instance reads and writes
 * one stage's outputs of one producer (an extractor or a question writer, by name).
 */
export class StageOutputs<T> {
  constructor(
    private readonly sql: SqlExecutor,
    private readonly stage: OutputStage,
    private readonly producer: string,
  ) {}

  async get(hashes: readonly string[]): Promise<Map<string, T>> {
    if (hashes.length === 0) return new Map();
    const result = await this.sql.query<{ input_hash: string; output: T }>(
      `SELECT input_hash, output FROM rag_stage_outputs
       WHERE stage = $1 AND producer = $2 AND input_hash = ANY($3::text[])`,
      [this.stage, this.producer, [...new Set(hashes)]],
    );
    return new Map(result.rows.map((row) => [row.input_hash, row.output]));
  }

  /** First write wins: two workers that ran the same stage computed the same thing. */
  async put(entries: ReadonlyArray<{ hash: string; output: T }>): Promise<void> {
    if (entries.length === 0) return;
    await this.sql.query(
      `INSERT INTO rag_stage_outputs (stage, producer, input_hash, output)
       SELECT $1, $2, h, o FROM unnest($3::text[], $4::jsonb[]) AS t(h, o)
       ON CONFLICT DO NOTHING`,
      [
        this.stage,
        this.producer,
        entries.map((entry) => entry.hash),
        entries.map((entry) => JSON.stringify(entry.output)),
      ],
    );
  }
}
