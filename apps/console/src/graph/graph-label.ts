/** Characters a label line holds before it wraps, and lines before it is cut (the tooltip has it all). */
export const LINE_CHARS = 18;
export const MAX_LINES = 2;

// A word longer than a line has to be cut; after one of these it still reads as parts of a path or id.
const BREAK_AFTER = /[/\-_.:]/;

function splitLongWord(word: string, width: number): string[] {
  const parts: string[] = [];
  let rest = word;
  while (rest.length > width) {
    let cut = width;
    for (let index = width - 1; index > 0; index--) {
      if (BREAK_AFTER.test(rest[index] ?? '')) {
        cut = index + 1;
        break;
      }
    }
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...parts, rest];
}

/** A line with `…` at its end, within `width`, cut at a space if there is one. */
function withEllipsis(line: string, width: number): string {
  if (line.length < width) return `${line}…`;
  const space = line.lastIndexOf(' ', width - 1);
  return `${space > 0 ? line.slice(0, space) : line.slice(0, width - 1)}…`;
}

/**
 * A name as at most `lines` lines of at most `width` characters, wrapped between words. A word is
 * cut only when it is longer than a line; a name longer than the lines ends in `…`.
 */
export function wrapLabel(name: string, width = LINE_CHARS, lines = MAX_LINES): string[] {
  const words = name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) => splitLongWord(word, width));
  const wrapped: string[] = [];
  for (const word of words) {
    const last = wrapped.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width)
      wrapped[wrapped.length - 1] = `${last} ${word}`;
    else wrapped.push(word);
  }
  if (wrapped.length <= lines) return wrapped;
  const kept = wrapped.slice(0, lines);
  kept[lines - 1] = withEllipsis(kept[lines - 1] ?? '', width);
  return kept;
}
