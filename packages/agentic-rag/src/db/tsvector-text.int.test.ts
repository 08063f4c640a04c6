import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import { parseTsvectorText, type Sql } from './index.js';

// Built from literals so every escape Postgres writes is exercised: quotes, backslashes, spaces and
// colons inside lexemes, weights, stripped lexemes, and to_tsvector's ordinary output.
const VECTORS = [
  `to_tsvector('english', 'The quick brown fox jumps over the lazy dog; the dog sleeps. Dogs!')`,
  `to_tsvector('simple', $$it's O'Neil's \\ path C:\\temp 'quoted' a:b$$)`,
  `$$'it''s':1A,3B 'back\\\\slash':2C 'two words':4 'colon:here':5,6,7D$$::tsvector`,
  `strip(to_tsvector('english', 'stripped lexemes have no positions at all'))`,
  `setweight(to_tsvector('english', 'weighted heading words'), 'A') || to_tsvector('english', 'body words')`,
  `''::tsvector`,
  `$$'''':1 '\\\\':2 'x''''y':3$$::tsvector`,
];

describe.each(testBackends())('parseTsvectorText on $name', (backend) => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await backend.open();
  });
  afterAll(async () => {
    await sql.close();
  });

  it.each(VECTORS)('reads %s as unnest() does', async (expression) => {
    const text = await sql.query<{ tsv: string }>(`SELECT (${expression})::text AS tsv`);
    const rows = await sql.query<{ lexeme: string; positions: number }>(
      `SELECT t.lexeme, coalesce(cardinality(t.positions), 0) AS positions FROM unnest(${expression}) AS t`,
    );
    const parsed = parseTsvectorText(text.rows[0]!.tsv);
    expect(parsed).toEqual(rows.rows.map((row) => ({ lexeme: row.lexeme, positions: row.positions })));
  });

  it('refuses text that is not a tsvector', () => {
    expect(() => parseTsvectorText("'open")).toThrow(/not a tsvector/);
  });
});
