import { questionShape, type Correction } from '../../understand/index.js';
import type { Source } from '../answer-types.js';
import { contentStems } from '../text.js';

/**
 * How well the best source covers the question: the largest share of the question's focus
 * (its content words, stemmed, without the words that only name the kind of answer) that one
 * source contains, in its text or title; for a question of several parts, that two sources
 * contain between them. Retrieval always returns its
 * nearest chunks, relevant or not; this is what tells "the knowledge base says" from "the
 * knowledge base has something vaguely similar". The question is taken as the user wrote it; a
 * misspelt word counts through its correction. Tool results count as full evidence.
 */
export function evidence(
  query: string,
  sources: readonly Source[],
  corrections: readonly Correction[] = [],
): { score: number; best: Source | null } {
  // The question's focus: words like "endpoint", "call" or "happens" say what kind of answer is
  // wanted, and no passage has to contain them.
  const shape = questionShape(query);
  const wanted = shape.focus;
  // A misspelt word counts through its correction (which has evidence: the corpus uses the
  // corrected word beside the question's others). Both are read as our stems.
  const alternatives = new Map<string, string[]>(
    wanted.map((stem) => [
      stem,
      corrections
        .filter((correction) => contentStems(correction.from).includes(stem))
        .flatMap((correction) => contentStems(correction.to)),
    ]),
  );
  let best: { score: number; best: Source | null } = { score: 0, best: null };
  const coverage: Array<{ source: Source; covered: Set<string> }> = [];
  for (const source of sources) {
    if (source.origin === 'tool') return { score: 1, best: source };
    if (wanted.length === 0) continue;
    const stems = new Set(contentStems(`${source.title ?? ''} ${source.text}`));
    const covered = wanted.filter(
      (stem) => stems.has(stem) || alternatives.get(stem)!.some((alternative) => stems.has(alternative)),
    );
    coverage.push({ source, covered: new Set(covered) });
    const score = covered.length / wanted.length;
    if (score > best.score) best = { score, best: source };
  }
  // A question of several parts ("…, and what …?") is several questions: two sources that
  // between them cover it are evidence, as one source covering it all would be.
  if (shape.multiPart && wanted.length > 0) {
    for (const [index, first] of coverage.entries()) {
      for (const second of coverage.slice(index + 1)) {
        const union = new Set([...first.covered, ...second.covered]).size / wanted.length;
        if (union > best.score)
          best = {
            score: union,
            best: first.covered.size >= second.covered.size ? first.source : second.source,
          };
      }
    }
  }
  return best;
}

/**
 * Names the question uses that the knowledge base has never seen: words it writes capitalised
 * (not just as the first word) or as an acronym, whose stem no chunk of the workspace contains
 * and no typo correction explains ("GDPR", "Smagorinsky", "Australia"). A question about a named
 * thing the corpus never mentions is out of its scope however many of its other words match;
 * lower-case unknown words ("tomorrow", a typo) say nothing of the kind.
 */
/** A focus of at most this many words is the whole subject: none of it may be unknown. */
const SMALL_FOCUS = 3;

/**
 * The words of a short question's focus that the knowledge base has never seen, in any
 * spelling ("What is the capital of France?": capital). In a focus of two or three words such a
 * word is half the subject, and whatever the rest matches is about something else; in a longer
 * question one unfamiliar word is usually a paraphrase the others make up for.
 */
export function unknownFocus(query: string, unknownTerms: readonly string[]): string[] {
  if (unknownTerms.length === 0) return [];
  const focus = questionShape(query).focus;
  if (focus.length > SMALL_FOCUS) return [];
  // Our stems and Postgres' Snowball lexemes differ at the end: the same word shares its start.
  return focus.filter((stem) =>
    unknownTerms.some((lexeme) => {
      let shared = 0;
      while (shared < stem.length && stem[shared] === lexeme[shared]) shared++;
      return shared >= Math.max(4, Math.min(stem.length, lexeme.length) - 1);
    }),
  );
}

export function unknownNames(query: string, unknownTerms: readonly string[]): string[] {
  if (unknownTerms.length === 0) return [];
  // A capital after the start or a sentence's end ("URGENT: which ...") is grammar, not a name.
  const words = [...query.matchAll(/[\p{L}][\p{L}\p{N}'’-]*/gu)].map((match) => ({
    word: match[0],
    first: /^\s*$|[.!?:]\s*$/u.test(query.slice(0, match.index)),
  }));
  const named = words.filter(
    ({ word, first }) => /^\p{Lu}/u.test(word) && (!first || /^\p{Lu}{2,}/u.test(word)),
  );
  return named
    .map(({ word }) => word)
    .filter((word) => {
      const lower = word.toLowerCase();
      // The lexemes are Snowball stems ("smagorinski", "erasur"): a word is its stem when they
      // share all but perhaps the stem's last letter.
      return unknownTerms.some((lexeme) => {
        let shared = 0;
        while (shared < lower.length && lower[shared] === lexeme[shared]) shared++;
        return lexeme.length >= 4 && shared >= Math.max(4, Math.min(lower.length, lexeme.length) - 1);
      });
    });
}
