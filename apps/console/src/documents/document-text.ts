import type { Chunk } from '../api/types.js';

/** A run of a document's text, marked when it lies inside the cited span. */
export interface Segment {
  text: string;
  marked: boolean;
  /** A gap between chunks the API did not send (whitespace between blocks or lines, usually). */
  gap: boolean;
}

/**
 * The document's text rebuilt from its chunks, cut where the span [start, end) begins and ends.
 * Each chunk's text is exactly the document's text from startOffset to endOffset, counted in Unicode
 * code points (not UTF-16 units); chunks may overlap, so each character is taken once.
 */
export function documentSegments(
  chunks: readonly Chunk[],
  span: { start: number; end: number } | null,
): Segment[] {
  const segments: Segment[] = [];
  const push = (text: string, marked: boolean, gap = false) => {
    if (!text) return;
    const last = segments.at(-1);
    if (last && last.marked === marked && last.gap === gap) last.text += text;
    else segments.push({ text, marked, gap });
  };
  let covered = 0;
  for (const chunk of [...chunks].sort((a, b) => a.startOffset - b.startOffset)) {
    if (chunk.endOffset <= covered) continue;
    // What the chunker leaves between chunks: one character is mostly the newline between lines of
    // a table, list or code cut apart (rarely a space between sentences), more a blank line between
    // blocks. A rendered view needs it right, or rows and items fall apart.
    if (chunk.startOffset > covered && covered > 0)
      push(chunk.startOffset - covered === 1 ? '\n' : '\n\n', false, true);
    const points = Array.from(chunk.text);
    let offset = Math.max(covered, chunk.startOffset);
    const cuts = span ? [span.start, span.end].filter((cut) => cut > offset && cut < chunk.endOffset) : [];
    for (const cut of [...cuts, chunk.endOffset]) {
      const text = points.slice(offset - chunk.startOffset, cut - chunk.startOffset).join('');
      push(text, span !== null && offset >= span.start && offset < span.end);
      offset = cut;
    }
    covered = chunk.endOffset;
  }
  return segments;
}

/**
 * The segments' text as one string, with the marked part's start and end as UTF-16 indices into it
 * (null when nothing is marked): a gap inside the span is part of it.
 */
export function joinSegments(segments: readonly Segment[]): {
  text: string;
  span: { start: number; end: number } | null;
} {
  let text = '';
  let start: number | null = null;
  let end = 0;
  for (const segment of segments) {
    if (segment.marked) {
      start ??= text.length;
      end = text.length + segment.text.length;
    }
    text += segment.text;
  }
  return { text, span: start === null ? null : { start, end } };
}
