import { englishWords } from './english.js';
import { inWordNet } from './wordnet.js';

/**
 * Reads the dictionaries and WordNet's files now (about half a second, once per process) rather
 * than during a user's first question. A service calls it before it says it is ready; a command
 * or a test that asks few questions lets the first question pay instead.
 */
export function warmLexicon(): void {
  englishWords().isWord('warm');
  inWordNet('warm');
}
