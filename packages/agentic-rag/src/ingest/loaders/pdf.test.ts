import { PDFDocument, PDFHexString, PDFName, PDFNull, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import { loadPdf, pdfLoader } from './pdf.js';
import { DEFAULT_DOCUMENT_LIMITS } from './limits.js';
import { writePdf } from './pdf-writer.test-support.js';

/** A PDF whose trailer says it is encrypted with a password the empty one does not open. */
async function encryptedPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document
    .addPage()
    .drawText('secret text', { x: 72, y: 700, font: await document.embedFont(StandardFonts.Helvetica) });
  const { context } = document;
  context.trailerInfo.Encrypt = context.register(
    context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      Length: 40,
      P: -4,
      O: PDFHexString.of('00'.repeat(32)),
      U: PDFHexString.of('11'.repeat(32)),
    }),
  );
  context.trailerInfo.ID = context.obj([PDFHexString.of('ab'.repeat(16)), PDFHexString.of('ab'.repeat(16))]);
  return document.save({ useObjectStreams: false });
}

/** Adds a one-level outline (bookmarks) whose entries point at the given 0-based pages. */
async function withOutline(
  bytes: Uint8Array,
  entries: ReadonlyArray<{ title: string; page: number }>,
): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes);
  const { context } = document;
  const root = context.nextRef();
  const refs = entries.map(() => context.nextRef());
  entries.forEach((entry, index) => {
    context.assign(
      refs[index]!,
      context.obj({
        Title: PDFHexString.fromText(entry.title),
        Parent: root,
        Dest: [document.getPage(entry.page).ref, 'XYZ', PDFNull, PDFNull, PDFNull],
        ...(index > 0 ? { Prev: refs[index - 1]! } : {}),
        ...(index < refs.length - 1 ? { Next: refs[index + 1]! } : {}),
      }),
    );
  });
  context.assign(
    root,
    context.obj({ Type: 'Outlines', First: refs[0]!, Last: refs.at(-1)!, Count: refs.length }),
  );
  document.catalog.set(PDFName.of('Outlines'), root);
  return document.save();
}

describe('loadPdf', () => {
  it('reads text in order with headings, the PDF title and where each page starts', async () => {
    const bytes = await writePdf(
      [
        [
          { text: 'Chapter 3: Inventory Control', y: 720, size: 20, font: 'bold' },
          { text: 'Stock is reviewed every morning before the trucks leave the depot.', y: 690 },
          { text: '1', x: 300, y: 40, size: 9 },
        ],
        [
          { text: '3.1 Reorder Points', y: 720, size: 14, font: 'bold' },
          { text: 'A reorder point is the stock level that triggers an order.', y: 690 },
          { text: '2', x: 300, y: 40, size: 9 },
        ],
      ],
      'Inventory Handbook',
    );
    const { documents, failures } = await loadPdf({ sourcePath: 'books/handbook.pdf', bytes });
    expect(failures).toEqual([]);
    const [document] = documents;
    expect(document).toMatchObject({
      sourcePath: 'books/handbook.pdf',
      kind: 'pdf',
      title: 'Inventory Handbook',
      metadata: { format: 'pdf', page_count: 2 },
    });
    expect(document!.text).toBe(
      '# Chapter 3: Inventory Control\n\nStock is reviewed every morning before the trucks leave the depot.\n\n' +
        '## 3.1 Reorder Points\n\nA reorder point is the stock level that triggers an order.\n',
    );
    expect(document!.pages).toEqual([
      { page: 1, start: 0 },
      { page: 2, start: document!.text.indexOf('## 3.1') },
    ]);
    expect(document!.blocks.filter((block) => block.type === 'heading').map((block) => block.title)).toEqual([
      'Chapter 3: Inventory Control',
      '3.1 Reorder Points',
    ]);
  });

  it('takes headings from the outline where type size does not tell', async () => {
    const body = 'Every line of this document is set in the same type, headings included.';
    const bytes = await withOutline(
      await writePdf([
        [
          { text: 'Reorder Points', y: 720 },
          { text: body, y: 690 },
        ],
        [
          { text: 'Safety Stock', y: 720 },
          { text: body, y: 690 },
        ],
      ]),
      [
        { title: 'Reorder Points', page: 0 },
        { title: 'Safety Stock', page: 1 },
      ],
    );
    const [document] = (await loadPdf({ sourcePath: 'plain.pdf', bytes })).documents;
    expect(document!.text).toBe(`# Reorder Points\n\n${body}\n\n# Safety Stock\n\n${body}\n`);
  });

  it.each([
    {
      name: 'a file that is not a PDF',
      bytes: async () => new TextEncoder().encode('%PDF-1.7 then nothing but noise'),
      code: ErrorCode.PARSE_FAILED,
    },
    { name: 'a password-protected PDF', bytes: encryptedPdf, code: ErrorCode.DOCUMENT_ENCRYPTED },
    {
      name: 'a PDF without a text layer',
      bytes: async () => writePdf([[]]),
      code: ErrorCode.PARSE_FAILED,
    },
  ])('refuses $name with $code', async ({ bytes, code }) => {
    const loaded = await loadPdf({ sourcePath: 'bad.pdf', bytes: await bytes() });
    expect(loaded.documents).toEqual([]);
    expect(loaded.failures).toEqual([{ sourcePath: 'bad.pdf', code, message: expect.any(String) }]);
  });

  it('stops reading when the run is aborted, by throwing rather than failing the file', async () => {
    const bytes = await writePdf([[{ text: 'one', y: 700 }], [{ text: 'two', y: 700 }]]);
    const controller = new AbortController();
    controller.abort(new Error('ingest stopped'));
    await expect(loadPdf({ sourcePath: 'a.pdf', bytes, signal: controller.signal })).rejects.toThrow(
      'ingest stopped',
    );
  });

  it('refuses a PDF over the page or byte limit before reading its text', async () => {
    const bytes = await writePdf([
      [{ text: 'one', y: 700 }],
      [{ text: 'two', y: 700 }],
      [{ text: 'three', y: 700 }],
    ]);
    const pages = await pdfLoader({ ...DEFAULT_DOCUMENT_LIMITS, maxBytes: 10_000_000, maxPages: 2 })({
      sourcePath: 'long.pdf',
      bytes,
    });
    expect(pages.failures).toEqual([
      { sourcePath: 'long.pdf', code: ErrorCode.FILE_TOO_LARGE, message: '3 pages; the limit is 2' },
    ]);
    const size = await pdfLoader({ ...DEFAULT_DOCUMENT_LIMITS, maxBytes: 100, maxPages: 10 })({
      sourcePath: 'big.pdf',
      bytes,
    });
    expect(size.failures[0]?.code).toBe(ErrorCode.FILE_TOO_LARGE);
  });
});
