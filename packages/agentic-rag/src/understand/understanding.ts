import type { LexicalIndexView } from '../store/index.js';
import type { Sql } from '../db/index.js';
import { parseEntityReference } from '../graph/index.js';
import {
  clippingsOf,
  englishWords,
  senses,
  tableExpansions,
  tokenize,
  type Token,
} from '../lexicon/index.js';
import {
  askedAction,
  operationTerm,
  rankOperations,
  workspaceOperations,
  type AskedAction,
  type OperationFieldIndex,
  type OperationQuery,
  type QueryTerm,
  type RankedOperation,
  type WorkspaceOperations,
} from '../operations/index.js';
import { decideIntent, type UnderstoodIntent } from './intent.js';
import { analyzeLexemes, type LexicalQuery } from './lexemes.js';
import { questionShape, type QuestionShape } from './shape.js';
import { correctSpelling, wordStatistics, type Correction, type WordStatistics } from './spelling.js';
import { detectIntent } from './wording.js';

/**
 * A question understood once, then handed through plan → rewrite → retrieval → synthesis: its
 * words and the names among them, the typos corrected (with their evidence), the vocabulary it
 * was widened with, what it asks to be done, what kind of answer it wants and what it is about,
 * and whether it is about the workspace's API (with how sure that is). Nothing downstream reads
 * the question's wording again.
 */
export interface Understanding {
  workspaceId: string;
  /** As asked, whitespace collapsed. */
  query: string;
  tokens: Token[];
  corrections: Correction[];
  /** The question with its corrections applied; null when nothing was corrected. */
  correctedQuery: string | null;
  /** What is searched: the corrected question, or the question (expansions are weighted terms, not text). */
  searchText: string;
  expansions: Expansion[];
  action: AskedAction;
  shape: QuestionShape;
  /** A numbered entity the question names ("Algorithm 3.2"). */
  entity: { type: string; number: string } | null;
  intent: UnderstoodIntent;
  /** The lexical channel's query: the lexemes of the search text and of the expansions. */
  lexical: LexicalQuery;
  /** The workspace's operations ranked for the question (empty when it describes no API). */
  operations: RankedOperation[];
  /** The operation index and the question as it was put to it (null when there is no API). */
  operationSearch: { index: OperationFieldIndex; query: OperationQuery } | null;
  /**
   * Words of the question the workspace has never seen and could not correct ("gdpr"), as
   * lexemes: what the question is about, when the corpus does not cover it.
   */
  unknownTerms: string[];
  /**
   * Names the question uses that the corpus never mentions, as written: an acronym ("TDE"), an
   * identifier or code (`pg_stat_statements`). A question about a named thing the corpus does not
   * know is out of its scope however many of its other words match.
   */
  unknownNames: string[];
}

export type ExpansionSource = 'abbreviation' | 'acronym' | 'declared' | 'clipping' | 'synonym';

export interface Expansion {
  /** The question's word. */
  word: string;
  /** What it was widened with ("repository" for "repo"). */
  expansion: string;
  source: ExpansionSource;
  /** How much a match on the expansion counts against one on the word itself. */
  weight: number;
}

export interface UnderstandOptions {
  /** pg_trgm similarity a corpus word needs to be considered as a correction. */
  typoSimilarity: number;
  /** Weight of WordNet synonyms (0 turns them off). */
  synonymWeight: number;
  /** Intent recognition (ENABLE_QUERY_ANALYSIS); off, every question is general. */
  intent: boolean;
  /**
   * Acronyms the knowledge base declares ("POMDP" with its long form) among the question's words;
   * their long forms are searched too, written after the acronym in the search text.
   */
  declaredAcronyms?: (text: string) => Promise<Array<{ term: string; expansion: string }>>;
  /**
   * The workspace's lexical segments (the retriever's cache): typo evidence, surface forms and the
   * chunks that may write a name are read there.
   */
  lexicalIndex: () => Promise<LexicalIndexView>;
  /** The workspace's corpus version, when the caller has read it on `sql` (see fromCatalogue). */
  corpusVersion?: number;
}

/** Weights of the expansions that stand for the very word typed. */
const SAME_THING = 1;
const CLIPPING = 0.8;
/** A declared long form's weight in the lexical query: none (see `understand`). */
const DECLARED = 0;
/** A word of the verb's object, and a verb, against any other word of the question. */
const OBJECT_WEIGHT = 1.5;
const VERB_WEIGHT = 0.5;
/** Operations ranked and kept with the understanding. */
const RANKED_OPERATIONS = 50;
const MAX_SYNONYMS = 3;

/** Words whose matching says nothing about which operation: the kind of answer, not its subject. */
const KIND_WORDS = new Set([
  'endpoint',
  'endpoints',
  'api',
  'apis',
  'route',
  'routes',
  'call',
  'calls',
  'operation',
  'operations',
  'request',
  'requests',
  'way',
  'ways',
  'want',
  'need',
  'use',
  'using',
  'please',
  'possible',
  'able',
]);
/** A kind word right after these asks for an operation ("which call"); elsewhere it may be a thing ("merge request"). */
const KIND_OPENERS = new Set([
  'which',
  'what',
  'the',
  'a',
  'an',
  'any',
  'this',
  'that',
  'api',
  'rest',
  'http',
  'some',
  'one',
  'an',
]);
const FUNCTION_WORDS = new Set(
  (
    'a an the and or of to in on at for from by with without into onto about as is are was were be been ' +
    'do does did done can could should would will shall may might must i we you they it its my our your ' +
    'their me us them this that these those there here what which who whom whose when where why how ' +
    'not no yes if then than so just only also again still very too some any each one someone something ' +
    'get got have has had make made thing things me mine'
  ).split(' '),
);

export async function understand(
  sql: Sql,
  workspaceId: string,
  question: string,
  options: UnderstandOptions,
): Promise<Understanding> {
  const query = question.replace(/\s+/g, ' ').trim();
  const tokens = tokenize(query);
  const wordTokens = tokens.filter((token) => token.kind === 'word' || token.kind === 'acronym');
  const statistics = await wordStatistics(
    sql,
    workspaceId,
    wordTokens.map((token) => token.lower),
  );
  const api = await workspaceOperations(sql, workspaceId, options.corpusVersion);
  // A word that shortens one of the spec's words ("custs", "proj") is a clipping to expand, not
  // a typo to correct; the table's abbreviations likewise.
  const shorthand = tokens.filter(
    (token) =>
      token.kind === 'word' &&
      (tableExpansions(token.lower).length > 0 ||
        (api.index.size > 0 && clippingsOf(token.lower.replace(/s$/, ''), api.vocabulary).length > 0)),
  );
  const corrections = await correctSpelling(
    sql,
    workspaceId,
    tokens.filter((token) => !shorthand.includes(token)),
    statistics,
    options.typoSimilarity,
    options.lexicalIndex,
  );
  const correctedQuery = corrections.length > 0 ? applyCorrections(query, tokens, corrections) : null;
  const searchText = correctedQuery ?? query;
  // The long forms the knowledge base declares for the question's acronyms are reported and read
  // by the answer (a passage that spells the acronym out answers it), but not searched for: on
  // the dev sets, searching them (appended or at a quarter weight) turned a POMDP's belief update
  // into a search for its definition and changed no golden answer.
  const declared: Expansion[] = [];
  for (const { term, expansion } of (await options.declaredAcronyms?.(searchText)) ?? []) {
    if (searchText.toLowerCase().includes(expansion.toLowerCase())) continue;
    declared.push({ word: term, expansion, source: 'declared', weight: DECLARED });
  }
  const searchTokens = correctedQuery ? tokenize(correctedQuery) : tokens;
  const words = searchTokens
    .filter((token) => token.kind === 'word' || token.kind === 'acronym' || token.kind === 'identifier')
    .map((token) => token.lower.replace(/['’]s$/, ''));
  const corrected = new Set(corrections.map((correction) => correction.to.toLowerCase()));
  const expansions = [
    ...declared,
    ...(await expand(sql, workspaceId, searchTokens, statistics, corrected, api, options.synonymWeight)),
  ];
  const action = askedAction(searchText, words);
  const shape = questionShape(searchText);
  const entity = parseEntityReference(searchText);
  const lexical = await analyzeLexemes(sql, workspaceId, searchText);
  await addExpansionLexemes(
    sql,
    workspaceId,
    lexical,
    expansions.filter((expansion) => expansion.weight > 0),
  );

  // What the question rules out ("without deleting the group") names no operation it wants.
  const ruledOut = ruledOutWords(searchText, searchTokens);
  const content = contentWords(words.filter((_, index) => !ruledOut.has(index)));
  // The verb's object says most about which operation; the verbs themselves are matched as the
  // action, so as words they count for less.
  const object = new Set(action.object);
  const ownTerms = termsOf(
    api,
    content.map((word) => ({
      word,
      weight: action.verbs.includes(word) ? VERB_WEIGHT : object.has(word) ? OBJECT_WEIGHT : 1,
    })),
  );
  const allTerms = mergeTerms([
    ...ownTerms,
    ...termsOf(
      api,
      expansions.map((expansion) => ({ word: expansion.expansion, weight: expansion.weight })),
    ),
  ]);
  const operationQuery: OperationQuery = { terms: allTerms, action };
  const operations =
    api.index.size > 0 ? rankOperations(api.index, operationQuery).slice(0, RANKED_OPERATIONS) : [];
  const wording = options.intent ? detectIntent(searchText) : ({ kind: 'general' } as const);
  const intent = options.intent
    ? decideIntent({
        wording,
        action,
        shape,
        terms: ownTerms.filter((term) => term.weight >= 1).map((term) => ({ ...term, weight: 1 })),
        ranked: operations,
        index: api.index.size > 0 ? api.index : null,
        specShare: api.specShare,
        entity: entity !== null,
      })
    : {
        kind: 'general' as const,
        confidence: 1,
        reasons: ['query analysis is off'],
        source: 'none' as const,
      };
  const correctedWords = new Set(corrections.map((correction) => correction.from.toLowerCase()));
  const unknownTerms = [
    ...new Set(
      wordTokens
        .filter((token) => !correctedWords.has(token.lower))
        .map((token) => statistics.get(token.lower))
        .filter((entry): entry is WordStatistics => !!entry && entry.lexeme !== null && entry.df === 0)
        .map((entry) => entry.lexeme!)
        .filter((lexeme) => lexeme.length >= 4 && !/\d/.test(lexeme)),
    ),
  ];
  // A name the corpus spells out in full ("CI" → continuous integration) is not unknown.
  const explained = new Set([
    ...correctedWords,
    ...expansions.map((expansion) => expansion.word.toLowerCase()),
  ]);
  const unknownNames = await namesNotInCorpus(
    sql,
    workspaceId,
    tokens,
    statistics,
    explained,
    options.lexicalIndex,
  );
  return {
    workspaceId,
    query,
    tokens,
    corrections,
    correctedQuery,
    searchText,
    expansions,
    action,
    shape,
    entity: entity ? { type: entity.type, number: entity.number } : null,
    intent,
    lexical,
    operations,
    operationSearch: api.index.size > 0 ? { index: api.index, query: operationQuery } : null,
    unknownTerms,
    unknownNames,
  };
}

/** Names checked against the chunks' text itself (a lexeme match would split them into parts). */
const MAX_NAME_CHECKS = 3;

/**
 * The question's names the corpus never mentions: an acronym no chunk holds, or an identifier
 * (`pg_stat_statements`, `shutil.copy2`) no chunk's text contains as written (case aside). Stems
 * cannot tell: Postgres reads `pg_stat_statements` as pg, stat, statement, which any manual has.
 */
async function namesNotInCorpus(
  sql: Sql,
  workspaceId: string,
  tokens: readonly Token[],
  statistics: ReadonlyMap<string, WordStatistics>,
  corrected: ReadonlySet<string>,
  lexicalIndex: () => Promise<LexicalIndexView>,
): Promise<string[]> {
  const names: string[] = [];
  for (const token of tokens) {
    const known = statistics.get(token.lower);
    // A stop word in capitals ("the DO statement", "FOR EACH ROW") is no name the corpus could hold.
    if (
      token.kind === 'acronym' &&
      !corrected.has(token.lower) &&
      known &&
      known.lexeme !== null &&
      known.df === 0
    )
      names.push(token.text);
  }
  const identifiers = tokens
    .filter((token) => (token.kind === 'identifier' || token.kind === 'code') && /[_.]/.test(token.text))
    .map((token) => token.text.replace(/^`|`$/g, '').replace(/\(\)$/, ''))
    .slice(0, MAX_NAME_CHECKS);
  // An identifier whose parts the corpus does not all know is more likely misspelt
  // ("subproccess.run") than a name it lacks: only one made of known parts is checked whole.
  const parts = await wordStatistics(
    sql,
    workspaceId,
    identifiers.flatMap((identifier) =>
      identifier
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((part) => part.length > 2),
    ),
  );
  for (const identifier of identifiers) {
    const pieces = identifier
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((part) => part.length > 2);
    if (
      pieces.some((piece) => {
        const entry = parts.get(piece);
        return !entry || (entry.lexeme !== null && entry.df === 0);
      })
    )
      continue;
    // A dotted name of a type is a path of names (`Money.amount`: the amount of a Money), which a
    // text seldom writes joined: each name must appear. A snake_case name is one name, written whole.
    // A module path written in lower case (`typing.override`, `os.path.join`) is written whole
    // wherever documentation mentions it; a type's member (`Money.amount`) seldom is.
    const segments = /^[a-z][\w]*\./.test(identifier) ? [identifier] : identifier.split('.').filter(Boolean);
    let missing = false;
    for (const name of segments) {
      if (!(await corpusWrites(sql, workspaceId, name.toLowerCase(), lexicalIndex))) missing = true;
    }
    if (missing) names.push(identifier);
  }
  return names;
}

/**
 * Whether some chunk's text holds `name` as written (case aside). A chunk that writes a name holds
 * the name's own lexemes (`pg_stat_statements` → pg, stat, statement; `os.path.join` → one), so
 * with the lexical segments at hand only the chunks holding all of them are read, by id: the text
 * scan it replaces read every chunk of a corpus lacking the name (60–475 ms at 100k chunks). A
 * name written only inside a longer token (a URL) is therefore not found, as a word search would
 * not find it either.
 */
async function corpusWrites(
  sql: Sql,
  workspaceId: string,
  name: string,
  lexicalIndex: () => Promise<LexicalIndexView>,
): Promise<boolean> {
  const analysed = await sql.query<{ lexeme: string }>(
    `SELECT lexeme FROM unnest(to_tsvector('english', $1))`,
    [name],
  );
  const lexemes = analysed.rows.map((row) => row.lexeme);
  // A name of stop words only ("to_be") has no lexeme to narrow by: its text is scanned.
  const candidates = lexemes.length > 0 ? chunksHoldingAll(await lexicalIndex(), lexemes) : null;
  if (candidates?.length === 0) return false;
  const found = await sql.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM rag_chunks
                     WHERE workspace_id = $1 AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
                       AND strpos(lower(text), $3) > 0) AS found`,
    [workspaceId, candidates, name],
  );
  return found.rows[0]?.found === true;
}

/** Live chunks whose postings hold every one of `lexemes`, from the segments. */
function chunksHoldingAll(view: LexicalIndexView, lexemes: readonly string[]): number[] {
  const ids: number[] = [];
  for (const segment of view.segments) {
    const lists = lexemes.map((lexeme) => segment.postings(lexeme)?.positions);
    if (lists.some((list) => !list)) continue;
    // Positions are ascending within a segment: count each position's lists, keep those in all.
    const seen = new Uint8Array(segment.chunkCount);
    for (const list of lists) for (const at of list!) seen[at]!++;
    for (let at = 0; at < seen.length; at++) {
      const id = segment.chunkIds[at]!;
      if (seen[at] === lists.length && !view.tombstones.has(id)) ids.push(id);
    }
  }
  return ids;
}

/** The question with each corrected word replaced, everything else as typed. */
function applyCorrections(
  query: string,
  tokens: readonly Token[],
  corrections: readonly Correction[],
): string {
  let result = '';
  let at = 0;
  for (const token of tokens) {
    const correction = corrections.find((entry) => entry.from === token.text);
    if (!correction) continue;
    result += query.slice(at, token.start) + correction.to;
    at = token.end;
  }
  return result + query.slice(at);
}

/** Clauses that say what the question does not want. */
const RULED_OUT = /\b(without|rather than|instead of|but not|not|\w+n['’]t)\b[^,.;:?!()]*/gi;

/** Indices (among word, acronym and identifier tokens) of the words inside a ruled-out clause. */
function ruledOutWords(text: string, tokens: readonly Token[]): Set<number> {
  const spans = [...text.matchAll(RULED_OUT)].map(
    (match) => [match.index, match.index + match[0].length] as const,
  );
  const indices = new Set<number>();
  let index = 0;
  for (const token of tokens) {
    if (token.kind !== 'word' && token.kind !== 'acronym' && token.kind !== 'identifier') continue;
    if (spans.some(([start, end]) => token.start >= start && token.end <= end)) indices.add(index);
    index++;
  }
  return indices;
}

/** The question's words that say what it is about. */
function contentWords(words: readonly string[]): string[] {
  return words.filter(
    (word, index) =>
      !FUNCTION_WORDS.has(word) &&
      word.length > 1 &&
      !(
        KIND_WORDS.has(word) &&
        (index === 0 ||
          KIND_OPENERS.has(words[index - 1]!) ||
          !/^(requests?|calls?|operations?|routes?)$/.test(word))
      ),
  );
}

/** Words (and phrases) as operation-index terms, each term at its strongest weight. */
function termsOf(
  api: WorkspaceOperations,
  entries: ReadonlyArray<{ word: string; weight: number }>,
): QueryTerm[] {
  const weights = new Map<string, number>();
  for (const { word, weight } of entries) {
    // "to-do" is also "todo", as a path writes it.
    const forms = word.includes('-') ? [word, word.replaceAll('-', '')] : [word];
    for (const term of forms.flatMap((form) => api.index.terms(form)))
      weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

function mergeTerms(terms: readonly QueryTerm[]): QueryTerm[] {
  const weights = new Map<string, number>();
  for (const { term, weight } of terms) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

/**
 * The question's words widened with what they stand for: developer abbreviations, acronyms and
 * clippings of the spec's names, and (weighted low) WordNet synonyms. An expansion is kept only
 * when the workspace uses it: one nobody wrote cannot be searched for.
 */
async function expand(
  sql: Sql,
  workspaceId: string,
  tokens: readonly Token[],
  statistics: ReadonlyMap<string, WordStatistics>,
  corrected: ReadonlySet<string>,
  api: WorkspaceOperations,
  synonymWeight: number,
): Promise<Expansion[]> {
  const english = englishWords();
  const found: Expansion[] = [];
  const add = (word: string, expansion: string, source: ExpansionSource, weight: number) => {
    if (expansion !== word && !found.some((entry) => entry.word === word && entry.expansion === expansion))
      found.push({ word, expansion, source, weight });
  };
  for (const token of tokens) {
    if (token.kind !== 'word' && token.kind !== 'acronym' && token.kind !== 'identifier') continue;
    const word = token.lower.replace(/['’]s$/, '');
    const table = tableExpansions(word);
    for (const long of table) add(word, long, 'abbreviation', SAME_THING);
    const known = (statistics.get(word)?.df ?? 0) > 0;
    const isEnglish = english.isWord(word);
    const singular = word.replace(/s$/, '');
    // The table is the authority on general shorthand ("CI"); the spec's own names spell the rest.
    if (
      api.index.size > 0 &&
      table.length === 0 &&
      (token.kind === 'acronym' || (!isEnglish && word.length <= 4))
    ) {
      for (const long of (api.acronyms.get(singular) ?? []).slice(0, 2))
        add(word, long, 'acronym', SAME_THING);
    }
    if (api.index.size > 0 && token.kind === 'word' && !known && !isEnglish && !corrected.has(word)) {
      // "custs" is a clipping of "customers" as "cust" is of "customer".
      for (const long of clippingsOf(singular, api.vocabulary).slice(0, 3))
        add(word, long, 'clipping', CLIPPING);
    }
    if (synonymWeight > 0 && token.kind === 'word' && isEnglish && !FUNCTION_WORDS.has(word))
      for (const synonym of synonymsOf(word)) add(word, synonym, 'synonym', synonymWeight);
  }
  if (found.length === 0) return found;
  // Kept when the workspace has every word of it (a phrase) in some chunk.
  const expansionWords = [...new Set(found.flatMap((entry) => entry.expansion.split(/\s+/)))];
  const present = await wordStatistics(sql, workspaceId, expansionWords);
  return found.filter((entry) =>
    entry.expansion.split(/\s+/).every((word) => {
      const stats = present.get(word);
      return stats !== undefined && (stats.lexeme === null || stats.df > 0);
    }),
  );
}

/** Single-word synonyms from the two most frequent senses of the word's likeliest part of speech. */
function synonymsOf(word: string): string[] {
  const found = senses(word);
  const pos = found[0]?.pos;
  return [
    ...new Set(
      found
        .filter((sense) => sense.pos === pos && sense.rank < 2)
        .flatMap((sense) => sense.words)
        .filter(
          (synonym) =>
            synonym !== word && !synonym.includes(' ') && operationTerm(synonym) !== operationTerm(word),
        ),
    ),
  ].slice(0, MAX_SYNONYMS);
}

/** The lexemes of the expansions join the lexical query, each at its expansion's weight. */
async function addExpansionLexemes(
  sql: Sql,
  workspaceId: string,
  lexical: LexicalQuery,
  expansions: readonly Expansion[],
): Promise<void> {
  if (expansions.length === 0) return;
  const words = [...new Set(expansions.flatMap((entry) => entry.expansion.split(/\s+/)))];
  const statistics = await wordStatistics(sql, workspaceId, words);
  const own = new Set(lexical.terms.map((term) => term.lexeme));
  for (const expansion of expansions) {
    for (const word of expansion.expansion.split(/\s+/)) {
      const entry = statistics.get(word);
      if (!entry?.lexeme || own.has(entry.lexeme)) continue;
      const existing = lexical.terms.find((term) => term.lexeme === entry.lexeme);
      if (existing) existing.weight = Math.max(existing.weight ?? 1, expansion.weight);
      else lexical.terms.push({ lexeme: entry.lexeme, count: 1, weight: expansion.weight });
      lexical.documentFrequency.set(entry.lexeme, entry.df);
    }
  }
}
