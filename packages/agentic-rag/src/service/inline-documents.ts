import path from 'node:path';
import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';
import { binaryLoaderFor } from '../ingest/index.js';
import { contentText, idText } from './inputs.js';

/**
 * An inline document as a caller sends it: text as `content`, or any file's bytes as
 * `contentBase64` (how a browser uploads a PDF or DOCX). Exactly one of the two.
 */
export const InlineDocumentInput = z
  .object({
    id: idText('documents.id', 2000),
    content: contentText('documents.content').nullish(),
    contentBase64: z
      .base64({ error: 'documents.contentBase64 must be base64 (RFC 4648, padded)' })
      .max(10_000_000, { error: 'documents.contentBase64 must be at most 10,000,000 characters' })
      .nullish(),
  })
  .refine((document) => (document.content == null) !== (document.contentBase64 == null), {
    error: 'each document needs exactly one of content (text) and contentBase64 (a file’s bytes)',
  });

/**
 * The document as the pipeline and the queue take it: `content` is the text of a text format,
 * and the base64 of the bytes of a binary one (PDF, DOCX), which the binary loader decodes. A
 * string either way, so a queued job's payload stays JSON.
 */
export function inlineDocument(document: z.output<typeof InlineDocumentInput>): {
  id: string;
  content: string;
} {
  const { id, content, contentBase64 } = document;
  if (binaryLoaderFor(id)) {
    if (contentBase64 == null) {
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        `document "${id}" is a binary format (${path.extname(id)}): send its bytes as contentBase64`,
      );
    }
    return { id, content: contentBase64 };
  }
  if (contentBase64 == null) return { id, content: content! };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(contentBase64, 'base64'));
    return { id, content: contentText('documents.contentBase64').parse(text) };
  } catch {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `document "${id}": contentBase64 of a text format must decode to UTF-8 text without NUL characters`,
    );
  }
}
