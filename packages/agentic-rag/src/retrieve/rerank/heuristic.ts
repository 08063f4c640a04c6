import { identifierParts, stem, STOPWORDS, wordsOf } from '../../embed/index.js';
import { extractIdentifiers, identifierMatch } from './identifiers.js';
import type { RerankOptions, RerankResult, Reranker } from './reranker.js';

/** How much each signal counts. The fused score keeps the channels' opinion in the result. */
const WEIGHTS = {
  fused: 0.45,
  coverage: 0.2,
  proximity: 0.1,
  heading: 0.1,
  identifier: 0.5,
  title: 0.1,
} as const;
/** A title of more words than this is a sentence, not the name of what a page is about. */
const NAME_WORDS = 4;
/**
 * A title that is a name: a command in capitals (`DROP DATABASE`, `CLUSTER`) or one lower-case
 * token (`pg_resetwal`, `psql`, `os.path`), before any " — description". "Creating a Database" is
 * a section's prose heading, not a name the question could use.
 */
const NAME_TITLE = /^(?:[A-Z][A-Z0-9]*(?:[ _][A-Z0-9]+)*|[a-z][\w.-]*)$/;

function titleName(title: string | null): string {
  const name = (title ?? '').split(/\s+[—–-]\s+/)[0]!.trim();
  return NAME_TITLE.test(name) ? name : '';
}

/**
 * A reranker with no model: blends the fused score with how many query terms the chunk covers,
 * how close together they stand, whether the title or headings carry them, whether the chunk
 * contains an exact identifier the query names (`POST /locations`, `Algorithm 3.2`), and whether
 * the question names the page's short title whole (the page is about what is asked).
 */
export class HeuristicReranker implements Reranker {
  readonly name = 'heuristic';

  rerank(options: RerankOptions): Promise<RerankResult> {
    const queryTerms = [...new Set(contentStems(options.query))];
    const identifiers = extractIdentifiers(options.query);
    // Min-max over the candidates: fused scores can be negative (z-score fusion).
    const fusedScores = options.candidates.map((candidate) => candidate.fusedScore);
    const minFused = Math.min(...fusedScores);
    const maxFused = Math.max(...fusedScores);
    const asked = new Set(queryTerms);
    const features = options.candidates.map((candidate) => {
      const words = contentStems(candidate.text);
      // A short title the question names whole ("What does pg_resetwal do?" on pg_resetwal's
      // page; "drop the database" on DROP DATABASE's) says the page is about what is asked.
      const named = [...new Set(contentStems(titleName(candidate.title)))];
      const heading = new Set(contentStems(`${candidate.title ?? ''} ${candidate.sectionPath}`));
      const present = queryTerms.filter((term) => words.includes(term) || heading.has(term));
      return {
        fused: maxFused > minFused ? (candidate.fusedScore - minFused) / (maxFused - minFused) : 1,
        coverage: queryTerms.length > 0 ? present.length / queryTerms.length : 0,
        proximity: proximity(words, queryTerms),
        heading:
          queryTerms.length > 0
            ? queryTerms.filter((term) => heading.has(term)).length / queryTerms.length
            : 0,
        identifier: identifierMatch(identifiers, `${candidate.sectionPath}\n${candidate.text}`),
        title:
          named.length > 0 && named.length <= NAME_WORDS
            ? named.filter((term) => asked.has(term)).length / named.length
            : 0,
      };
    });
    const scores = features.map((feature) =>
      (Object.keys(WEIGHTS) as Array<keyof typeof WEIGHTS>).reduce(
        (sum, key) => sum + WEIGHTS[key] * feature[key],
        0,
      ),
    );
    return Promise.resolve({ scores, features });
  }
}

function contentStems(text: string): string[] {
  return wordsOf(identifierParts(text))
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

/**
 * matched / span of the shortest window holding every query term the text contains: 1 when they
 * stand side by side, small when they are scattered, 0 when fewer than two are present.
 */
function proximity(words: readonly string[], terms: readonly string[]): number {
  const wanted = new Set(terms.filter((term) => words.includes(term)));
  if (wanted.size < 2) return 0;
  const counts = new Map<string, number>();
  let covered = 0;
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < words.length; right++) {
    const word = words[right]!;
    if (!wanted.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (counts.get(word) === 1) covered++;
    while (covered === wanted.size) {
      best = Math.min(best, right - left + 1);
      const leaving = words[left++]!;
      if (wanted.has(leaving)) {
        counts.set(leaving, counts.get(leaving)! - 1);
        if (counts.get(leaving) === 0) covered--;
      }
    }
  }
  return Number.isFinite(best) ? wanted.size / best : 0;
}
