import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { parseJsonLines } from './json-lines.js';

export const GOLDEN_CATEGORIES = [
  'endpoint',
  'schema',
  'error',
  'entity',
  'multi-hop',
  'expert',
  'typo',
  'general',
  'out-of-corpus',
] as const;
export type GoldenCategory = (typeof GOLDEN_CATEGORIES)[number];

const line = z
  .object({
    id: z.string().min(1),
    category: z.enum(GOLDEN_CATEGORIES),
    question: z.string().trim().min(3),
    /** Document ids (source paths) holding the answer; a path without `#` stands for every document of that file. */
    expected_sources: z.array(z.string().min(1)).default([]),
    /** Short strings a correct answer contains, matched case-insensitively. */
    expected_facts: z.array(z.string().min(1)).default([]),
    must_refuse: z.boolean().default(false),
    /** One of the endpoint questions whose first retrieved source is scored for precision. */
    precision_set: z.boolean().default(false),
  })
  .strict();

export interface GoldenEntry {
  id: string;
  category: GoldenCategory;
  question: string;
  expectedSources: string[];
  expectedFacts: string[];
  mustRefuse: boolean;
  precisionSet: boolean;
}

/**
 * A golden set: JSON lines, one question each. Every problem is reported with its line number,
 * all at once, so a hand-edited file can be fixed in one pass.
 */
export async function loadGoldenDataset(file: string): Promise<GoldenEntry[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RagError(
      ErrorCode.NOT_FOUND,
      `cannot read the golden set ${file}: ${error.code ?? error.message}`,
    );
  });
  return parseGoldenDataset(text, file);
}

export function parseGoldenDataset(text: string, name = 'golden set'): GoldenEntry[] {
  const rows = parseJsonLines(text, name, 'golden set', line, (entry, at) =>
    entry.must_refuse !== (entry.category === 'out-of-corpus')
      ? `${at}: must_refuse is true exactly for out-of-corpus questions`
      : !entry.must_refuse && entry.expected_sources.length === 0
        ? `${at}: an answerable question needs expected_sources`
        : null,
  );
  const entries: GoldenEntry[] = rows.map((entry) => ({
    id: entry.id,
    category: entry.category,
    question: entry.question,
    expectedSources: entry.expected_sources,
    expectedFacts: entry.expected_facts,
    mustRefuse: entry.must_refuse,
    precisionSet: entry.precision_set,
  }));
  if (entries.length === 0) throw new RagError(ErrorCode.INVALID_INPUT, `${name} holds no questions`);
  return entries;
}
