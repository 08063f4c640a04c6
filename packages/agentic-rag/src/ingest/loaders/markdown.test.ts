import { describe, expect, it } from 'vitest';
import type { Block } from '../document.js';
import { parseMarkdownBlocks, stripInlineMarkup } from './markdown-blocks.js';
import { loadMarkdown } from './markdown.js';
import { normalizeText } from './normalize.js';

/** Blocks with the text they cover, which is what a reader of a chunk sees. */
const described = (text: string, blocks: Block[]) =>
  blocks.map((block) => ({ ...block, text: text.slice(block.start, block.end) }));
const load = (text: string, sourcePath = 'guides/rate-shopping.md') => {
  const result = loadMarkdown({ sourcePath, text });
  expect(result.failures).toEqual([]);
  expect(result.documents).toHaveLength(1);
  return result.documents[0]!;
};

describe('loadMarkdown', () => {
  it('takes title and url from front matter, keeps the rest as metadata and indexes blocks into the body', () => {
    const text =
      '---\ntitle: Rate shopping\nurl: https://docs.example/rates\ntags: [rates, carriers]\nowner: ops\n---\n# Heading\n\nBody text.\n';
    const document = load(text);
    expect(document).toMatchObject({
      sourcePath: 'guides/rate-shopping.md',
      sourceFile: 'guides/rate-shopping.md',
      kind: 'markdown',
      title: 'Rate shopping',
      url: 'https://docs.example/rates',
      text: '# Heading\n\nBody text.\n',
      metadata: { tags: ['rates', 'carriers'], owner: 'ops' },
    });
    expect(described(document.text, document.blocks)).toEqual([
      { type: 'heading', start: 0, end: 9, level: 1, title: 'Heading', text: '# Heading' },
      { type: 'paragraph', start: 11, end: 21, text: 'Body text.' },
    ]);
  });

  it.each([
    [
      'the first level-1 heading',
      '## Before\n\nx\n\n# Rate **shopping** guide\n\n# Second\n',
      'Rate shopping guide',
    ],
    ['a setext level-1 heading', 'Rate shopping\n=============\n\nText.\n', 'Rate shopping'],
    ['the file name when there is no level-1 heading', 'Just text.\n\n## Sub\n\nMore.\n', 'rate shopping'],
    ['front matter over the H1', '---\ntitle: From front matter\n---\n# From heading\n', 'From front matter'],
    [
      'the H1 when the front matter title is not a string',
      '---\ntitle: 2024\n---\n# From heading\n',
      'From heading',
    ],
  ])('takes the title from %s', (_case, text, title) => {
    expect(load(text).title).toBe(title);
  });

  it.each([
    ['guides/address_validation-guide.md', 'address validation guide'],
    ['README.markdown', 'README'],
    ['a/b/c/v2.1-release.mdx', 'v2.1 release'],
  ])('derives a fallback title from the file name %s', (sourcePath, title) => {
    expect(load('No heading here.\n', sourcePath).title).toBe(title);
  });

  it('keeps a document that opens with a horizontal rule as text (the "front matter" is not a mapping)', () => {
    const text = '---\n\nA document starting with a rule.\n\n---\n\nMore.\n';
    const document = load(text, 'x.md');
    expect(document.text).toBe(text);
    expect(document.metadata).toEqual({});
    expect(document.title).toBe('x');
  });

  it('keeps invalid YAML front matter as text instead of failing', () => {
    const text = '---\ntitle: [unclosed\n---\nBody.\n';
    const document = load(text);
    expect(document.text).toBe(text);
    expect(document.title).toBe('rate shopping');
  });

  it('sees front matter after normalizeText removes a BOM and CRLF line ends', () => {
    const document = load(normalizeText('\uFEFF---\r\ntitle: Windows file\r\n---\r\nBody.\r\n'));
    expect([document.title, document.text]).toEqual(['Windows file', 'Body.\n']);
  });
});

describe('parseMarkdownBlocks', () => {
  it('keeps a fenced code block whole, even with blank lines and # lines inside', () => {
    const text = 'Intro.\n\n```ts\nconst a = 1;\n\n# not a heading\n| not | a table |\n```\n\nAfter.\n';
    expect(described(text, parseMarkdownBlocks(text))).toEqual([
      { type: 'paragraph', start: 0, end: 6, text: 'Intro.' },
      {
        type: 'code',
        start: 8,
        end: 65,
        text: '```ts\nconst a = 1;\n\n# not a heading\n| not | a table |\n```',
      },
      { type: 'paragraph', start: 67, end: 73, text: 'After.' },
    ]);
  });

  it.each([
    ['tilde fence', '~~~\na\n\nb\n~~~', 'code'],
    ['longer closing fence', '````md\n```\ninner\n```\n````', 'code'],
    ['unclosed fence runs to the end', '```\na\n\n# b', 'code'],
    ['display math with blank lines', '$$\nx = 1\n\n# y\n$$', 'math'],
    ['one-line display math', '$$ E = mc^2 $$', 'math'],
  ])('keeps a %s as one block', (_case, text, type) => {
    expect(parseMarkdownBlocks(text)).toEqual([{ type, start: 0, end: text.length }]);
  });

  it.each([
    ['# Title', 1, 'Title'],
    ['### Deep ###', 3, 'Deep'],
    ['   ## Indented', 2, 'Indented'],
    ['## `createLocation` and **bold** [link](https://x.test)', 2, 'createLocation and bold link'],
    ['Title\n=====', 1, 'Title'],
    ['Section\n---', 2, 'Section'],
  ])('reads heading %j as level %i titled %j', (text, level, title) => {
    expect(parseMarkdownBlocks(text)).toEqual([
      { type: 'heading', start: 0, end: text.length, level, title },
    ]);
  });

  it.each([
    ['#hashtag', 'paragraph'],
    ['####### seven', 'paragraph'],
    ['- item\n---', 'list'], // a list item is never a setext heading
  ])('does not read %j as a heading', (text, type) => {
    expect(parseMarkdownBlocks(text)[0]!.type).toBe(type);
  });

  it('does not turn the last line of a multi-line paragraph into a setext heading', () => {
    const text = 'line one\nline two\n---';
    expect(parseMarkdownBlocks(text).map((block) => block.type)).not.toContain('heading');
  });

  it('groups tables, lists (with continuation lines) and paragraphs', () => {
    const text =
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n  continued\n1. first\n\nPlain\nwrapped.\n';
    expect(described(text, parseMarkdownBlocks(text))).toEqual([
      { type: 'table', start: 0, end: 29, text: '| a | b |\n|---|---|\n| 1 | 2 |' },
      { type: 'list', start: 31, end: 63, text: '- one\n- two\n  continued\n1. first' },
      { type: 'paragraph', start: 65, end: 79, text: 'Plain\nwrapped.' },
    ]);
  });

  it('returns no blocks for blank text', () => {
    expect(parseMarkdownBlocks('')).toEqual([]);
    expect(parseMarkdownBlocks('\n  \n\t\n')).toEqual([]);
  });
});

describe('stripInlineMarkup', () => {
  it.each([
    ['**Bold** and _em_', 'Bold and em'],
    ['Use `POST /locations`', 'Use POST /locations'],
    ['See [the guide](https://x.test/g) now', 'See the guide now'],
    ['![logo](logo.png) Northwind', 'logo Northwind'],
    ['  many   spaces  ', 'many spaces'],
  ])('%j -> %j', (input, output) => {
    expect(stripInlineMarkup(input)).toBe(output);
  });
});
