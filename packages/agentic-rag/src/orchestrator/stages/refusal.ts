import type { Source } from '../answer-types.js';
import type { SelfCheck } from '../types.js';
import { selfCheck } from './self-check.js';
import { withCitation, type Synthesis } from './synthesize.js';

/** Sources a refusal names, so the reader can look for themselves. */
const CLOSEST_SOURCES = 3;

/** A refusal claims nothing, so it passes; injected instructions in what was read still warn. */
export function refusalCheck(sources: readonly Source[]): SelfCheck {
  const { warnings } = selfCheck('', [], sources);
  return { passed: true, citationCoverage: 1, unsupportedSentences: [], warnings };
}

/** "Not found", with the closest sources cited so the reader can look for themselves. */
export function refusal(sources: readonly Source[]): Synthesis {
  const closest = sources.filter((source) => source.origin !== 'tool').slice(0, CLOSEST_SOURCES);
  const cited = closest.map((source, index) => ({ index: index + 1, source, quote: source.text }));
  const answer =
    closest.length === 0
      ? 'Not found in the knowledge base.'
      : `Not found in the knowledge base. The closest sources are: ${cited
          .map(({ index, source }) => withCitation(source.title ?? source.sourceId, index).replace(/\.$/, ''))
          .join('; ')}.`;
  return { answer, cited };
}
