import { Tiktoken } from 'js-tiktoken/lite';
import cl100k_base from 'js-tiktoken/ranks/cl100k_base';

/** Counts tokens the way the models that read our chunks do. */
export interface Tokenizer {
  readonly name: string;
  count(text: string): number;
}

const CACHE_LIMIT = 200_000;
const CACHEABLE_PIECE_LENGTH = 64;
// js-tiktoken's byte-pair merge is quadratic in the length of one piece: a 5,000-character run
// without spaces (base64, minified code) takes seconds. Longer pieces are counted per segment, and
// segments this short are memoised like words: a 200,000-character run counts in milliseconds
// (256-character segments took 20 ms per thousand characters, minutes for a 200 KB document).
const SEGMENT_LENGTH = 64;

let shared: Tokenizer | undefined;

/**
 * cl100k_base: the encoding of the OpenAI embedding and chat models, close enough for the budgets
 * of other models too; its ranks ship inside js-tiktoken, so this works offline.
 *
 * tiktoken splits text with a regex and byte-pair-encodes each piece on its own, so a text's count
 * is the sum of its pieces' counts. Words repeat (Zipf), so memoising per piece makes counting
 * several times faster than encoding whole texts, with exactly the same result. The one
 * approximation: a run of more than 64 characters without whitespace is counted in 64-character
 * segments, which keeps counting linear and errs on the high side (merges across a segment
 * boundary are not made).
 */
export function cl100kTokenizer(): Tokenizer {
  if (shared) return shared;
  const encoding = new Tiktoken(cl100k_base);
  const pieces = new RegExp(cl100k_base.pat_str, 'gu');
  const cache = new Map<string, number>();
  const countPiece = (piece: string): number => {
    if (piece.length > SEGMENT_LENGTH) {
      let total = 0;
      for (let offset = 0; offset < piece.length;) {
        let end = Math.min(piece.length, offset + SEGMENT_LENGTH);
        // Keep surrogate pairs whole.
        if (end < piece.length && /[\uDC00-\uDFFF]/.test(piece[end]!)) end--;
        total += countPiece(piece.slice(offset, end));
        offset = end;
      }
      return total;
    }
    const cached = cache.get(piece);
    if (cached !== undefined) return cached;
    // Empty allowed and disallowed special sets: "<|endoftext|>" in a document is text.
    const count = encoding.encode(piece, [], []).length;
    if (piece.length <= CACHEABLE_PIECE_LENGTH) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(piece, count);
    }
    return count;
  };
  shared = {
    name: 'cl100k_base',
    count(text) {
      let total = 0;
      for (const match of text.matchAll(pieces)) total += countPiece(match[0]);
      return total;
    },
  };
  return shared;
}
