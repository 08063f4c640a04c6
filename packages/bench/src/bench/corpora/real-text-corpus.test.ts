import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkFileTexts } from './chunk-file.js';
import { manualPages } from './debian-manuals.js';
import { markCopy, writeRealTextCorpus } from './real-text-corpus.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const roots = {
  'postgres-docs': path.join(fixtures, 'postgres-html'),
  'linux-docs': path.join(fixtures, 'linux-rst'),
};
const chunker = { maxTokens: 64, overlapTokens: 8 };

describe('writeRealTextCorpus', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'bench-corpus-test-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes each page as Markdown with the manual sections as headings', async () => {
    const corpus = await writeRealTextCorpus({
      manuals: ['postgres-docs', 'linux-docs'],
      targetChunks: 1,
      directory,
      chunker,
      roots,
    });
    expect(corpus).toMatchObject({ documents: 1, copies: 1 });
    const dump = await readFile(path.join(directory, 'copy-1/postgres-docs/backup-dump.md'), 'utf8');
    expect(dump.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '# SQL Dump',
      '## Restoring the Dump',
      '## Using pg_dumpall',
    ]);
    expect(dump).toContain('pg_dump dbname > dumpfile');
    expect(dump).not.toContain('Prev');
  });

  it('counts chunks as the pipeline chunker makes them and repeats the text, marked, to reach the target', async () => {
    const once = await writeRealTextCorpus({
      manuals: ['postgres-docs', 'linux-docs'],
      targetChunks: 1_000,
      directory,
      chunker,
      roots,
    });
    // Three pages in the fixtures; every copy counts as many chunks as the first pass.
    const perPass = await passChunks(directory);
    expect(once.copies).toBe(Math.ceil(1_000 / perPass));
    expect(once.chunks).toBeGreaterThanOrEqual(1_000);
    expect(once.chunks).toBeLessThan(1_000 + perPass);
    const second = await readFile(path.join(directory, 'copy-2/linux-docs/admin/sysrq.md'), 'utf8');
    expect(second).toContain('# Linux Magic System Request Key (copy 2)');
    expect(once.headings.filter((heading) => heading === 'Command keys')).toHaveLength(1);
    expect(once.headings.some((heading) => heading.includes('(copy'))).toBe(false);
  });
});

async function passChunks(directory: string): Promise<number> {
  const files = [
    'postgres-docs/backup-dump.md',
    'postgres-docs/tutorial-start.md',
    'linux-docs/admin/sysrq.md',
  ];
  let total = 0;
  for (const file of files) {
    total += chunkFileTexts(
      file,
      await readFile(path.join(directory, 'copy-1', file), 'utf8'),
      chunker,
    ).length;
  }
  return total;
}

describe('manualPages', () => {
  it('interleaves the manuals page by page, each in path order', async () => {
    expect(await manualPages(['postgres-docs', 'linux-docs'], roots)).toEqual([
      { manual: 'postgres-docs', page: 'backup-dump.html' },
      { manual: 'linux-docs', page: 'admin/sysrq.rst' },
      { manual: 'postgres-docs', page: 'tutorial-start.html' },
    ]);
  });
});

describe('markCopy', () => {
  it('marks headings, not lines in code fences', () => {
    expect(markCopy('# Title\n\n```\n# a shell comment\n```\n## Part', 3)).toEqual({
      markdown: '# Title (copy 3)\n\n```\n# a shell comment\n```\n## Part (copy 3)',
      headings: ['Title (copy 3)', 'Part (copy 3)'],
    });
  });
});
