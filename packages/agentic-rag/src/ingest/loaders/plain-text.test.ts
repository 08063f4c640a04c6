import { describe, expect, it } from 'vitest';
import type { LoadedDocument } from '../document.js';
import { loadPlainText } from './plain-text.js';

const load = (text: string, sourcePath = 'notes/ops-review.txt'): LoadedDocument => {
  const result = loadPlainText({ sourcePath, text });
  expect(result.failures).toEqual([]);
  expect(result.documents).toHaveLength(1);
  return result.documents[0]!;
};
const outline = (document: LoadedDocument) =>
  document.blocks.map((block) => [
    block.type,
    document.text.slice(block.start, block.end),
    block.title ?? null,
  ]);

const NOTES = `OPS REVIEW MEETING

Attendees: Ana, Bo

ACTION ITEMS

Ship the fix by Friday. Then review.

Next steps:

Follow up with the carrier.
And the depot.
`;

describe('loadPlainText', () => {
  const document = load(NOTES);

  it('splits paragraphs at blank lines and turns short all-caps or colon-ended lines into headings', () => {
    expect(outline(document)).toEqual([
      ['heading', 'OPS REVIEW MEETING', 'OPS REVIEW MEETING'],
      ['paragraph', 'Attendees: Ana, Bo', null],
      ['heading', 'ACTION ITEMS', 'ACTION ITEMS'],
      ['paragraph', 'Ship the fix by Friday. Then review.', null],
      ['heading', 'Next steps:', 'Next steps'],
      ['paragraph', 'Follow up with the carrier.\nAnd the depot.', null],
    ]);
    expect(
      document.blocks.filter((block) => block.type === 'heading').every((block) => block.level === 2),
    ).toBe(true);
  });

  it('keeps the text unchanged and takes the first line as title', () => {
    expect(document).toMatchObject({
      sourcePath: 'notes/ops-review.txt',
      sourceFile: 'notes/ops-review.txt',
      kind: 'text',
      title: 'OPS REVIEW MEETING',
      url: null,
      text: NOTES,
      metadata: {},
    });
  });

  it.each([
    ['INCIDENT 2291 - TIMELINE', 'heading'],
    ['Q4 / 2024 (DRAFT):', 'heading'],
    ['Root cause:', 'heading'],
    ['The following carriers are affected:', 'heading'],
    ['Root cause was a full disk.', 'paragraph'],
    ['Deployed v2.4 at 10:30', 'paragraph'],
    ['ALL CAPS BUT ENDING WITH A QUESTION?', 'paragraph'],
    [`${'A'.repeat(81)}`, 'paragraph'],
    ['FIRST LINE\nSECOND LINE', 'paragraph'],
  ])('treats the standalone line %j as a %s', (line, type) => {
    const loaded = load(`Intro.\n\n${line}\n\nBody.\n`);
    expect(loaded.blocks[1]!.type).toBe(type);
  });

  it.each([
    ['a short first line', 'Vendor email import\nFrom: ops@example.test\n\nBody.', 'Vendor email import'],
    ['the first line after leading blank lines', '\n\n  Support FAQ dump  \n\nQ: ...', 'Support FAQ dump'],
    [
      'the file name when the first line is over 100 characters',
      `${'x'.repeat(101)}\n\nBody.`,
      'vendor email import',
    ],
    ['the file name for an empty file', '', 'vendor email import'],
  ])('takes the title from %s', (_case, text, title) => {
    expect(load(text, 'notes/vendor_email-import.txt').title).toBe(title);
  });

  it('gives blocks offsets that slice back to trimmed paragraphs', () => {
    const text = '\n\nFirst paragraph.  \n\nSecond\nparagraph.\n\n\n\nThird.';
    expect(outline(load(text))).toEqual([
      ['paragraph', 'First paragraph.', null],
      ['paragraph', 'Second\nparagraph.', null],
      ['paragraph', 'Third.', null],
    ]);
  });

  it('treats a blank line holding spaces like an empty one', () => {
    const text = 'Intro.\n  \nACTION ITEMS\n \t \nBody.\n';
    expect(outline(load(text))).toEqual([
      ['paragraph', 'Intro.', null],
      ['heading', 'ACTION ITEMS', 'ACTION ITEMS'],
      ['paragraph', 'Body.', null],
    ]);
  });

  it('loads an empty or blank file as a document without blocks', () => {
    expect(load('').blocks).toEqual([]);
    expect(load('\n\n   \n').blocks).toEqual([]);
  });
});
