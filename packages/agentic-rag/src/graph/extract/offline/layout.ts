/** Layout: what of the text is prose, code span, fence; paragraphs; headings. */
import { splitLines, type TextLine } from '../../../lexicon/index.js';

export interface Region {
  start: number;
  end: number;
}

export interface CodeSpan extends Region {
  /** The trimmed content, which starts at `innerStart`. */
  innerStart: number;
  inner: string;
}

export interface Layout {
  /** The text with everything that is not prose blanked to spaces (offsets unchanged). */
  prose: string;
  fences: Region[];
  codeSpans: CodeSpan[];
  headings: Region[];
  /** Co-mention units: paragraphs, each table row, each fenced block. */
  units: Region[];
  /** Lower-case words written as words in prose: "edge" here means "Edge" may be a plain word. */
  lowercaseWords: ReadonlySet<string>;
}

function findFences(lines: readonly TextLine[]): Region[] {
  const fences: Region[] = [];
  let open: { marker: string; start: number } | null = null;
  for (const line of lines) {
    const match = /^ {0,3}(`{3,}|~{3,})/.exec(line.text);
    if (open === null) {
      if (match) open = { marker: match[1]!, start: line.start };
    } else if (match && match[1]!.startsWith(open.marker) && line.text.trim() === match[1]) {
      fences.push({ start: open.start, end: line.end });
      open = null;
    }
  }
  // An unclosed fence runs to the end, as CommonMark renders it.
  if (open !== null) fences.push({ start: open.start, end: lines.at(-1)!.end });
  return fences;
}

class Mask {
  readonly masked: Uint8Array;

  constructor(private readonly text: string) {
    this.masked = new Uint8Array(text.length);
  }

  set(start: number, end: number): void {
    this.masked.fill(1, start, end);
  }

  isMasked(index: number): boolean {
    return this.masked[index] === 1;
  }

  /** Masks every match of `pattern` that starts in unmasked text; returns what it masked. */
  maskAll(pattern: RegExp): RegExpExecArray[] {
    const matches: RegExpExecArray[] = [];
    for (const match of this.text.matchAll(pattern)) {
      if (this.isMasked(match.index)) continue;
      this.set(match.index, match.index + match[0].length);
      matches.push(match);
    }
    return matches;
  }

  apply(): string {
    const chars = new Array<string>(this.text.length);
    for (let index = 0; index < this.text.length; index++) {
      const char = this.text[index]!;
      chars[index] = this.masked[index] === 1 && char !== '\n' ? ' ' : char;
    }
    return chars.join('');
  }
}

export function analyseLayout(text: string): Layout {
  const lines = splitLines(text);
  const fences = findFences(lines);
  const mask = new Mask(text);
  for (const fence of fences) mask.set(fence.start, fence.end);
  mask.maskAll(/\$\$[\s\S]*?\$\$/g);
  // Code spans before inline math: `${code}` is code, and markdown binds code spans first.
  const codeSpans = mask.maskAll(/(?<!`)(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g).map((match): CodeSpan => {
    const open = match[1]!.length;
    const raw = match[2]!;
    const lead = raw.length - raw.trimStart().length;
    const inner = raw.trim();
    const innerStart = match.index + open + lead;
    return {
      start: match.index,
      end: match.index + match[0].length,
      innerStart,
      inner,
    };
  });
  mask.maskAll(/(?<![\\$\w])\$(?=[^\s$])[^$\n]*?[^\s\\$]\$(?![\d$])/g);
  mask.maskAll(/\b(?:https?|ftp):\/\/[^\s<>()[\]`"']+/g);
  mask.maskAll(/\]\([^)\s]*\)/g);
  // An address starts where no address character precedes it and its local part is at most 64
  // characters (RFC 5321): without both, a long run of word characters costs quadratic time.
  mask.maskAll(/(?<![\w.+-])[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+/g);
  mask.maskAll(/\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|app|example|co\.uk)\b[^\s)]*/g);
  mask.maskAll(/<\/?[A-Za-z][^>\n]*>/g);
  // Emphasis markers, so that **Meridian Parcel** reads as a name and not as punctuation.
  mask.maskAll(/\*+/g);
  mask.maskAll(/(?<![\p{L}\p{N}_])_+(?=\S)|(?<=\S)_+(?![\p{L}\p{N}_])/gu);
  const prose = mask.apply();

  const headings = lines
    .filter((line) => /^ {0,3}#{1,6}\s/.test(line.text) && !mask.isMasked(line.start))
    .map(({ start, end }) => ({ start, end }));
  const lowercaseWords = new Set(
    [...prose.matchAll(/(?<![\p{L}\p{N}_#/.@-])\p{Ll}+(?![\p{L}\p{N}_/@-])/gu)].map((match) => match[0]),
  );
  return { prose, fences, codeSpans, headings, units: findUnits(lines, fences), lowercaseWords };
}

/**
 * Paragraphs (split on blank lines), except that a fenced block is one unit even with blank
 * lines inside and each table row is its own unit: a row is a record, and a whole table as one
 * paragraph would relate every row to every other.
 */
function findUnits(lines: readonly TextLine[], fences: readonly Region[]): Region[] {
  const units: Region[] = [];
  let current: Region | null = null;
  const close = () => {
    if (current) units.push(current);
    current = null;
  };
  let fenceIndex = 0;
  for (const line of lines) {
    while (fenceIndex < fences.length && fences[fenceIndex]!.end < line.start) fenceIndex++;
    const fence = fences[fenceIndex];
    if (fence && line.start >= fence.start && line.start <= fence.end) {
      if (line.start === fence.start) {
        close();
        units.push({ start: fence.start, end: fence.end });
      }
      continue;
    }
    const trimmed = line.text.trim();
    if (trimmed.length === 0) {
      close();
    } else if (trimmed.startsWith('|')) {
      close();
      if (!/^\|[\s|:-]*$/.test(trimmed)) units.push({ start: line.start, end: line.end });
    } else if (current) {
      (current as Region).end = line.end;
    } else {
      current = { start: line.start, end: line.end };
    }
  }
  close();
  return units;
}
