import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

/** One line of text placed on a page, for tests that need a PDF with known text on known pages. */
export interface PlacedText {
  text: string;
  x?: number;
  y: number;
  size?: number;
  font?: 'regular' | 'bold' | 'mono';
}

/** A real PDF (pdf-lib, standard fonts) with the given lines on each page, in order. */
export async function writePdf(
  pages: ReadonlyArray<readonly PlacedText[]>,
  title?: string,
): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  if (title) document.setTitle(title);
  const fonts: Record<NonNullable<PlacedText['font']>, PDFFont> = {
    regular: await document.embedFont(StandardFonts.Helvetica),
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    mono: await document.embedFont(StandardFonts.Courier),
  };
  for (const lines of pages) {
    const page = document.addPage([612, 792]);
    for (const line of lines) {
      page.drawText(line.text, {
        x: line.x ?? 72,
        y: line.y,
        size: line.size ?? 11,
        font: fonts[line.font ?? 'regular'],
      });
    }
  }
  return document.save();
}
