import { spawnSync } from 'node:child_process';
import { getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoadedDocument } from '../document.js';
import { loadPdf } from './pdf.js';

/**
 * A real-world PDF, not one drawn run by run: groff's PDF device (gropdf) typesets a man page with
 * its own fonts, kerning, hyphenation, tagged-paragraph option lists, a tbl table, a running head
 * (`TESTCMD(1)  User Commands  TESTCMD(1)`) and a foot ending in the page number. Its section
 * headings are bold and one point larger than the body, and paragraphs are apart by 1.4 lines.
 */
const PARAGRAPHS = 48;
const MAN_PAGE = [
  '.TH TESTCMD 1 "November 2026" "testcmd 1.0" "User Commands"',
  '.SH NAME',
  'testcmd \\- exercise a PDF loader with a real man page',
  '.SH SYNOPSIS',
  '.B testcmd',
  '[\\fIOPTION\\fR]... \\fIFILE\\fR',
  '.SH OPTIONS',
  '.TP',
  '.BR \\-a ", " \\-\\-all',
  'Show every entry, including the ones whose names begin with a dot, and keep going when an entry',
  'cannot be read instead of stopping at the first one that fails.',
  '.TP',
  '.BR \\-q ", " \\-\\-quiet',
  'Print nothing.',
  '.SH FORMATS',
  '.TS',
  'l l l .',
  'Format\tAdded in\tAlso read by',
  'markdown\t1.0\tpandoc',
  'pdf\t1.2',
  'docx\t1.3\tpandoc',
  '.TE',
  '.SH DESCRIPTION',
  ...Array.from({ length: PARAGRAPHS }, (_, index) => [
    '.PP',
    `Paragraph marker${String(index).padStart(2, '0')} describes the incomprehensibilities of`,
    'internationalization, the characteristically counterintuitive behaviour of',
    'implementations, and why administrators reconfigure their installations.',
  ]).flat(),
  '.SH "SEE ALSO"',
  'bash(1)',
].join('\n');

/** gropdf ships in Debian's `groff` package; `groff-base` alone has no PDF device. */
const groff = spawnSync('groff', ['-Tpdf', '-t', '-man'], { input: '.TH X 1\n' });
const canTypeset = groff.status === 0 && groff.stdout.subarray(0, 5).toString() === '%PDF-';

describe.skipIf(!canTypeset)('loadPdf on a man page typeset by groff -Tpdf (needs `groff`)', () => {
  let bytes: Uint8Array;
  let document: LoadedDocument;

  beforeAll(async () => {
    const typeset = spawnSync('groff', ['-Tpdf', '-t', '-man'], { input: MAN_PAGE });
    expect(typeset.status, typeset.stderr.toString()).toBe(0);
    bytes = new Uint8Array(typeset.stdout);
    const { documents, failures } = await loadPdf({ sourcePath: 'man/testcmd.pdf', bytes });
    expect(failures).toEqual([]);
    document = documents[0]!;
  });

  it('makes the section headings headings and names the document after its running head', () => {
    expect(document.title).toBe('TESTCMD(1)');
    expect(document.blocks.filter((block) => block.type === 'heading').map((block) => block.title)).toEqual([
      'NAME',
      'SYNOPSIS',
      'OPTIONS',
      'FORMATS',
      'DESCRIPTION',
      'SEE ALSO',
    ]);
  });

  it('drops the running head and foot of every page', () => {
    expect(document.metadata.page_count).toBeGreaterThanOrEqual(3);
    expect(document.text).not.toContain('User Commands');
    expect(document.text).not.toContain('November 2026');
    expect(document.text).not.toContain('TESTCMD(1)');
  });

  it('keeps option lists as one paragraph per option, and the tbl table as a table', () => {
    expect(document.text).toContain(
      '\n\n-a, --all Show every entry, including the ones whose names begin with a dot, and keep going ' +
        'when an entry cannot be read instead of stopping at the first one that fails.\n\n-q, --quiet Print nothing.\n\n',
    );
    expect(document.text).toContain(
      '| Format | Added in | Also read by |\n| --- | --- | --- |\n| markdown | 1.0 | pandoc |\n' +
        '| pdf | 1.2 |  |\n| docx | 1.3 | pandoc |',
    );
  });

  it('reads every paragraph whole: words neither split at kerning nor left hyphenated', () => {
    const paragraphs = document.text.split('\n\n').filter((text) => text.startsWith('Paragraph marker'));
    expect(paragraphs).toHaveLength(PARAGRAPHS);
    paragraphs.forEach((text, index) =>
      expect(text).toBe(
        `Paragraph marker${String(index).padStart(2, '0')} describes the incomprehensibilities of ` +
          'internationalization, the characteristically counterintuitive behaviour of ' +
          'implementations, and why administrators reconfigure their installations.',
      ),
    );
  });

  it('puts each paragraph on the page pdf.js finds its marker on', async () => {
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    const expected = new Map<string, number>();
    for (let number = 1; number <= pdf.numPages; number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      for (const item of content.items)
        for (const marker of ('str' in item ? item.str : '').match(/marker\d\d/g) ?? [])
          expected.set(marker, number);
    }
    await pdf.loadingTask.destroy();
    expect(expected.size).toBe(PARAGRAPHS);
    const pages = document.pages!;
    const pageAt = (offset: number) => pages.filter((page) => page.start <= offset).at(-1)!.page;
    for (const [marker, page] of expected)
      expect([marker, pageAt(document.text.indexOf(marker))]).toEqual([marker, page]);
    expect(new Set(expected.values()).size).toBeGreaterThanOrEqual(2);
  });
});
