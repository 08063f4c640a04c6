import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '@agentic-rag/core/testing';
import { weightedPicker } from './weighted-pick.js';

const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa qu den tor lin mar sol ver gan hul bri'.split(' ');

export interface SyntheticCorpusOptions {
  directory: string;
  documents: number;
  sectionsPerDocument: number;
  wordsPerSection: number;
  seed?: number;
}

/**
 * Writes Markdown files with a Zipf-like vocabulary, headings and paragraphs, shaped so that each
 * section becomes about one chunk at the default chunk size.
 */
export async function writeSyntheticCorpus(options: SyntheticCorpusOptions): Promise<void> {
  const next = seededRandom(options.seed ?? 42);
  const vocabulary = Array.from({ length: 3000 }, (_, index) => {
    let word = '';
    for (let part = 0; part < 2 + (index % 3); part++)
      word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    return word;
  });
  // Zipf: the word of rank r is drawn with probability ~ 1/r.
  const pick = weightedPicker(
    vocabulary.map((_, rank) => 1 / (rank + 1)),
    next,
  );
  const word = () => vocabulary[pick()]!;
  const sentence = (length: number) => {
    const words = Array.from({ length }, word);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };

  await mkdir(options.directory, { recursive: true });
  const perFolder = 200;
  for (let document = 0; document < options.documents; document++) {
    const folder = path.join(
      options.directory,
      `part-${String(Math.floor(document / perFolder)).padStart(3, '0')}`,
    );
    if (document % perFolder === 0) await mkdir(folder, { recursive: true });
    const lines = [`# Document ${document}: ${word()} ${word()}`, ''];
    for (let section = 0; section < options.sectionsPerDocument; section++) {
      lines.push(`## ${section + 1}. ${word()} ${word()}`, '');
      let written = 0;
      while (written < options.wordsPerSection) {
        const paragraph: string[] = [];
        for (let count = 0; count < 5 && written < options.wordsPerSection; count++) {
          const length = 8 + Math.floor(next() * 12);
          paragraph.push(sentence(length));
          written += length;
        }
        lines.push(paragraph.join(' '), '');
      }
    }
    await writeFile(path.join(folder, `doc-${document}.md`), lines.join('\n'));
  }
}
