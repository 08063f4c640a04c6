import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import { loadDocx } from './docx.js';

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
});
