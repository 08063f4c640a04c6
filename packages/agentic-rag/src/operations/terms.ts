/**
 * How a word of a question and a word of a spec are made to meet in the operation index: a light
 * inflectional stem, so "voids" meets "void", "cancelled" meets "cancel", "warehouses" meets
 * "warehouse" and "creating" meets "create", without the derivational cuts of Porter or Snowball
 * that merge "organization" with "organ" and "general" with "generality". Measured against them
 * and against WordNet lemmas on the dev specs (docs/search.md).
 */
export function operationTerm(word: string): string {
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
