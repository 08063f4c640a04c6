import type { Block, BlockType } from './document.js';
import type { Tokenizer } from './tokenizer.js';

export interface ChunkerOptions {
  tokenizer: Tokenizer;
  /**
   * Upper bound on a chunk's tokens. Oversized blocks are cut a little below it so their section
   * heading still fits; only a heading trail longer than that reserve can push a chunk past it.
   */
  maxTokens: number;
  /** Tokens of the previous chunk repeated at the start of the next one within a section. */
  overlapTokens: number;
  /** A heading closes the current chunk only once it holds this many tokens (default maxTokens / 4). */
  minTokens?: number;
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
  const units = toUnits(text, blocks, tokenizer, Math.max(1, maxTokens - headingReserve(maxTokens)));
  const chunks: Chunk[] = [];

  let current: OpenChunk | null = null;

  const flush = () => {
    if (!current || !current.fresh) return;
    const last = current.units[current.units.length - 1]!;
    const start = current.start;
    const end = last.end;
    const slice = text.slice(start, end);
    const firstContent = current.units.find((unit) => unit.type !== 'heading') ?? last;
    const blockTypes = [...new Set(current.units.map((unit) => unit.type))];
    chunks.push({
      index: chunks.length,
      text: slice,
      start,
      end,
      tokenCount: tokenizer.count(slice),
      sectionPath: firstContent.path,
      metadata: {
        blockTypes,
        ...(current.units.some((unit) => unit.splitAtomic) ? { splitAtomicBlock: true as const } : {}),
      },
    });
  };

  for (const unit of units) {
    if (
      current &&
      unit.type === 'heading' &&
      current.units.some((u) => u.type !== 'heading') &&
      current.tokens >= minTokens
    ) {
      flush();
      current = null;
    }
    // A chunk holding only headings is never emitted alone: the heading goes with what follows.
    const hasContent = current?.units.some((u) => u.type !== 'heading') ?? false;
    if (current && hasContent && current.tokens + unit.tokens + 1 > maxTokens) {
      flush();
      const overlap: OpenChunk | null =
        unit.type === 'heading' ? null : overlapFrom(current, text, tokenizer, overlapTokens);
      current = overlap && overlap.tokens + unit.tokens + 1 <= maxTokens ? overlap : null;
    }
    if (!current) current = { units: [unit], start: unit.start, tokens: unit.tokens, fresh: true };
    else {
      current.units.push(unit);
      current.tokens += unit.tokens + 1;
      current.fresh = true;
    }
  }
  flush();
  return chunks;
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
    if (unit.type === 'heading') break;
    const points = ATOMIC.has(unit.type) ? [unit.start] : [...unit.resumePoints].reverse();
    let fits = true;
    for (const point of points) {
      if (point <= chunk.start) break; // the whole chunk again is no overlap
      if (tokenizer.count(text.slice(point, end)) > budget) {
        fits = false;
        break;
      }
      best = point;
      bestUnits = units.slice(index);
    }
    if (!fits || ATOMIC.has(unit.type)) break;
  }
  if (best === null) return null;
  const start = best;
  const carried = bestUnits.map((unit, position) => (position === 0 ? { ...unit, start } : unit));
  return { units: carried, start, tokens: tokenizer.count(text.slice(start, end)), fresh: false };
}

/** Room kept free in pieces of a cut block for the heading that opens their chunk. */
function headingReserve(maxTokens: number): number {
  return Math.min(32, Math.floor(maxTokens / 8));
}

function toUnits(text: string, blocks: readonly Block[], tokenizer: Tokenizer, pieceTokens: number): Unit[] {
  const units: Unit[] = [];
  let path: string[] = [];
  for (const block of blocks) {
    if (block.end <= block.start || text.slice(block.start, block.end).trim() === '') continue;
    if (block.type === 'heading') {
      const level = block.level ?? 1;
      path = [...path.slice(0, level - 1), block.title ?? text.slice(block.start, block.end).trim()];
    }
    const tokens = tokenizer.count(text.slice(block.start, block.end));
    if (tokens <= pieceTokens || block.type === 'heading') {
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
    for (const piece of splitOversized(text, block, tokenizer, pieceTokens)) {
      units.push({
        type: block.type,
        start: piece.start,
        end: piece.end,
        tokens: piece.tokens,
        path,
        resumePoints: resumePoints(text, piece.start, piece.end, block.type),
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

/**
 * Cuts one block that alone exceeds the budget: at line boundaries for code, math, tables and
 * lists; at sentence, then word boundaries for prose; mid-word only for a run with no spaces.
 */
function splitOversized(text: string, block: Block, tokenizer: Tokenizer, maxTokens: number): Piece[] {
  const levels: RegExp[] = LINE_SPLIT.has(block.type)
    ? [/\n/g, /\s+/g]
    : [/[.!?]["')\]]?\s+/g, /\n/g, /\s+/g];
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
  const tokens = tokenizer.count(text.slice(start, end));
  if (tokens <= maxTokens) return [{ start, end, tokens }];
  const [level, ...finer] = levels;
  if (!level) return hardSplit(text, start, end, tokenizer, maxTokens);

  const cuts: number[] = [];
  for (const match of text.slice(start, end).matchAll(level))
    cuts.push(start + match.index + match[0].length);
  const segments: Array<[number, number]> = [];
  let segmentStart = start;
  for (const cut of cuts) {
    if (cut > segmentStart && cut < end) {
      segments.push([segmentStart, cut]);
      segmentStart = cut;
    }
  }
  segments.push([segmentStart, end]);
  if (segments.length === 1) return splitRange(text, start, end, finer, tokenizer, maxTokens);

  const pieces: Piece[] = [];
  let pieceStart = -1;
  let pieceEnd = -1;
  let pieceTokens = 0;
  const pushPiece = () => {
    if (pieceStart < 0) return;
    const trimmedEnd = pieceStart + text.slice(pieceStart, pieceEnd).trimEnd().length;
    pieces.push({
      start: pieceStart,
      end: trimmedEnd,
      tokens: tokenizer.count(text.slice(pieceStart, trimmedEnd)),
    });
    pieceStart = -1;
    pieceTokens = 0;
  };
  for (const [segmentFrom, segmentTo] of segments) {
    const segmentTokens = tokenizer.count(text.slice(segmentFrom, segmentTo));
    if (segmentTokens > maxTokens) {
      pushPiece();
      pieces.push(...splitRange(text, segmentFrom, segmentTo, finer, tokenizer, maxTokens));
      continue;
    }
    if (pieceStart >= 0 && pieceTokens + segmentTokens > maxTokens) pushPiece();
    if (pieceStart < 0) pieceStart = segmentFrom;
    pieceEnd = segmentTo;
    pieceTokens += segmentTokens;
  }
  pushPiece();
  return pieces.filter((piece) => piece.end > piece.start);
}

/** Last resort for a run without spaces: the longest prefix within budget, by binary search. */
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
    let high = end;
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
