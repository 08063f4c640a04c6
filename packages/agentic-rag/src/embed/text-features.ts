/**
 * Words of a text for the offline embedder: lower case, accents folded, split on anything that
 * is not a letter or digit (numbers keep their dots: "3.2"). Split identifiers first with
 * identifierParts() if "createLocation" should read as "create location".
 */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[a-z]+|\d+(?:\.\d+)*/g) ?? []
  );
}

/** "createLocation" -> "create Location", "rate_card" -> "rate card". */
export function identifierParts(text: string): string {
  return text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how ' +
    'i if in into is it its itself just me more most my no nor not of off on once only or other our ours out over own ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under ' +
    'until up very was we were what when where which while who whom why will with would you your yours'
  ).split(' '),
);

/**
 * Conservative suffix stripping, then a final silent "e": "update", "updates", "updated" and
 * "updating" all become "updat"; "services" and "service" become "servic". A stem only has to be
 * the same for inflections of one word, not readable.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  return dropFinalE(stripSuffix(word));
}

function stripSuffix(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (/(?:ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

function dropFinalE(word: string): string {
  return word.length > 4 && word.endsWith('e') ? word.slice(0, -1) : word;
}

/** "mapped" -> "mapp" -> "map"; "modelling" -> "modell" -> "model". */
function undouble(word: string): string {
  return /([bdfglmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}
