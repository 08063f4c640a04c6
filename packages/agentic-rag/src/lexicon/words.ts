import { identifierParts, stem, STOPWORDS, wordsOf } from '../embed/index.js';

/** Words that say what kind of question it is, not what it is about. */
const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'how',
  'why',
  'when',
  'where',
  'who',
  'whom',
  'whose',
  'can',
  'could',
  'should',
  'would',
  'does',
  'do',
  'did',
  'use',
  'tell',
  'explain',
  'describe',
  'give',
  'list',
  'show',
  'me',
  'us',
  'please',
  'i',
  'we',
  'is',
  'are',
  'there',
  'way',
  'ways',
]);

/** Content stems of a text: lower-cased, identifiers split, stop and question words dropped. */
export function contentStems(text: string): string[] {
  return wordsOf(identifierParts(text))
    .filter((word) => !STOPWORDS.has(word) && !QUESTION_WORDS.has(word) && word.length > 1)
    .map(stem);
}
