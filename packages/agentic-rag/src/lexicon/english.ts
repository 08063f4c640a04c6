import american from 'dictionary-en';
import british from 'dictionary-en-gb';
import nspell from 'nspell';

/**
 * Whether a word is English as written: Hunspell's American and British dictionaries (SCOWL
 * word lists with their affix rules, so "organisation", "logged" and "typos" are words), read by
 * nspell. A word either accepts is never "corrected" into something else, whatever the corpus
 * holds: "certain" is not a misspelling of "contain" because a corpus says "contain" more often.
 */
export interface EnglishWords {
  isWord(word: string): boolean;
  /** Words either dictionary offers for a misspelling, likeliest first. */
  suggest(word: string): string[];
}

let loaded: EnglishWords | undefined;

/** Both spellers, built once per process on first use (about 0.2 s, 30 MB). */
export function englishWords(): EnglishWords {
  if (loaded) return loaded;
  // The dictionaries hold their files as bytes; nspell's types want Buffers (the same bytes).
  const speller = (dictionary: { aff: Uint8Array; dic: Uint8Array }) =>
    nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) });
  const spellers = [speller(american), speller(british)];
  const memo = new Map<string, boolean>();
  const suggestions = new Map<string, readonly string[]>();
  loaded = {
    isWord(word) {
      const known = memo.get(word);
      if (known !== undefined) return known;
      // Hunspell knows proper-noun capitals ("Paris"); a lower-case question word is looked up
      // as typed and capitalised, as a sentence's first word would be.
      const capitalised = word.charAt(0).toUpperCase() + word.slice(1);
      const answer = spellers.some((speller) => speller.correct(word) || speller.correct(capitalised));
      if (memo.size > 50_000) memo.clear();
      memo.set(word, answer);
      return answer;
    },
    suggest(word) {
      // nspell builds and checks every edit of the word: 5-40 ms a word, the largest cost of
      // understanding a question. The answer depends on the word alone, so it is kept like isWord's.
      const known = suggestions.get(word);
      if (known) return [...known];
      const answer = [...new Set(spellers.flatMap((speller) => speller.suggest(word)))];
      if (suggestions.size > 10_000) suggestions.clear();
      suggestions.set(word, answer);
      return [...answer];
    },
  };
  return loaded;
}
