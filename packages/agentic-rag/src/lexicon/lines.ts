/** A line of a text, without its newline, with where it stands in the text. */
export interface TextLine {
  text: string;
  start: number;
  /** Offset just past the line's last character (before its newline). */
  end: number;
}

/**
 * The lines of a text with their offsets: what a block parser (Markdown blocks, the graph
 * extractor's layout) reads line by line while keeping every span citable in the original.
 */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ text: text.slice(start, end), start, end });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}
