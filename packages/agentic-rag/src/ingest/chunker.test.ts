import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkText, type Chunk } from './chunker.js';
import type { Block } from './document.js';
import { loaderFor, normalizeText, parseMarkdownBlocks } from './loaders/index.js';
import { cl100kTokenizer } from './tokenizer.js';

const tokenizer = cl100kTokenizer();
const count = (text: string) => tokenizer.count(text);
const chunk = (text: string, maxTokens: number, overlapTokens: number, minTokens?: number) =>
  chunkText(text, parseMarkdownBlocks(text), { tokenizer, maxTokens, overlapTokens, minTokens });

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Titles of the headings enclosing `offset`, outermost first (a heading closes every deeper or equal one). */
function trailAt(text: string, blocks: Block[], offset: number): string[] {
  const open: Array<{ level: number; title: string }> = [];
  for (const block of blocks) {
    if (block.start >= offset) break;
    if (block.type !== 'heading') continue;
    const level = block.level ?? 1;
    while (open.length > 0 && open.at(-1)!.level >= level) open.pop();
    open.push({ level, title: block.title ?? text.slice(block.start, block.end).trim() });
  }
  return open.map((heading) => heading.title);
}

interface Budget {
  maxTokens: number;
  overlapTokens: number;
}

/** Every structural promise the chunker makes, as a list of violations (empty when all hold). */
function violations(text: string, blocks: Block[], chunks: Chunk[], { maxTokens, overlapTokens }: Budget) {
  const found: string[] = [];
  const covered = new Uint8Array(text.length);
  const headings = blocks.filter((block) => block.type === 'heading');
  const contentBlocks = blocks.filter(
    (block) => block.type !== 'heading' && text.slice(block.start, block.end).trim(),
  );
  chunks.forEach((current, position) => {
    const fail = (message: string) => found.push(`chunk ${position}: ${message}`);
    if (current.index !== position) fail(`index ${current.index}`);
    if (current.text !== text.slice(current.start, current.end)) fail('text is not source.slice(start, end)');
    if (current.tokenCount !== count(current.text)) fail(`tokenCount ${current.tokenCount} is wrong`);
    if (LONE_SURROGATE.test(current.text)) fail('cuts a surrogate pair');
    const firstContent = contentBlocks.find(
      (block) => block.end > current.start && block.start < current.end,
    );
    if (current.tokenCount > maxTokens) {
      // Documented exception: the headings opening a chunk may push it past maxTokens when the one
      // block under them fits alone.
      const rest = text.slice(firstContent?.start ?? current.end, current.end);
      const startsWithHeading = headings.some((block) => block.start === current.start);
      const blocksInside = contentBlocks.filter(
        (block) => block.end > current.start && block.start < current.end,
      );
      if (!startsWithHeading || blocksInside.length !== 1 || count(rest) > maxTokens) {
        fail(`${current.tokenCount} tokens`);
      }
    }
    if (contentBlocks.length > 0 && current.metadata.blockTypes.every((type) => type === 'heading')) {
      fail(`holds only a heading: ${JSON.stringify(current.text)}`);
    }
    if (firstContent && `${current.sectionPath}` !== `${trailAt(text, blocks, firstContent.start)}`) {
      fail(`sectionPath ${JSON.stringify(current.sectionPath)}`);
    }
    covered.fill(1, current.start, current.end);
    const previous = chunks[position - 1];
    if (!previous) return;
    if (current.start < previous.start) fail('starts before the previous chunk');
    if (current.start >= previous.end) return;
    const shared = count(text.slice(current.start, previous.end));
    if (shared > overlapTokens) fail(`overlap of ${shared} tokens`);
    if (headings.some((block) => block.start >= current.start && block.start < previous.end)) {
      fail('overlap reaches back across a heading');
    }
    const atBlockStart = blocks.some((block) => block.start === current.start);
    const atSentenceOrLine = /(?:[.!?]["')\]]?\s+|\n)$/.test(text.slice(0, current.start));
    if (!atBlockStart && !atSentenceOrLine) fail('overlap starts mid-sentence');
  });
  let uncovered = -1;
  for (let offset = 0; offset < text.length && uncovered < 0; offset++) {
    if (!covered[offset] && /\S/.test(text[offset]!)) uncovered = offset;
  }
  if (uncovered >= 0) found.push(`in no chunk: ${JSON.stringify(text.slice(uncovered, uncovered + 30))}`);
  // Code that fits in one chunk is never split.
  for (const block of contentBlocks) {
    if (block.type !== 'code' || count(text.slice(block.start, block.end)) > maxTokens) continue;
    if (!chunks.some((current) => current.start <= block.start && current.end >= block.end)) {
      found.push(`code block at ${block.start} split although it fits`);
    }
  }
  return found;
}

const join = (length: number, line: (index: number) => string, separator = '\n') =>
  Array.from({ length }, (_, index) => line(index)).join(separator);
const sentence = (index: number) =>
  `Sentence number ${index} explains how the carrier desk escalates late pickups to the regional depot.`;
const prose = (from: number, length: number) => join(length, (index) => sentence(from + index), ' ');
const codeLines = (length: number) =>
  join(length, (index) => `const value${index} = compute(${index}, "x");`);
const fence = (body: string, language = 'ts') => `\`\`\`${language}\n${body}\n\`\`\``;

/** A base64-like run with no spaces (an inlined image, a key): only a mid-word cut can split it. */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BLOB = join(4000, (i) => BASE64[(i * 7919 + (i >> 3)) % 64]!, '');

const INPUTS: Record<string, string> = {
  'markdown with nested headings': `# Guide\n\nIntro.\n\n## Install\n\n${prose(0, 6)}\n\n### Linux\n\n${prose(6, 20)}\n\n## End\n\nDone.\n`,
  'long prose, no headings, one paragraph': prose(0, 60),
  'long prose in paragraphs': join(12, (index) => prose(index * 5, 5), '\n\n'),
  'fenced code block larger than maxTokens': `# Code\n\nBefore.\n\n${fence(codeLines(200))}\n\nAfter the code.\n`,
  'display math larger than maxTokens': `$$\n${join(150, (i) => `x_{${i}} = \\frac{a}{b} + ${i}`)}\n$$\n`,
  'a table': `| id | value |\n| --- | --- |\n${join(80, (i) => `| row ${i} | ${i * 7} |`)}\n`,
  lists: `Steps:\n\n${join(60, (i) => `- item ${i}: ${sentence(i)}`)}\n\n1. one\n2. two\n`,
  // Kept short: BPE on one long repeated-letter word is quadratic in js-tiktoken (5,000 chars: ~2 s a count).
  'one giant word without spaces': 'x'.repeat(1200),
  'a base64-like blob without spaces': BLOB,
  'unicode and emoji without spaces': join(600, (i) => ['🚀', '日本語', 'é', '👩‍👩‍👧'][i % 4]!, ''),
  'unicode and emoji words': join(300, (i) => `🚀🎉 漢字${i} naïve café`, ' '),
  'heading immediately followed by a subheading': '# Guide\n## Install\n### Linux\nRun the installer.\n',
  'small code blocks between prose': join(8, (i) => `${prose(i, 3)}\n\n${fence(codeLines(4), 'sh')}`, '\n\n'),
};

describe.each([
  { maxTokens: 400, overlapTokens: 60 },
  { maxTokens: 120, overlapTokens: 20 },
  { maxTokens: 40, overlapTokens: 10 },
])(
  'chunkText invariants at maxTokens $maxTokens / overlap $overlapTokens',
  ({ maxTokens, overlapTokens }) => {
    it.each(Object.entries(INPUTS))('%s', (_name, text) => {
      const chunks = chunk(text, maxTokens, overlapTokens);
      expect(chunks.length).toBeGreaterThan(0);
      expect(violations(text, parseMarkdownBlocks(text), chunks, { maxTokens, overlapTokens })).toEqual([]);
    });
  },
);

describe('chunkText', () => {
  it('returns no chunks for an empty or blank document', () => {
    expect(chunk('', 400, 60)).toEqual([]);
    expect(chunk('\n\n   \n', 400, 60)).toEqual([]);
  });

  it('records the heading trail of each chunk as sectionPath', () => {
    const text =
      '# Guide\n\nWelcome.\n\n## Install\n\nDownload it.\n\n### Linux\n\nRun the installer.\n\n## Uninstall\n\nDelete it.\n';
    expect(chunk(text, 400, 60, 1).map((current) => [current.text, current.sectionPath])).toEqual([
      ['# Guide\n\nWelcome.', ['Guide']],
      ['## Install\n\nDownload it.', ['Guide', 'Install']],
      ['### Linux\n\nRun the installer.', ['Guide', 'Install', 'Linux']],
      ['## Uninstall\n\nDelete it.', ['Guide', 'Uninstall']],
    ]);
  });

  it('keeps small sections together until minTokens (maxTokens / 4) is reached', () => {
    const text = '# Guide\n\nWelcome.\n\n## Install\n\nDownload it.\n';
    const chunks = chunk(text, 400, 60);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ start: 0, end: text.length - 1, sectionPath: ['Guide'] });
  });

  it('puts a heading followed directly by subheadings in the chunk of the content below them', () => {
    const text = '# Guide\n## Install\n### Linux\nRun the installer.\n';
    expect(chunk(text, 400, 60)).toEqual([
      {
        index: 0,
        text: text.trimEnd(),
        start: 0,
        end: text.length - 1,
        tokenCount: count(text.trimEnd()),
        sectionPath: ['Guide', 'Install', 'Linux'],
        metadata: { blockTypes: ['heading', 'paragraph'] },
      },
    ]);
  });

  it('repeats whole trailing sentences of the previous chunk within the overlap budget', () => {
    const text = prose(0, 12); // 12 sentences of 18 tokens each
    const chunks = chunk(text, 60, 20);
    expect(count(sentence(1))).toBe(18);
    expect(chunks).toHaveLength(6);
    const [first, second] = chunks as [Chunk, Chunk];
    expect(first.text).toBe(`${sentence(0)} ${sentence(1)} ${sentence(2)}`);
    expect(text.slice(second.start, first.end)).toBe(sentence(2));
    expect(second.text).toBe(`${sentence(2)} ${sentence(3)} ${sentence(4)}`);
  });

  it('does not overlap at all when overlapTokens is 0', () => {
    const chunks = chunk(prose(0, 30), 60, 0);
    expect(chunks.slice(1).filter((current, index) => current.start < chunks[index]!.end)).toEqual([]);
  });

  it('never starts an overlap before a heading: a new section starts clean', () => {
    const text = `## One\n\n${prose(0, 4)}\n\n## Two\n\n${prose(4, 4)}\n`;
    const chunks = chunk(text, 80, 30);
    const second = chunks.find((current) => current.text.startsWith('## Two'));
    const previous = chunks[second!.index - 1]!;
    expect(second!.start).toBeGreaterThanOrEqual(previous.end);
  });

  it.each([
    ['## One\n\nFirst.\n\n## Two\n\nSecond.\n', ['Two']],
    ['# Guide\n\nIntro.\n\n### Linux\n\nL.\n\n### macOS\n\nM.\n', ['Guide', 'macOS']],
  ])('gives sibling headings below a skipped level the same parent (%j)', (text, expected) => {
    expect(chunk(text, 400, 60, 1).at(-1)!.sectionPath).toEqual(expected);
  });

  it.each([4, 8])('never splits a fenced code block of %i lines that fits in one chunk', (lines) => {
    const code = fence(codeLines(lines));
    const text = `# Guide\n\n${prose(0, 5)}\n\n${code}\n\nAfter the code.\n`;
    const chunks = chunk(text, 120, 20);
    const start = text.indexOf(code);
    expect(chunks.some((current) => current.start <= start && current.end >= start + code.length)).toBe(true);
    expect(chunks.some((current) => current.metadata.splitAtomicBlock)).toBe(false);
  });

  it('never splits a fenced code block just under maxTokens', () => {
    const code = fence(codeLines(10)); // 114 tokens
    const text = `# Guide\n\nIntro paragraph here.\n\n${code}\n\nAfter the code.\n`;
    const chunks = chunk(text, 120, 20);
    const start = text.indexOf(code);
    expect(chunks.some((current) => current.start <= start && current.end >= start + code.length)).toBe(true);
    expect(chunks.some((current) => current.metadata.splitAtomicBlock)).toBe(false);
  });

  it('cuts an oversized code block only at line boundaries and flags splitAtomicBlock', () => {
    const code = fence(codeLines(60));
    const text = `# Code\n\nBefore.\n\n${code}\n\nAfter.\n`;
    const codeStart = text.indexOf(code);
    const codeEnd = codeStart + code.length;
    const chunks = chunk(text, 120, 20);
    const inCode = chunks.filter((current) => current.start < codeEnd && current.end > codeStart);
    expect(inCode.length).toBeGreaterThan(1);
    for (const current of inCode) {
      expect(current.metadata.splitAtomicBlock).toBe(true);
      expect(current.metadata.blockTypes).toContain('code');
      if (current.start > codeStart) expect(text[current.start - 1]).toBe('\n');
      if (current.end < codeEnd) expect(text[current.end]).toBe('\n');
    }
    expect(inCode[0]!.text).toContain('```ts\nconst value0');
    expect(inCode.at(-1)!.text).toContain('const value59 = compute(59, "x");\n```');
  });

  it('cuts a run without spaces into consecutive pieces that rebuild it', () => {
    const chunks = chunk(BLOB, 120, 20);
    expect(chunks.length).toBeGreaterThan(count(BLOB) / 120);
    expect(chunks.map((current) => current.text).join('')).toBe(BLOB);
    expect(chunks.every((current) => current.tokenCount <= 120 && current.tokenCount > 60)).toBe(true);
  });

  it('lets the headings opening a chunk push it past maxTokens only when the block under them fits alone', () => {
    const trail = '## Changelog\n\n### 2025-01-13 (latest release, spec 2.4.0, breaking changes)';
    const code = fence(codeLines(10));
    const text = `${trail}\n\n${code}\n\n${prose(5, 3)}\n`;
    expect([count(trail), count(code)]).toEqual([27, 114]);
    const chunks = chunk(text, 120, 20);
    expect(chunks[0]!.text).toBe(`${trail}\n\n${code}`);
    expect(chunks[0]!.tokenCount).toBe(141);
    expect(chunks[0]!.metadata.splitAtomicBlock).toBeUndefined();
    expect(chunks.slice(1).every((current) => current.tokenCount <= 120)).toBe(true);
  });

  it('keeps maxTokens when blank lines between paragraphs hold spaces', () => {
    const text = join(60, (index) => `Step ${index} is done.`, '\n  \n\n  \n\n');
    const chunks = chunk(text, 120, 20);
    expect(Math.max(...chunks.map((current) => current.tokenCount))).toBeLessThanOrEqual(120);
  });

  it('does not emit a trailing heading as a chunk of its own', () => {
    const text = `# Guide\n\n${prose(0, 5)}\n\n## See also\n`;
    const chunks = chunk(text, 120, 20);
    expect(chunks.map((current) => current.metadata.blockTypes)).not.toContainEqual(['heading']);
    expect(chunks.at(-1)!.text.endsWith('## See also')).toBe(true);
  });
});

const CORPUS = fileURLToPath(new URL('../../../../simulated_ingestion', import.meta.url));
const CORPUS_FILES = existsSync(CORPUS)
  ? readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
      .filter((file) => statSync(path.join(CORPUS, file)).isFile())
      .map((file) => file.split(path.sep).join('/'))
      .sort()
  : [];

describe.skipIf(CORPUS_FILES.length === 0).each([
  { maxTokens: 400, overlapTokens: 60 },
  { maxTokens: 120, overlapTokens: 20 },
])('chunkText over simulated_ingestion at maxTokens $maxTokens / overlap $overlapTokens', (budget) => {
  it.each(CORPUS_FILES)('%s', (file) => {
    const loader = loaderFor(file);
    expect(loader, `no loader for ${file}`).toBeDefined();
    const text = normalizeText(readFileSync(path.join(CORPUS, file), 'utf8'));
    const result = loader!({ sourcePath: file, text });
    expect(result.documents.length).toBeGreaterThan(0);
    for (const document of result.documents) {
      const chunks = chunkText(document.text, document.blocks, { tokenizer, ...budget });
      expect(chunks.length, document.sourcePath).toBeGreaterThan(0);
      expect(violations(document.text, document.blocks, chunks, budget), document.sourcePath).toEqual([]);
    }
  });
});
