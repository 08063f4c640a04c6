import { ErrorCode, RagError } from '../errors/index.js';

/** One lexeme of a tsvector and how many positions it holds (0 for a stripped lexeme). */
export interface TsvectorEntry {
  lexeme: string;
  positions: number;
}

// `'lexeme':1,5A,7` or a bare `'lexeme'`. Inside the quotes Postgres doubles a quote and a
// backslash (tsvectorout); positions are numbers with an optional weight letter (D is not shown).
const ENTRY = /'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?/gy;
const SEPARATOR = / */y;

/**
 * Parses a tsvector's text output (`tsv::text`). Reading a few chunks' lexemes this way is one
 * row a chunk instead of one a lexeme: on the embedded database, where every row returned costs
 * its own conversion, RM3's read of ten chunks took 8.5 ms as `unnest(tsv)` and 1.1 ms as text.
 */
export function parseTsvectorText(text: string): TsvectorEntry[] {
  const entries: TsvectorEntry[] = [];
  let at = 0;
  while (at < text.length) {
    SEPARATOR.lastIndex = at;
    SEPARATOR.exec(text);
    at = SEPARATOR.lastIndex;
    if (at >= text.length) break;
    ENTRY.lastIndex = at;
    const match = ENTRY.exec(text);
    if (!match)
      // Postgres wrote something this parser does not know: a bug here, never the caller's input.
      throw new RagError(ErrorCode.INTERNAL, `not a tsvector at offset ${at}: ${text.slice(at, at + 40)}`);
    at = ENTRY.lastIndex;
    entries.push({
      lexeme: match[1]!.replace(/''|\\(.)/g, (pair, escaped: string | undefined) => escaped ?? "'"),
      positions: match[2] ? match[2].split(',').length : 0,
    });
  }
  return entries;
}
