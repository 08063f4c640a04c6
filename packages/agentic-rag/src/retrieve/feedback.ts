import { parseTsvectorText, type SqlExecutor } from '../db/index.js';
import type { LexicalTerm as QueryTerm } from '../understand/index.js';

export interface FeedbackOptions {
  workspaceId: string;
  /** The first pass's best chunks and their BM25 scores, best first. */
  ids: readonly number[];
  scores: readonly number[];
  /** The query's own terms: they keep (1 − weight) of the expanded query. */
  terms: readonly QueryTerm[];
  /** Chunks read as feedback (RM3's fbDocs). */
  documents: number;
  /** Expansion terms added (RM3's fbTerms). */
  expansionTerms: number;
  /** Share of the expanded query that is expansion (1 − RM3's original-query weight λ). */
  weight: number;
  /** Chunks in the workspace: a term in more than half of them is too common to expand with. */
  chunkCount: number;
}

export interface Expansion {
  /** Original and expansion terms with fractional query weights, for a second BM25 pass. */
  terms: QueryTerm[];
  /** Expansion lexemes only, with their document frequencies. */
  added: Map<string, number>;
}

/**
 * RM3 pseudo-relevance feedback (Lavrenko & Croft's relevance model, interpolated with the query as
 * in Anserini): the words that the first pass's best chunks are made of, each chunk counting by
 * its share of the retrieval scores, are the words a relevant chunk tends to contain; the most
 * probable ones join the query. Read from the chunks' tsvectors, so they are stemmed as the index is.
 * P(w|R) = Σ_D P(w|D)·P(D|Q), with P(w|D) = tf/|D| and P(D|Q) the normalised first-pass score.
 */
export async function expandQuery(sql: SqlExecutor, options: FeedbackOptions): Promise<Expansion> {
  const ids = options.ids.slice(0, options.documents);
  const original = new Map(options.terms.map((term) => [term.lexeme, term.count]));
  if (ids.length === 0 || options.weight <= 0) return { terms: [...options.terms], added: new Map() };
  const total = options.scores.slice(0, ids.length).reduce((sum, score) => sum + score, 0) || 1;
  const relevance = new Map(ids.map((id, index) => [id, options.scores[index]! / total]));

  // The chunks' own lexemes from their tsvectors: a lexeme's positions are its body and heading
  // occurrences, tf + tf_heading as the index counts them (a word only in the title would weigh
  // 0 here). In chunk order, so each lexeme's weight is summed in one order; document frequencies
  // only for the few candidates. Read as text, one row a chunk (see parseTsvectorText).
  const chunks = await sql.query<{ id: number; tsv: string; length: number }>(
    `SELECT c.id, c.tsv::text AS tsv, greatest(c.lexeme_count, 1) AS length
     FROM rag_chunks c WHERE c.id = ANY($1::bigint[]) AND c.workspace_id = $2 ORDER BY c.id`,
    [ids, options.workspaceId],
  );
  const model = new Map<string, number>();
  for (const chunk of chunks.rows) {
    for (const { lexeme, positions } of parseTsvectorText(chunk.tsv)) {
      // Numbers and one- or two-letter lexemes say little about a topic.
      if (lexeme.length < 3 || /^\d+$/.test(lexeme)) continue;
      const weight = (positions / chunk.length) * relevance.get(chunk.id)!;
      model.set(lexeme, (model.get(lexeme) ?? 0) + weight);
    }
  }
  const likely = [...model.entries()]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, options.expansionTerms * 3);
  const frequencies = await sql.query<{ lexeme: string; df: number }>(
    'SELECT lexeme, df FROM rag_vocabulary WHERE workspace_id = $1 AND lexeme = ANY($2::text[])',
    [options.workspaceId, likely.map(([lexeme]) => lexeme)],
  );
  const frequency = new Map(frequencies.rows.map((row) => [row.lexeme, row.df]));
  // A word in more than half the chunks is too common to say what the relevant ones are about.
  for (const [lexeme] of likely) {
    if ((frequency.get(lexeme) ?? 0) > options.chunkCount / 2) model.delete(lexeme);
  }
  const ranked = likely
    .filter(([lexeme]) => model.has(lexeme))
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, options.expansionTerms);
  const mass = ranked.reduce((sum, [, probability]) => sum + probability, 0) || 1;
  const queryMass = options.terms.reduce((sum, term) => sum + term.count, 0) || 1;

  const weights = new Map<string, number>();
  for (const [lexeme, count] of original) weights.set(lexeme, ((1 - options.weight) * count) / queryMass);
  const added = new Map<string, number>();
  for (const [lexeme, probability] of ranked) {
    weights.set(lexeme, (weights.get(lexeme) ?? 0) + (options.weight * probability) / mass);
    if (!original.has(lexeme)) added.set(lexeme, frequency.get(lexeme) ?? 0);
  }
  // Scaled so the original query keeps its own total weight: BM25 scores stay on the same scale.
  return {
    terms: [...weights.entries()].map(([lexeme, weight]) => ({ lexeme, count: weight * queryMass })),
    added,
  };
}
