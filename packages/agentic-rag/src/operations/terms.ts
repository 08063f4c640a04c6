import { lemmas } from '../lexicon/index.js';

/**
 * How a word of a question and a word of a spec are made to meet in the operation index: its
 * WordNet base form (`deletes` → delete, `repositories` → repository, `logged` → log), as a noun
 * first, then as a verb; a word WordNet lacks (`webhooks`, `gitignores`) gets a light
 * inflectional stem instead. Lemmas never merge different words the way a stemmer's
 * derivational cuts do ("organization" and "organ", "general" and "generality"). On the dev specs
 * they found the asked-for operation first for three questions more than this light stem alone,
 * and two more than Porter or Snowball (docs/search.md).
 */
export function operationTerm(word: string): string {
  const lower = word.toLowerCase();
  const known = memo.get(lower);
  if (known !== undefined) return known;
  const term = /^[a-z]+$/.test(lower)
    ? (lemmas(lower, 'noun')[0] ?? lemmas(lower, 'verb')[0] ?? lightStem(lower))
    : lightStem(lower);
  if (memo.size > 100_000) memo.clear();
  memo.set(lower, term);
  return term;
}

const memo = new Map<string, string>();

/** Plural and -ed/-ing endings off: "voids" → void, "cancelled" → cancel, "creating" → creat. */
export function lightStem(word: string): string {
  let stemmed = word.toLowerCase();
  if (stemmed.length <= 3) return stemmed;
  if (/ies$/.test(stemmed) && stemmed.length > 4) stemmed = `${stemmed.slice(0, -3)}y`;
  else if (/(?:ss|us|is)$/.test(stemmed)) return stemmed;
  else if (/(?:sses|shes|ches|xes|zes)$/.test(stemmed)) stemmed = stemmed.slice(0, -2);
  else if (/s$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  if (/ing$/.test(stemmed) && stemmed.length > 5) stemmed = stemmed.slice(0, -3);
  else if (/ed$/.test(stemmed) && stemmed.length > 4) stemmed = stemmed.slice(0, -2);
  if (/([bdfglmnprt])\1$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  return stemmed.replace(/e$/, '');
}
