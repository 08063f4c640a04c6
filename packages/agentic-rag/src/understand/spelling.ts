import type { LexicalIndexView } from '../store/index.js';
import type { Sql, SqlExecutor } from '../db/index.js';
import { englishWords, inWordNet, type Token } from '../lexicon/index.js';

/**
 * Typo correction that never "corrects" a real word. A word is left alone when English has it
 * (Hunspell's American or British dictionary, or WordNet), when the workspace's corpus has it,
 * or when it is a name (a flag, an identifier, a path, an extension, a number). Only what is
 * left — a word nobody spells that way — is corrected, and only to a word the corpus uses close
 * by (one edit for a short word, two for a longer one) that has evidence: it occurs in a passage
 * together with another word of the question, so "relase a repo" becomes "release", not "relate".
 * Every correction is reported with its evidence.
 */
export interface Correction {
  /** The word as typed. */
  from: string;
  /** The word it was corrected to. */
  to: string;
  /** 1 − edit distance / length of the longer word. */
  similarity: number;
  /** Passages holding the corrected word together with another word of the question (or, alone, at all). */
  evidence: number;
}

const MIN_LENGTH = 4;
const SUGGESTIONS = 8;

/** How many edits a word of this length may be from its correction. */
function allowedEdits(word: string): number {
  return word.length <= 5 ? 1 : 2;
}

export function isTypoOf(word: string, candidate: string): boolean {
  return editDistance(word, candidate) <= allowedEdits(word);
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one span). */
export function editDistance(left: string, right: string): number {
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
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1])
        best = Math.min(best, distance[row - 2]![column - 2]! + 1);
      distance[row]![column] = best;
    }
  }
  return distance[left.length]![right.length]!;
}

/** What the corpus says of a word: its lexeme (as the lexical index stems it) and how many chunks hold it. */
export interface WordStatistics {
  lexeme: string | null;
  df: number;
}

/**
 * Whether a word (lower case) needs no correction: known to the corpus, too short to judge, or
 * English. An acronym ("POMP", "GDPR") is a name, not an English word: only the corpus knows it.
 */
export function isKnownWord(word: string, statistics: WordStatistics | undefined, acronym = false): boolean {
  if (word.length < MIN_LENGTH || /[\d_]/.test(word)) return true;
  if ((statistics?.df ?? 0) > 0) return true;
  if (statistics && statistics.lexeme === null) return true; // a stop word
  if (acronym) return false;
  const english = englishWords();
  return english.isWord(word) || inWordNet(word);
}

/**
 * Lexemes and document frequencies of words (lower case), as the chunks' tsvectors have them: one
 * query for all of them.
 */
export async function wordStatistics(
  sql: SqlExecutor,
  workspaceId: string,
  words: readonly string[],
): Promise<Map<string, WordStatistics>> {
  const unique = [...new Set(words)];
  if (unique.length === 0) return new Map();
  const result = await sql.query<{ word: string; lexeme: string | null; df: number | null }>(
    `SELECT w.word, l.lexeme, coalesce(v.df, 0) AS df
       FROM unnest($2::text[]) AS w(word)
       LEFT JOIN LATERAL (SELECT t.lexeme FROM unnest(to_tsvector('english', w.word)) AS t LIMIT 1) AS l ON true
       LEFT JOIN rag_vocabulary v ON v.workspace_id = $1 AND v.lexeme = l.lexeme`,
    [workspaceId, unique],
  );
  return new Map(result.rows.map((row) => [row.word, { lexeme: row.lexeme, df: Number(row.df ?? 0) }]));
}

/**
 * Corrections for the question's unknown words. `statistics` holds every word token's lexeme and
 * document frequency (from `wordStatistics`).
 */
export async function correctSpelling(
  sql: Sql,
  workspaceId: string,
  tokens: readonly Token[],
  statistics: ReadonlyMap<string, WordStatistics>,
  similarityThreshold: number,
  lexicalIndex: () => Promise<LexicalIndexView>,
): Promise<Correction[]> {
  const unknown = tokens.filter(
    (token) =>
      (token.kind === 'word' || token.kind === 'acronym') &&
      // A capitalised word inside a sentence is a name ("Zstandard"): correcting it to a common
      // word ("standard") would hide that the corpus does not know it.
      !(token.kind === 'word' && /^\p{Lu}/u.test(token.text) && !sentenceStart(tokens, token)) &&
      !isKnownWord(token.lower, statistics.get(token.lower), token.kind === 'acronym'),
  );
  if (unknown.length === 0) return [];
  // The question's other words the corpus knows: a correction must meet one of them somewhere.
  const context = [
    ...new Set(
      tokens
        .map((token) => statistics.get(token.lower))
        .filter((entry): entry is WordStatistics => !!entry && entry.lexeme !== null && entry.df > 0)
        .map((entry) => entry.lexeme!),
    ),
  ];
  const corrections: Correction[] = [];
  for (const token of unknown) {
    const word = token.lower;
    const candidates = new Set<string>();

    // The corpus's own vocabulary, which also holds the names no dictionary has ("webhook", "pomdp").
    const lexeme = statistics.get(word)?.lexeme ?? word;
    // `%` uses the trigram index at the threshold set for this transaction.
    const near = await sql.transaction(async (tx) => {
      await tx.query("SELECT set_config('pg_trgm.similarity_threshold', $1, true)", [
        String(similarityThreshold),
      ]);
      return tx.query<{ lexeme: string }>(
        `SELECT l.lexeme FROM rag_lexicon l
          WHERE l.workspace_id = $1 AND l.lexeme % $2 AND similarity(l.lexeme, $2) >= $3
          ORDER BY similarity(l.lexeme, $2) DESC, l.lexeme LIMIT 5`,
        [workspaceId, lexeme, similarityThreshold],
      );
    });
    // A lexeme is a stem ("valu"), not a word: the corpus's own spelling of it is the candidate.
    // A lexeme that is an English word ("shipment") is a candidate itself: the few chunks the
    // surface forms are read from may spell it only in another form ("shipments").
    for (const { lexeme: nearLexeme } of near.rows)
      if (englishWords().isWord(nearLexeme) || inWordNet(nearLexeme)) candidates.add(nearLexeme);
    for (const surface of await surfaceForms(
      sql,
      workspaceId,
      near.rows.map((row) => row.lexeme),
      await lexicalIndex(),
    ))
      candidates.add(surface);
    // Words a speller would offer, when the corpus's own spellings hold nothing close (slower, and
    // only a word the corpus uses can be the correction anyway). Acronyms are names: only the
    // corpus may correct them.
    if (token.kind === 'word' && ![...candidates].some((candidate) => isTypoOf(word, candidate)))
      for (const suggestion of suggest(word)) candidates.add(suggestion);
    const close = [...candidates].filter((candidate) => candidate !== word && isTypoOf(word, candidate));
    if (close.length === 0) continue;
    const known = await wordStatistics(sql, workspaceId, close);
    const present = close.filter((candidate) => (known.get(candidate)?.df ?? 0) > 0);
    if (present.length === 0) continue;
    const evidence = cooccurrence(
      await lexicalIndex(),
      present.map((candidate) => known.get(candidate)!.lexeme!),
      context,
    );
    const scored = present
      .map((candidate) => {
        const lexemeOf = known.get(candidate)!.lexeme!;
        return {
          candidate,
          evidence: context.length > 0 ? (evidence.get(lexemeOf) ?? 0) : known.get(candidate)!.df,
          distance: editDistance(word, candidate),
          df: known.get(candidate)!.df,
        };
      })
      .filter((entry) => entry.evidence > 0)
      .sort(
        (left, right) =>
          left.distance - right.distance ||
          right.evidence - left.evidence ||
          right.df - left.df ||
          (left.candidate < right.candidate ? -1 : 1),
      );
    const best = scored[0];
    if (!best) continue;
    corrections.push({
      from: token.text,
      to: token.kind === 'acronym' ? best.candidate.toUpperCase() : best.candidate,
      similarity: Number((1 - best.distance / Math.max(word.length, best.candidate.length)).toFixed(4)),
      evidence: best.evidence,
    });
  }
  return corrections;
}

/** Chunks whose words are read for a lexeme's surface forms. */
const SURFACE_CHUNKS = 3;

/**
 * The words of a few chunks holding each lexeme that stem to it, as the chunks write them (lower
 * case): "pomdp" and "pomdps" for the lexeme pomdp. Each is a candidate; the edit distance picks.
 * The chunks are each lexeme's first live ones in the segments; one query reads them all.
 */
async function surfaceForms(
  sql: SqlExecutor,
  workspaceId: string,
  lexemes: readonly string[],
  view: LexicalIndexView,
): Promise<string[]> {
  const pairs: Array<[string, number]> = [];
  for (const lexeme of lexemes)
    for (const chunkId of firstChunks(view, lexeme, SURFACE_CHUNKS)) pairs.push([lexeme, chunkId]);
  if (pairs.length === 0) return [];
  const result = await sql.query<{ word: string }>(
    `SELECT DISTINCT w.word
       FROM unnest($2::text[], $3::bigint[]) AS x(lexeme, chunk_id)
       JOIN rag_chunks c ON c.id = x.chunk_id AND c.workspace_id = $1,
            LATERAL unnest(regexp_split_to_array(lower(c.text), '[^[:alnum:]]+')) AS w(word)
      WHERE length(w.word) > 0 AND left(w.word, 1) = left(x.lexeme, 1)
        AND (SELECT l.lexeme FROM unnest(to_tsvector('english', w.word)) AS l LIMIT 1) = x.lexeme
      LIMIT 40`,
    [workspaceId, pairs.map(([lexeme]) => lexeme), pairs.map(([, chunkId]) => chunkId)],
  );
  return result.rows.map((row) => row.word);
}

/** The `count` lowest ids of live chunks holding `lexeme`. */
function firstChunks(view: LexicalIndexView, lexeme: string, count: number): number[] {
  const ids: number[] = [];
  for (const segment of view.segments) {
    const postings = segment.postings(lexeme);
    if (!postings) continue;
    let taken = 0;
    // A segment's chunk table is in id order: its first live ones are its lowest.
    for (const at of postings.positions) {
      const id = segment.chunkIds[at]!;
      if (view.tombstones.has(id)) continue;
      ids.push(id);
      if (++taken === count) break;
    }
  }
  return ids.sort((left, right) => left - right).slice(0, count);
}

/** Whether the token opens the question or a sentence of it. */
function sentenceStart(tokens: readonly Token[], token: Token): boolean {
  const index = tokens.indexOf(token);
  return index === 0;
}

function suggest(word: string): string[] {
  return englishWords()
    .suggest(word)
    .slice(0, SUGGESTIONS)
    .map((suggestion) => suggestion.toLowerCase());
}

/**
 * Per candidate lexeme: chunks that hold it and at least one of the context lexemes, counted in the
 * workspace's lexical segments in process (a common candidate has thousands of postings: at 100k
 * chunks the statement over a postings table took up to half a second).
 */
function cooccurrence(
  view: LexicalIndexView,
  candidates: readonly string[],
  context: readonly string[],
): Map<string, number> {
  if (candidates.length === 0 || context.length === 0) return new Map();
  return cooccurrenceInSegments(view, [...new Set(candidates)], [...new Set(context)]);
}

function cooccurrenceInSegments(
  view: LexicalIndexView,
  candidates: readonly string[],
  context: readonly string[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const segment of view.segments) {
    let near: Uint8Array | undefined;
    for (const lexeme of context) {
      const postings = segment.postings(lexeme);
      if (!postings) continue;
      near ??= new Uint8Array(segment.chunkCount);
      for (const at of postings.positions) near[at] = 1;
    }
    if (!near) continue;
    for (const lexeme of candidates) {
      const postings = segment.postings(lexeme);
      if (!postings) continue;
      let together = 0;
      for (const at of postings.positions)
        if (near[at] && !view.tombstones.has(segment.chunkIds[at]!)) together++;
      if (together > 0) counts.set(lexeme, (counts.get(lexeme) ?? 0) + together);
    }
  }
  return counts;
}
