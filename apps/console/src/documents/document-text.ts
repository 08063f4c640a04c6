import type { Chunk } from '../api/types.js';

/** A run of a document's text, marked when it lies inside the cited span. */
export interface Segment {
  text: string;
  marked: boolean;
  /** A gap between chunks the API did not send (whitespace between blocks, usually). */
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
    if (chunk.startOffset > covered && covered > 0) push('\n\n', false, true);
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
