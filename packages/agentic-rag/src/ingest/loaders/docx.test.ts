import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import { docxLoader, loadDocx } from './docx.js';
import { DEFAULT_DOCUMENT_LIMITS } from './limits.js';
import { docxBomb } from './zip-bomb.test-support.js';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

async function handbook(): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Chapter 5: Demand', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: '5.1 Statistics', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('Table 5.1: Demand statistics per item.'),
          new Table({
            rows: [
              new TableRow({ children: [cell('Item'), cell('Mean')] }),
              new TableRow({ children: [cell('Widget'), cell('12.5')] }),
            ],
          }),
          new Paragraph('Demand is seasonal.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

describe('loadDocx', () => {
  it('keeps headings and tables', async () => {
    const { documents, failures } = await loadDocx({
      sourcePath: 'notes/demand.docx',
      bytes: await handbook(),
    });
    expect(failures).toEqual([]);
    const [document] = documents;
    expect(document).toMatchObject({ kind: 'docx', metadata: { format: 'docx' } });
    expect(document!.blocks.filter((block) => block.type === 'heading').map((block) => block.title)).toEqual([
      'Chapter 5: Demand',
      '5.1 Statistics',
    ]);
    const table = document!.blocks.find((block) => block.type === 'table');
    expect(document!.text.slice(table!.start, table!.end)).toMatch(
      /\| *Item *\| *Mean *\|[\s\S]*\| *Widget *\| *12\.5 *\|/,
    );
    expect(document!.pages).toBeUndefined();
  });

  it('refuses a file that is not a .docx with PARSE_FAILED', async () => {
    const loaded = await loadDocx({ sourcePath: 'bad.docx', bytes: new TextEncoder().encode('plain text') });
    expect(loaded.failures).toEqual([
      {
        sourcePath: 'bad.docx',
        code: ErrorCode.PARSE_FAILED,
        message: expect.stringMatching(/^not a readable \.docx/),
      },
    ]);
  });

  it('refuses a zip bomb from its directory, before anything inflates it', async () => {
    // ~0.6 MB that inflates to 600 MB of Word XML.
    const bytes = docxBomb(600_000_000);
    expect(bytes.length).toBeLessThan(700_000);
    const loaded = await loadDocx({ sourcePath: 'bomb.docx', bytes });
    expect(loaded.documents).toEqual([]);
    expect(loaded.failures).toEqual([
      {
        sourcePath: 'bomb.docx',
        code: ErrorCode.FILE_TOO_LARGE,
        message: `archive refused before unpacking: its XML unpacks to more than ${DEFAULT_DOCUMENT_LIMITS.maxUnpackedBytes} bytes (the limit)`,
      },
    ]);
  });

  it('stops a bomb that lies about its size at the first byte past what it declared', async () => {
    const loaded = await loadDocx({ sourcePath: 'liar.docx', bytes: docxBomb(600_000_000, 4096) });
    expect(loaded.failures).toEqual([
      {
        sourcePath: 'liar.docx',
        code: ErrorCode.FILE_TOO_LARGE,
        message:
          'archive refused before unpacking: word/document.xml unpacks to more than its archive declares',
      },
    ]);
  });

  it('reads the same construction within the limits, and refuses it past lowered ones', async () => {
    const bytes = docxBomb(300_000);
    const read = await loadDocx({ sourcePath: 'fine.docx', bytes });
    expect(read.failures).toEqual([]);
    expect(read.documents[0]!.text).toContain('bomb');
    const strict = docxLoader({ ...DEFAULT_DOCUMENT_LIMITS, maxUnpackedBytes: 200_000 });
    expect((await strict({ sourcePath: 'fine.docx', bytes })).failures[0]?.code).toBe(
      ErrorCode.FILE_TOO_LARGE,
    );
    const few = docxLoader({ ...DEFAULT_DOCUMENT_LIMITS, maxArchiveEntries: 2 });
    expect((await few({ sourcePath: 'fine.docx', bytes })).failures[0]).toMatchObject({
      code: ErrorCode.FILE_TOO_LARGE,
      message: 'archive refused before unpacking: 3 entries; the limit is 2',
    });
  });
});
