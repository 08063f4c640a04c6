import type { Correction, Understanding } from '../../understand/index.js';

export interface Rewrite {
  /** What is searched and answered: the question with its corrections and declared long forms. */
  query: string;
  corrections: Correction[];
  /** Long forms added for acronyms the knowledge base declares (`POMDP` → its expansion). */
  expansions: Array<{ term: string; expansion: string }>;
}

/**
 * The understood question as the later stages read it: corrections applied (reported, never
 * silent) and each acronym the knowledge base declares followed by its long form, so passages
 * that only spell it out are found too. Nothing is analysed again here.
 */
export function rewrite(understanding: Understanding): Rewrite {
  const expansions = understanding.expansions
    .filter((expansion) => expansion.source === 'declared')
    .map((expansion) => ({ term: expansion.word, expansion: expansion.expansion }));
  return {
    // The answer reads the long forms too: a passage that spells an acronym out answers it.
    query: [understanding.searchText, ...expansions.map(({ expansion }) => `(${expansion})`)].join(' '),
    corrections: understanding.corrections,
    expansions,
  };
}
