import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Queries of 3-5 words drawn from random sections of the Zipf corpus, so each has answers. The
 * Zipf corpus has no meaningful headings, so its queries come from its text (as they always have).
 */
export async function sampleZipfQueries(corpus: string, count: number): Promise<string[]> {
  const folders = (await readdir(corpus)).sort();
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const queries: string[] = [];
  while (queries.length < count) {
    const folder = folders[Math.floor(next() * folders.length)]!;
    const files = (await readdir(path.join(corpus, folder))).sort();
    const text = await readFile(path.join(corpus, folder, files[Math.floor(next() * files.length)]!), 'utf8');
    const words = text
      .replace(/[#.:\d]/g, ' ')
      .split(/\s+/)
      .filter((word) => word.length > 3);
    const start = Math.floor(next() * Math.max(1, words.length - 5));
    queries.push(words.slice(start, start + 3 + Math.floor(next() * 3)).join(' '));
  }
  return queries;
}
