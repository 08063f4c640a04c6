import { seededRandom } from '@agentic-rag/core/testing';

/**
 * Search queries for a real-text corpus, drawn from its section headings: what a reader types is
 * close to a heading ("Continuous Archiving and Point-in-Time Recovery", "Logging HOWTO"), and
 * every heading has a section that answers it. Deterministic for a seed: the same headings give the
 * same queries in the same order. Headings of one or two characters, numbers only, or generic
 * ones ("Notes", "Examples") are left out; duplicates count once. When there are fewer usable
 * headings than `count`, the list repeats.
 */
export function sampleHeadingQueries(headings: readonly string[], count: number, seed = 12345): string[] {
  const usable = [...new Set(headings.map(cleanQuery))].filter(isUsableQuery);
  if (usable.length === 0 || count <= 0) return [];
  const next = seededRandom(seed);
  // Fisher-Yates over the whole list, so any prefix of the result is a uniform sample.
  for (let index = usable.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [usable[index], usable[other]] = [usable[other]!, usable[index]!];
  }
  return Array.from({ length: count }, (_, index) => usable[index % usable.length]!);
}

const GENERIC = new Set([
  'description', 'example', 'examples', 'note', 'notes', 'see also', 'synopsis', 'options',
  'parameters', 'compatibility', 'introduction', 'overview', 'contents', 'table of contents',
  'footnotes', 'references', 'summary', 'usage', 'outputs', 'environment', 'diagnostics',
  'files', 'authors', 'author', 'todo', 'index', 'license', 'copyright', 'history',
]); // prettier-ignore

/** A heading as a query: no copy marker, permalink sign, numbering or trailing punctuation. */
export function cleanQuery(heading: string): string {
  return heading
    .replace(/\s*\(copy \d+\)\s*$/, '')
    .replace(/[¶#]/g, ' ')
    .replace(/^(?:[\dA-Z]+\.)+\d*\.?\s+/, '')
    .replace(/[\s:;,.]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function isUsableQuery(query: string): boolean {
  if (query.length < 3 || !/[a-z]{2}/i.test(query)) return false;
  return !GENERIC.has(query.toLowerCase());
}
