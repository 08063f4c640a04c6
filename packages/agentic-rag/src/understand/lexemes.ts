import type { SqlExecutor } from '../db/index.js';

export interface QueryTerm {
  /** The lexeme as the english text-search configuration stems it, e.g. "locat". */
  lexeme: string;
  /** How often it occurs in the query. */
  count: number;
}

export interface Correction {
  /** The query's lexeme that no chunk of the workspace contains. */
  from: string;
  /** The closest lexeme of the workspace vocabulary (trigram similarity). */
  to: string;
  similarity: number;
}

export interface AnalyzedQuery {
  terms: QueryTerm[];
  /** Document frequency per lexeme in the workspace (0 for unknown words). */
  documentFrequency: Map<string, number>;
  corrections: Correction[];
}

/**
 * Lexemes of the query, stemmed by Postgres exactly as the chunks' tsvectors were, their document
 * frequencies, and a correction for each lexeme the workspace has never seen when a close enough
 * one exists ("pomp" -> "pomdp"). Corrections are reported to the caller, never applied silently.
 */
export async function analyzeQuery(
  sql: SqlExecutor,
  workspaceId: string,
  query: string,
  similarityThreshold: number,
): Promise<AnalyzedQuery> {
  const analyzed = await sql.query<{ lexeme: string; count: number; df: number | null }>(
    `SELECT t.lexeme, coalesce(cardinality(t.positions), 1) AS count, v.df
     FROM unnest(to_tsvector('english', $2)) AS t
     LEFT JOIN rag_vocabulary v ON v.workspace_id = $1 AND v.lexeme = t.lexeme`,
    [workspaceId, query],
  );
  const lexemes = { rows: await withCompoundParts(sql, workspaceId, query, analyzed.rows) };
  const terms = lexemes.rows.map((row) => ({ lexeme: row.lexeme, count: row.count }));
  const documentFrequency = new Map(lexemes.rows.map((row) => [row.lexeme, row.df ?? 0]));
  const corrections: Correction[] = [];
  for (const row of lexemes.rows) {
    if ((row.df ?? 0) > 0 || row.lexeme.length < 3 || /\d/.test(row.lexeme)) continue;
    const suggestion = await sql.query<{ lexeme: string; similarity: number; df: number }>(
      `SELECT l.lexeme, similarity(l.lexeme, $2) AS similarity, v.df
       FROM rag_lexicon l JOIN rag_vocabulary v ON v.workspace_id = l.workspace_id AND v.lexeme = l.lexeme
       WHERE l.workspace_id = $1 AND similarity(l.lexeme, $2) >= $3 AND l.lexeme % $2 AND v.df > 0
       ORDER BY similarity DESC, v.df DESC, l.lexeme LIMIT 5`,
      [workspaceId, row.lexeme, similarityThreshold],
    );
    const best = suggestion.rows.find((candidate) => isTypoOf(row.lexeme, candidate.lexeme));
    if (best) {
      corrections.push({ from: row.lexeme, to: best.lexeme, similarity: best.similarity });
      documentFrequency.set(best.lexeme, best.df);
    }
  }
  return { terms, documentFrequency, corrections };
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

/**
 * Whether `word` can be a misspelling of `lexeme`: at most one edit (insertion, deletion,
 * substitution or swap of neighbours) for a word of up to five letters, two for a longer one.
 * Trigram similarity alone also pairs real words that merely share a prefix ("capital" with
 * "cap"), and a question about something the corpus lacks must stay unknown, not be corrected into
 * something it has.
 */
export function isTypoOf(word: string, lexeme: string): boolean {
  return editDistance(word, lexeme) <= (word.length <= 5 ? 1 : 2);
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one span). */
function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(
        distance[row - 1]![column]! + 1,
        distance[row]![column - 1]! + 1,
        distance[row - 1]![column - 1]! + cost,
      );
      if (
        row > 1 &&
        column > 1 &&
        left[row - 1] === right[column - 2] &&
        left[row - 2] === right[column - 1]
      ) {
        best = Math.min(best, distance[row - 2]![column - 2]! + 1);
      }
      distance[row]![column] = best;
    }
  }
  return distance[left.length]![right.length]!;
}
