import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { inlineDocument, InlineDocumentInput } from './inline-documents.js';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('inline documents', () => {
  it.each([
    [
      { id: 'notes/a.md', content: '# A' },
      { id: 'notes/a.md', content: '# A' },
    ],
    [
      { id: 'notes/a.md', contentBase64: base64('# Ä') },
      { id: 'notes/a.md', content: '# Ä' },
    ],
    // A binary format keeps its base64: the PDF loader decodes it, and the queue carries a string.
    [
      { id: 'docs/a.pdf', contentBase64: 'JVBERi0=' },
      { id: 'docs/a.pdf', content: 'JVBERi0=' },
    ],
  ])('takes %j', (input, expected) => {
    expect(inlineDocument(InlineDocumentInput.parse(input))).toEqual(expected);
  });

  it.each([
    [{ id: 'a.md' }, 'exactly one of content'],
    [{ id: 'a.md', content: 'x', contentBase64: base64('x') }, 'exactly one of content'],
    [{ id: 'a.pdf', contentBase64: 'not base64!' }, 'must be base64'],
  ])('refuses %j', (input, message) => {
    const result = InlineDocumentInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it.each([
    [{ id: 'a.pdf', content: '%PDF-1.7' }, 'is a binary format (.pdf): send its bytes as contentBase64'],
    [{ id: 'a.md', contentBase64: Buffer.from([0xff, 0xfe]).toString('base64') }, 'must decode to UTF-8'],
    [{ id: 'a.txt', contentBase64: base64('a\u0000b') }, 'must decode to UTF-8 text without NUL'],
  ])('answers INVALID_INPUT for %j', (input, message) => {
    const call = () => inlineDocument(InlineDocumentInput.parse(input));
    expect(call).toThrow(message);
    expect(call).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_INPUT }));
  });
});
