import type { SqlExecutor } from '../db/index.js';

export interface LexicalTerm {
  /** The lexeme as the english text-search configuration stems it, e.g. "locat". */
  lexeme: string;
  /** How often it occurs in the query. */
  count: number;
  /** 1 for a word of the question; below 1 for an expansion (a synonym), which must never outweigh it. */
  weight?: number;
}

export interface LexicalQuery {
  terms: LexicalTerm[];
  /** Document frequency per lexeme in the workspace (0 for unknown words). */
  documentFrequency: Map<string, number>;
}

/**
 * Lexemes of a text, stemmed by Postgres exactly as the chunks' tsvectors were, with their
 * document frequencies in the workspace.
 */
export async function analyzeLexemes(
  sql: SqlExecutor,
  workspaceId: string,
  text: string,
): Promise<LexicalQuery> {
  const analyzed = await sql.query<{ lexeme: string; count: number; df: number | null }>(
    `SELECT t.lexeme, coalesce(cardinality(t.positions), 1) AS count, v.df
     FROM unnest(to_tsvector('english', $2)) AS t
     LEFT JOIN rag_vocabulary v ON v.workspace_id = $1 AND v.lexeme = t.lexeme`,
    [workspaceId, text],
  );
  const rows = await withCompoundParts(sql, workspaceId, text, analyzed.rows);
  return {
    terms: rows.map((row) => ({ lexeme: row.lexeme, count: row.count })),
    documentFrequency: new Map(rows.map((row) => [row.lexeme, row.df ?? 0])),
  };
}

/** Characters that join a compound token: `Money.amount`, `os.path.join`, `api/openapi.yaml`. */
const COMPOUND_JOINERS = /[./#:]/;

/**
 * Postgres reads `Money.amount` or `os.path.join` as one token (a host or file name), while a
 * passage may name the same thing in parts ("the amount of a Money object"). A compound lexeme
 * the workspace never indexed is replaced by its parts, stemmed the same way; one it has indexed
 * stays, and its parts join it. Either way the question is not "about" an unknown word that is
 * only an unfamiliar spelling of known ones.
 */
async function withCompoundParts(
  sql: SqlExecutor,
  workspaceId: string,
  query: string,
  rows: Array<{ lexeme: string; count: number; df: number | null }>,
): Promise<Array<{ lexeme: string; count: number; df: number | null }>> {
  if (!rows.some((row) => COMPOUND_JOINERS.test(row.lexeme))) return rows;
  const parts = await sql.query<{ lexeme: string; count: number; df: number | null }>(
    `SELECT t.lexeme, coalesce(cardinality(t.positions), 1) AS count, v.df
     FROM unnest(to_tsvector('english', regexp_replace($2, '[./#:]', ' ', 'g'))) AS t
     LEFT JOIN rag_vocabulary v ON v.workspace_id = $1 AND v.lexeme = t.lexeme`,
    [workspaceId, query],
  );
  const kept = rows.filter((row) => !COMPOUND_JOINERS.test(row.lexeme) || (row.df ?? 0) > 0);
  const known = new Set(kept.map((row) => row.lexeme));
  return [...kept, ...parts.rows.filter((row) => !known.has(row.lexeme))];
}
