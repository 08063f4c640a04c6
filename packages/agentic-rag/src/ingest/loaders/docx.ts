import { ErrorCode } from '../../errors/index.js';
import { brief, checkZipArchive } from './archive.js';
import { loadHtml } from './html.js';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './limits.js';
import type { BinaryLoader, LoadResult } from './loader.js';

/**
 * Word (.docx) through mammoth, once the archive is checked against the limits (see archive.ts), which maps the document's styles to HTML (Heading 1 → h1, tables →
 * table); the HTML loader then gives it the Markdown shape every other format has. A .docx has no
 * fixed pages (they depend on the renderer), so its chunks carry no page numbers.
 */
export function docxLoader(limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): BinaryLoader {
  return async ({ sourcePath, bytes }) => {
    const failure = (code: string, message: string): LoadResult => ({
      documents: [],
      failures: [{ sourcePath, code, message }],
    });
    if (bytes.length > limits.maxBytes) {
      return failure(ErrorCode.FILE_TOO_LARGE, `${bytes.length} bytes; the limit is ${limits.maxBytes}`);
    }
    const buffer = Buffer.from(bytes);
    const refused = await checkZipArchive(buffer, limits);
    if (refused) {
      const unreadable = refused.code === ErrorCode.PARSE_FAILED;
      return failure(refused.code, unreadable ? `not a readable .docx: ${refused.message}` : refused.message);
    }
    let html: string;
    try {
      // Loaded on first use: it costs ~60 ms at start-up for every process, .docx or not.
      const { default: mammoth } = await import('mammoth');
      ({ value: html } = await mammoth.convertToHtml(
        { buffer },
        // Text is what is ingested: images are left unread, not inlined as base64 data URIs.
        { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
      ));
    } catch (error) {
      return failure(ErrorCode.PARSE_FAILED, `not a readable .docx: ${brief(error)}`);
    }
    const loaded = loadHtml({ sourcePath, text: html });
    for (const document of loaded.documents) {
      document.kind = 'docx';
      document.metadata = { ...document.metadata, format: 'docx' };
    }
    if (loaded.documents.every((document) => document.text.trim() === '')) {
      return failure(ErrorCode.PARSE_FAILED, 'the .docx has no text');
    }
    return loaded;
  };
}

export const loadDocx: BinaryLoader = docxLoader();
