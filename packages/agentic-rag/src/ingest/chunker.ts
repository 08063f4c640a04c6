import type { Block, BlockType } from './document.js';
import type { Tokenizer } from './tokenizer.js';

export interface ChunkerOptions {
  tokenizer: Tokenizer;
  /**
   * Upper bound on a chunk's tokens. Two documented exceptions, both small: the heading lines that
   * open a chunk may push it past the bound when the block under them fits alone but not with
   * them; and a document ending in headings with nothing under them, when those do not fit into
   * the previous chunk, ends with a heading-only chunk.
   */
  maxTokens: number;
  /** Tokens of the previous chunk repeated at the start of the next one within a section. */
  overlapTokens: number;
  /** A heading closes the current chunk only once it holds this many tokens (default maxTokens / 4). */
  minTokens?: number;
  /**
   * Offsets where pages start (a PDF's), ascending. A block that opens a page closes the chunk as a
   * heading does, and no overlap is carried over the break, so a chunk's page is the page of its
   * text. A page that starts inside a block (a table or algorithm running over) does not cut it.
   */
  pageStarts?: readonly number[];
}

export interface Chunk {
  index: number;
  /** Exactly `text.slice(start, end)` of the document. */
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  /** Heading trail of the chunk's first content, outermost first. */
  sectionPath: string[];
  metadata: ChunkMetadata;
}

export interface ChunkMetadata {
  blockTypes: BlockType[];
  /** A code, math or table block larger than maxTokens had to be cut at line boundaries. */
  splitAtomicBlock?: true;
}

interface Unit {
  type: BlockType;
  start: number;
  end: number;
  tokens: number;
  path: string[];
  /** Offsets inside the unit where a chunk may start when overlapping (sentence or line starts). */
  resumePoints: number[];
  splitAtomic: boolean;
}

const ATOMIC: ReadonlySet<BlockType> = new Set(['code', 'math', 'table']);
const LINE_SPLIT: ReadonlySet<BlockType> = new Set(['code', 'math', 'table', 'list']);

/**
 * Packs a document's blocks into chunks of at most `maxTokens`. Chunks are contiguous slices of
 * the document, so their offsets always slice back to their text. Headings start a new chunk;
 * code, math and tables are never cut unless one alone exceeds the budget; overlap is taken in
 * whole sentences or lines and never reaches back across a heading or into a code block.
 */
export function chunkText(text: string, blocks: readonly Block[], options: ChunkerOptions): Chunk[] {
  const { tokenizer, maxTokens, overlapTokens } = options;
  const minTokens = options.minTokens ?? Math.floor(maxTokens / 4);
  const queue = toUnits(text, blocks, tokenizer, maxTokens);
  const chunks: Chunk[] = [];
  const countRange = (from: number, to: number) => (to > from ? tokenizer.count(text.slice(from, to)) : 0);
  const hasContent = (open: OpenChunk | null) => open?.units.some((unit) => unit.type !== 'heading') ?? false;
  const opensPage = pageBreakTest(options.pageStarts ?? []);

  const emit = (open: OpenChunk) => {
    const last = open.units[open.units.length - 1]!;
    const slice = text.slice(open.start, last.end);
    const firstContent = open.units.find((unit) => unit.type !== 'heading') ?? last;
    chunks.push({
      index: chunks.length,
      text: slice,
      start: open.start,
      end: last.end,
      tokenCount: tokenizer.count(slice),
      sectionPath: firstContent.path,
      metadata: {
        blockTypes: [...new Set(open.units.map((unit) => unit.type))],
        ...(open.units.some((unit) => unit.splitAtomic) ? { splitAtomicBlock: true as const } : {}),
      },
    });
  };

  /**
   * Emits the open chunk. The running count adds blocks and the gaps between them separately,
   * which can differ from the count of the joined text by a token or two at the seams; units
   * that would push the real count past the budget go back to the queue for the next chunk.
   */
  const flush = (open: OpenChunk, position: number): number => {
    let returned = 0;
    while (
      open.units.length > 1 &&
      hasContent({ ...open, units: open.units.slice(0, -1) }) &&
      countRange(open.start, open.units[open.units.length - 1]!.end) > maxTokens
    ) {
      queue.splice(position, 0, open.units.pop()!);
      returned++;
    }
    emit(open);
    return returned;
  };

  let current: OpenChunk | null = null;
  let position = 0;
  for (;;) {
    while (position < queue.length) {
      const unit = queue[position]!;
      if (current && hasContent(current)) {
        const lastEnd = current.units[current.units.length - 1]!.end;
        const needed = current.tokens + countRange(lastEnd, unit.start) + unit.tokens;
        const pageBreak = opensPage(lastEnd, unit.start);
        const sectionDone = (unit.type === 'heading' || pageBreak) && current.tokens >= minTokens;
        if (sectionDone || needed > maxTokens) {
          const returned = flush(current, position);
          const overlap: OpenChunk | null =
            returned > 0 || unit.type === 'heading' || pageBreak
              ? null
              : overlapFrom(current, text, tokenizer, overlapTokens);
          current =
            overlap &&
            overlap.tokens + countRange(overlap.units.at(-1)!.end, unit.start) + unit.tokens <= maxTokens
              ? overlap
              : null;
          if (returned > 0) continue;
        }
      }
      if (!current) current = { units: [unit], start: unit.start, tokens: unit.tokens, fresh: true };
      else {
        current.tokens += countRange(current.units[current.units.length - 1]!.end, unit.start) + unit.tokens;
        current.units.push(unit);
        current.fresh = true;
      }
      position++;
    }
    if (!current?.fresh) break;
    const previous = chunks[chunks.length - 1];
    const end = current.units[current.units.length - 1]!.end;
    if (!hasContent(current) && previous && countRange(previous.start, end) <= maxTokens) {
      // Headings with nothing under them join the chunk before instead of standing alone.
      previous.text = text.slice(previous.start, end);
      previous.end = end;
      previous.tokenCount = tokenizer.count(previous.text);
      if (!previous.metadata.blockTypes.includes('heading')) previous.metadata.blockTypes.push('heading');
      break;
    }
    const returned = flush(current, queue.length);
    current = null;
    // Units flush() handed back are packed into the next chunk(s).
    if (returned === 0) break;
  }
  return chunks;
}

/** Whether a page starts after `from` and at or before `to`: between two blocks, or at the second. */
function pageBreakTest(pageStarts: readonly number[]): (from: number, to: number) => boolean {
  return (from, to) => {
    let low = 0;
    let high = pageStarts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (pageStarts[middle]! <= from) low = middle + 1;
      else high = middle;
    }
    return low < pageStarts.length && pageStarts[low]! <= to;
  };
}

interface OpenChunk {
  units: Unit[];
  start: number;
  tokens: number;
  /** Holds something beyond the overlap carried from the previous chunk. */
  fresh: boolean;
}

/** The tail of a full chunk to repeat at the start of the next one, or null for none. */
function overlapFrom(chunk: OpenChunk, text: string, tokenizer: Tokenizer, budget: number): OpenChunk | null {
  if (budget <= 0) return null;
  const units = chunk.units;
  const end = units[units.length - 1]!.end;
  let best: number | null = null;
  let bestUnits: Unit[] = [];
  for (let index = units.length - 1; index >= 0; index--) {
    const unit = units[index]!;
    // Overlap is prose or list lines: it stops at a heading and never repeats code, math or tables.
    if (unit.type === 'heading' || ATOMIC.has(unit.type)) break;
    let fits = true;
    for (const point of [...unit.resumePoints].reverse()) {
      if (point <= chunk.start) break; // the whole chunk again is no overlap
      if (tokenizer.count(text.slice(point, end)) > budget) {
        fits = false;
        break;
      }
      best = point;
      bestUnits = units.slice(index);
    }
    if (!fits) break;
  }
  if (best === null) return null;
  const start = best;
  const carried = bestUnits.map((unit, position) => (position === 0 ? { ...unit, start } : unit));
  return { units: carried, start, tokens: tokenizer.count(text.slice(start, end)), fresh: false };
}

function toUnits(text: string, blocks: readonly Block[], tokenizer: Tokenizer, maxTokens: number): Unit[] {
  const units: Unit[] = [];
  const headings: Array<{ level: number; title: string }> = [];
  let path: string[] = [];
  for (const block of blocks) {
    if (block.end <= block.start || text.slice(block.start, block.end).trim() === '') continue;
    if (block.type === 'heading') {
      // A heading closes every open heading of its level or deeper, even when levels are skipped.
      const level = block.level ?? 1;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, title: block.title ?? text.slice(block.start, block.end).trim() });
      path = headings.map((heading) => heading.title);
    }
    const tokens = tokenizer.count(text.slice(block.start, block.end));
    if (tokens <= maxTokens || block.type === 'heading') {
      units.push({
        type: block.type,
        start: block.start,
        end: block.end,
        tokens,
        path,
        resumePoints: resumePoints(text, block.start, block.end, block.type),
        splitAtomic: false,
      });
      continue;
    }
    // Too big for one chunk: its sentences (or lines) become units of their own, and the packer
    // fills chunks with them, overlap included, as it does with small blocks.
    for (const piece of splitOversized(text, block, tokenizer, maxTokens)) {
      units.push({
        type: block.type,
        start: piece.start,
        end: piece.end,
        tokens: piece.tokens,
        path,
        // Overlap may start at a piece only where a sentence or line starts, not mid-sentence.
        resumePoints:
          piece.start === block.start || /(?:[.!?]["')\]]?\s+|\n)$/.test(text.slice(0, piece.start))
            ? [piece.start]
            : [],
        splitAtomic: ATOMIC.has(block.type),
      });
    }
  }
  return units;
}

/** Where, inside a block, a chunk may start: line starts for code/lists, sentence starts otherwise. */
function resumePoints(text: string, start: number, end: number, type: BlockType): number[] {
  const points = [start];
  const slice = text.slice(start, end);
  const pattern = LINE_SPLIT.has(type) ? /\n(?=\S)/g : /[.!?]["')\]]?\s+(?=[A-Z0-9("'[])/g;
  for (const match of slice.matchAll(pattern)) points.push(start + match.index + match[0].length);
  return points;
}

interface Piece {
  start: number;
  end: number;
  tokens: number;
}

const SENTENCE_END = /[.!?]["')\]]?\s+/g;

/**
 * Cuts one block that alone exceeds the budget into its natural parts: lines for code, math,
 * tables and lists; sentences for prose. A part still too big is cut at line, then word
 * boundaries, and mid-word only for a run with no spaces.
 */
function splitOversized(text: string, block: Block, tokenizer: Tokenizer, maxTokens: number): Piece[] {
  const levels: RegExp[] = LINE_SPLIT.has(block.type) ? [/\n/g, /\s+/g] : [SENTENCE_END, /\n/g, /\s+/g];
  return splitRange(text, block.start, block.end, levels, tokenizer, maxTokens);
}

function splitRange(
  text: string,
  start: number,
  end: number,
  levels: RegExp[],
  tokenizer: Tokenizer,
  maxTokens: number,
): Piece[] {
  const [level, ...finer] = levels;
  if (!level) return hardSplit(text, start, end, tokenizer, maxTokens);
  const pieces: Piece[] = [];
  let segmentStart = start;
  const cuts = [...text.slice(start, end).matchAll(level)].map(
    (match) => start + match.index + match[0].length,
  );
  for (const cut of [...cuts, end]) {
    if (cut <= segmentStart) continue;
    const segmentEnd = segmentStart + text.slice(segmentStart, Math.min(cut, end)).trimEnd().length;
    if (segmentEnd > segmentStart) {
      const tokens = tokenizer.count(text.slice(segmentStart, segmentEnd));
      if (tokens <= maxTokens) pieces.push({ start: segmentStart, end: segmentEnd, tokens });
      else pieces.push(...splitRange(text, segmentStart, segmentEnd, finer, tokenizer, maxTokens));
    }
    segmentStart = cut;
  }
  return pieces;
}

/**
 * Last resort for a run without spaces: the longest prefix within budget, by binary search. The
 * search window grows by doubling from `maxTokens` characters first, so each probe counts about a
 * chunk's worth of text, not the rest of the run: a 200,000-character run costs seconds, not
 * minutes (counting is what costs, and a probe over the whole remainder made it quadratic).
 */
function hardSplit(
  text: string,
  start: number,
  end: number,
  tokenizer: Tokenizer,
  maxTokens: number,
): Piece[] {
  const pieces: Piece[] = [];
  let from = start;
  while (from < end) {
    let low = from + 1;
    let high = Math.min(end, from + Math.max(1, maxTokens));
    while (high < end && tokenizer.count(text.slice(from, high)) <= maxTokens) {
      low = high;
      high = Math.min(end, from + (high - from) * 2);
    }
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (tokenizer.count(text.slice(from, middle)) <= maxTokens) low = middle;
      else high = middle - 1;
    }
    // Never cut a UTF-16 surrogate pair in half.
    if (low < end && /[\uDC00-\uDFFF]/.test(text[low] ?? '')) low--;
    if (low <= from) low = Math.min(end, from + 2);
    pieces.push({ start: from, end: low, tokens: tokenizer.count(text.slice(from, low)) });
    from = low;
  }
  return pieces;
}
