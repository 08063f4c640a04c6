import { getDocumentProxy } from 'unpdf';
import { ErrorCode } from '../../errors/index.js';
import type { LoadedDocument } from '../document.js';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './limits.js';
import type { BinaryLoader, LoadResult } from './loader.js';
import { markdownDocument } from './markdown.js';
import { layoutPdf, type OutlineEntry, type PdfPage, type TextRun } from './pdf-layout.js';

/** The parts of pdf.js's text content this loader reads. */
interface TextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
  hasEOL: boolean;
}

/**
 * PDF through pdf.js (unpdf's build for servers: no worker, no canvas). The text of every page is
 * laid out as Markdown (see pdf-layout.ts) and goes the Markdown way; the document keeps where each
 * page starts, so every chunk carries its page. Encrypted, corrupt and oversized files are
 * per-file failures with their own codes.
 */
export function pdfLoader(limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): BinaryLoader {
  return async ({ sourcePath, bytes, signal }) => {
    const failure = (code: string, message: string): LoadResult => ({
      documents: [],
      failures: [{ sourcePath, code, message }],
    });
    if (bytes.length > limits.maxBytes) {
      return failure(ErrorCode.FILE_TOO_LARGE, `${bytes.length} bytes; the limit is ${limits.maxBytes}`);
    }
    let pdf: PdfDocument;
    try {
      // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
      pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (error) {
      return failure(...openFailure(error));
    }
    try {
      if (pdf.numPages > limits.maxPages) {
        return failure(ErrorCode.FILE_TOO_LARGE, `${pdf.numPages} pages; the limit is ${limits.maxPages}`);
      }
      const pages: PdfPage[] = [];
      for (let number = 1; number <= pdf.numPages; number++) {
        signal?.throwIfAborted();
        const page = await pdf.getPage(number);
        const content = await page.getTextContent();
        const runs: TextRun[] = [];
        for (const item of content.items as Array<TextItem | { type: string }>) {
          if (!('str' in item)) continue; // marked-content delimiters carry no text
          const [, , skewX = 0, scaleY = 0, x = 0, y = 0] = item.transform;
          runs.push({
            text: item.str,
            x,
            y,
            width: item.width,
            size: Math.hypot(skewX, scaleY),
            monospace: content.styles[item.fontName]?.fontFamily === 'monospace',
            endOfLine: item.hasEOL,
          });
        }
        pages.push({ number, runs, height: page.view[3] ?? undefined });
        page.cleanup();
      }
      const layout = layoutPdf(pages, await outlineOf(pdf));
      if (layout.text.trim() === '') {
        return failure(ErrorCode.PARSE_FAILED, 'the PDF has no text layer (scanned pages need OCR first)');
      }
      const metadataTitle = await pdf
        .getMetadata()
        .then(({ info }) => (info as { Title?: unknown }).Title)
        .catch(() => undefined);
      const document: LoadedDocument = markdownDocument(
        { sourcePath, text: `${layout.text}\n` },
        { pages: layout.pages, metadata: { format: 'pdf', page_count: pdf.numPages } },
      );
      // Markdown is the shape the layout writes; the kind is what the file was, so a `kind` filter finds it.
      document.kind = 'pdf';
      if (typeof metadataTitle === 'string' && metadataTitle.trim()) document.title = metadataTitle.trim();
      // Without a title in its metadata, a man page's first heading is `NAME`: its running head names it.
      else if (layout.runningTitle) document.title = layout.runningTitle;
      return { documents: [document], failures: [] };
    } catch (error) {
      if (signal?.aborted) throw error;
      return failure(ErrorCode.PARSE_FAILED, `cannot read the PDF: ${(error as Error).message}`);
    } finally {
      // The loading task owns the parser; destroying it frees the document.
      await pdf.loadingTask.destroy().catch(() => undefined);
    }
  };
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * The outline (bookmarks) flattened, each entry with the 1-based page it points at. An entry whose
 * destination does not resolve is left out; a broken outline is no outline, not a failed file.
 */
async function outlineOf(pdf: PdfDocument): Promise<OutlineEntry[]> {
  const entries: OutlineEntry[] = [];
  const walk = async (nodes: Awaited<ReturnType<PdfDocument['getOutline']>>, level: number) => {
    for (const node of nodes) {
      const destination = typeof node.dest === 'string' ? await pdf.getDestination(node.dest) : node.dest;
      const target: unknown = destination?.[0];
      const index =
        typeof target === 'number'
          ? target
          : target && typeof target === 'object'
            ? await pdf.getPageIndex(target as Parameters<PdfDocument['getPageIndex']>[0])
            : undefined;
      if (index !== undefined && node.title.trim())
        entries.push({ title: node.title, level, page: index + 1 });
      await walk(node.items as typeof nodes, level + 1);
    }
  };
  try {
    await walk((await pdf.getOutline()) ?? [], 1);
    return entries;
  } catch {
    return [];
  }
}

/** pdf.js names its exceptions; the name is its contract (the classes are not exported here). */
function openFailure(error: unknown): [code: string, message: string] {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') {
    return [
      ErrorCode.DOCUMENT_ENCRYPTED,
      'the PDF is encrypted with a password; decrypt it before ingesting',
    ];
  }
  return [ErrorCode.PARSE_FAILED, `not a readable PDF: ${(error as Error).message}`];
}

export const loadPdf: BinaryLoader = pdfLoader();
