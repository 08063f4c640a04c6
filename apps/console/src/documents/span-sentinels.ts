/**
 * Private-use characters put into Markdown where the cited span starts and ends: they pass through
 * the Markdown parser as ordinary text, so rehype-cited-span.ts finds them in the rendered tree.
 */
export const SPAN_START = '\uE000';
export const SPAN_END = '\uE001';

const SENTINEL = /[\uE000\uE001]/g;

// Line kinds: `code` lines are literal (inside a fence or $$ math), `skip` lines show nothing a
// sentinel could stay in (blank, fences, rules, setext underlines, table delimiter rows, link and
// footnote definitions), `text` lines are everything else.
type LineKind = 'code' | 'skip' | 'text';

interface Line {
  start: number;
  /** Index of the line's `\n`, or the text's length. */
  end: number;
  kind: LineKind;
}

const FENCE_OPEN = /^[ \t>]*(`{3,}|~{3,}|\${2,})(.*)$/;
const FENCE_CLOSE = /^[ \t>]*(`{3,}|~{3,}|\${2,})[ \t]*$/;
const BLANK = /^[ \t>]*$/;
const BLANK_REST = /^[ \t]*$/;
const RULE_OR_UNDERLINE = /^ {0,3}(?:([-*_])(?:[ \t]*\1){2,}|=+|-+)[ \t]*$/;
const DELIMITER_ROW = /^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?[ \t]*$/;
const DEFINITION = /^ {0,3}\[[^\]]+\]:/;
/** What opens a line before its text: indentation, `>`, list markers, task boxes, `#`s, a table's first `|`. */
const LINE_PREFIX =
  /^[ \t]*(?:(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])|\[[ xX]\](?=[ \t])|#{1,6}(?=[ \t]|$)|\|)[ \t]*)*/;
/**
 * What closes a line after its text: a heading's closing `#`s, a table row's last `|` (a sentinel
 * after it would be a cell past the header's and dropped), a backslash hard break.
 */
const LINE_SUFFIX = /(?:[ \t]+#+|(?<!\\)\||\\)[ \t]*$/;

/**
 * The Markdown with SPAN_START and SPAN_END around `span` (UTF-16 indices), each moved off Markdown
 * syntax it would break: a sentinel before `#` or `- ` stops the line being a heading or an item,
 * one after a closing fence leaves the fence open, one next to `_` undoes the emphasis. The start
 * moves forward and the end back, over such syntax and blank lines only. Sentinels already in the
 * text become U+FFFD. Without a span, or with nothing visible in it, no sentinels are added.
 */
export function withSpanSentinels(markdown: string, span: { start: number; end: number } | null): string {
  const text = markdown.replace(SENTINEL, '\uFFFD');
  if (!span) return text;
  const lines = classify(text);
  const start = placeStart(text, lines, span.start);
  const end = placeEnd(text, lines, span.end);
  if (start >= end) return text;
  return text.slice(0, start) + SPAN_START + text.slice(start, end) + SPAN_END + text.slice(end);
}

function classify(text: string): Line[] {
  const lines: Line[] = [];
  let fence: string | null = null;
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    let kind: LineKind = 'text';
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        fence = null;
        kind = 'skip';
      } else kind = 'code';
    } else {
      const open = FENCE_OPEN.exec(line);
      // An info string with the fence's own character is inline code or math on one line, not a fence.
      if (open && !open[2]!.includes(open[1]![0]!)) {
        fence = open[1]!;
        kind = 'skip';
      } else if (
        BLANK.test(line) ||
        RULE_OR_UNDERLINE.test(line) ||
        DELIMITER_ROW.test(line) ||
        DEFINITION.test(line)
      )
        kind = 'skip';
    }
    lines.push({ start, end, kind });
    start = end + 1;
  }
  return lines;
}

/** The line holding `position`; a position on a `\n` belongs to the line it ends. */
function lineAt(lines: readonly Line[], position: number): Line {
  return lines.find((line) => position <= line.end) ?? lines.at(-1)!;
}

function placeStart(text: string, lines: readonly Line[], from: number): number {
  let start = from;
  while (start < text.length) {
    const line = lineAt(lines, start);
    if (line.kind === 'code') return start;
    if (line.kind === 'text') {
      start = Math.max(start, line.start + LINE_PREFIX.exec(text.slice(line.start, line.end))![0].length);
      // `_` opens emphasis only after a space or punctuation, which a sentinel is not (`*` and `~` may).
      while (start < line.end && /[ \t_]/.test(text[start]!)) start++;
      if (start < line.end) return start;
    }
    start = line.end + 1;
  }
  return text.length;
}

function placeEnd(text: string, lines: readonly Line[], to: number): number {
  let end = to;
  while (end > 0) {
    while (end > 0 && /\s/.test(text[end - 1]!)) end--;
    if (end === 0) break;
    const line = lineAt(lines, end - 1);
    if (line.kind === 'code') return end;
    if (line.kind === 'text') {
      const prefix = line.start + LINE_PREFIX.exec(text.slice(line.start, line.end))![0].length;
      const suffix = BLANK_REST.test(text.slice(end, line.end)) && LINE_SUFFIX.exec(text.slice(prefix, end));
      if (suffix) end -= suffix[0].length;
      // `_` closes emphasis only before a space or punctuation.
      while (end > prefix && text[end - 1] === '_') end--;
      if (end > prefix) return end;
    }
    end = line.start;
  }
  return 0;
}
