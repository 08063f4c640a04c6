import { describe, expect, it } from 'vitest';
import type { LoadedDocument } from '../document.js';
import { redactSecrets } from './scanner.js';
import { screenDocument } from './screen.js';

const TOKEN = 'ghp_rfl7j0ohS980tewKstNADaGOWdaALTHz3KN6';
const HEADING = '# Release\n\n';
const PARAGRAPH = `Run the script with GITHUB_TOKEN=${TOKEN} set.\n\n`;
const TAIL = 'Then tag the release.';

const document = (): LoadedDocument => ({
  sourcePath: 'docs/release.md',
  sourceFile: 'docs/release.md',
  kind: 'markdown',
  title: 'Release',
  url: null,
  text: HEADING + PARAGRAPH + TAIL,
  blocks: [
    { type: 'heading', start: 0, end: HEADING.length - 2, level: 1, title: 'Release' },
    { type: 'paragraph', start: HEADING.length, end: HEADING.length + PARAGRAPH.length - 2 },
    { type: 'paragraph', start: HEADING.length + PARAGRAPH.length, end: (HEADING + PARAGRAPH + TAIL).length },
  ],
  metadata: { front: { deploy_token: TOKEN }, tags: ['ops'] },
});

describe('screenDocument', () => {
  it('redacts text and metadata strings and keeps every block on the same words', async () => {
    const screened = await screenDocument(document(), 'redact');
    expect(screened.outcome).toBe('redacted');
    if (screened.outcome !== 'redacted') return;
    const { text, blocks, metadata } = screened.document;
    expect(text).toBe(`${HEADING}Run the script with GITHUB_TOKEN=[REDACTED:github] set.\n\n${TAIL}`);
    expect(blocks.map((block) => text.slice(block.start, block.end))).toEqual([
      '# Release',
      'Run the script with GITHUB_TOKEN=[REDACTED:github] set.',
      TAIL,
    ]);
    expect(metadata).toEqual({
      front: { deploy_token: '[REDACTED:github]' },
      tags: ['ops'],
      redactions: [{ rule: 'github', count: 2 }],
    });
    expect(screened.redactions).toEqual([{ rule: 'github', count: 2 }]);
  });

  it('moves the page starts of a paged document with the text', async () => {
    const tailAt = HEADING.length + PARAGRAPH.length;
    const paged = {
      ...document(),
      pages: [
        { page: 1, start: 0 },
        { page: 2, start: tailAt },
      ],
    };
    const screened = await screenDocument(paged, 'redact');
    if (screened.outcome !== 'redacted') throw new Error(`expected a redaction, got ${screened.outcome}`);
    const { text, pages } = screened.document;
    expect(pages).toEqual([
      { page: 1, start: 0 },
      { page: 2, start: text.indexOf(TAIL) },
    ]);
    expect(pages![1]!.start).toBeLessThan(tailAt);
  });

  it.each([
    ['refuse', { outcome: 'refused', rules: ['github'] }],
    ['off', { outcome: 'clean', document: document() }],
  ] as const)('in %s mode gives %o', async (mode, expected) => {
    expect(await screenDocument(document(), mode)).toEqual(expected);
  });

  it('passes a clean document through untouched', async () => {
    const clean = { ...document(), text: TAIL, blocks: [], metadata: {} };
    expect(await screenDocument(clean, 'redact')).toEqual({ outcome: 'clean', document: clean });
  });
});

describe('redactSecrets', () => {
  it('merges overlapping findings into one cut and maps offsets around it', () => {
    const text = 'a SECRET-VALUE b';
    const redacted = redactSecrets(text, [
      { rule: 'one', start: 2, end: 14 },
      { rule: 'two', start: 4, end: 10 },
    ]);
    expect(redacted.text).toBe('a [REDACTED:one] b');
    expect(redacted.redactions).toEqual([{ rule: 'one', count: 1 }]);
    expect(redacted.mapOffset(1, 'start')).toBe(1);
    expect(redacted.mapOffset(6, 'start')).toBe(2);
    expect(redacted.mapOffset(6, 'end')).toBe(16);
    expect(redacted.mapOffset(15, 'start')).toBe(17);
  });
});
