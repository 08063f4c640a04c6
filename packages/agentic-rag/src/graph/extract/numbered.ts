/**
 * Numbered entities of textbook-style Markdown: chapters, sections, algorithms, equations,
 * tables, figures, examples and exercises, with where each is defined, every place it is
 * mentioned, and the structure and cross-references between them.
 *
 * The forms are the fixed ones of the sample textbook (simulated_ingestion/README.md):
 * `# Chapter 3: Title`, `# Appendix A: Title`, `## 3.1 Title`, bold captions `**Algorithm 3.2.**`
 * followed by their code block or table, display equations `$$ ... $$ (3.1)` introduced as
 * `**Equation 3.1**`, and references such as `Algorithm 2.4`, `Equations 19.8 to 19.10` or
 * `Eq. (3.1)`, in prose and in code comments alike. The corpus has no page numbers; a
 * `<!-- page N -->` comment sets the page from where it stands (see `NumberedExtractionOptions`).
 *
 * Pure and synchronous: text in, facts out. Offsets are UTF-16 indexes into `text`.
 */
import { ErrorCode, RagError } from '../../errors/index.js';
import type {
  DocumentFacts,
  EntityFact,
  NumberedEntityType,
  RelationFact,
  RelationType,
  Span,
} from '../facts.js';

export interface NumberedExtractionOptions {
  /**
   * The page the text starts on (a PDF page, say). A `<!-- page N -->` comment in the text sets
   * the page from that point on. Without either, entities get no `page` property.
   */
  page?: number;
}

/** A numbered entity as a reader names it: `{ type: 'Formula', number: '3.1' }` for "Eq. (3.1)". */
export interface EntityReference {
  type: NumberedEntityType;
  number: string;
}

/** `Algorithm 3.2`, `Formula 3.1`, `Appendix A`: the graph name of a numbered entity. */
export function numberedEntityName(type: NumberedEntityType, number: string): string {
  return `${type} ${number}`;
}

// ---------------------------------------------------------------------------------------------
// References: "Algorithm 3.2", "Eqs. (3.1) and (3.2)", "Equations 19.8 to 19.10", "Chapters 2–4"

/** Words that name a type, longest spelling first so `Equations` is not read as `Eq`. */
const TYPE_WORDS: ReadonlyArray<readonly [pattern: string, type: NumberedEntityType]> = [
  ['algorithms?|algs?\\.?', 'Algorithm'],
  ['equations?|eqns?\\.?|eqs?\\.?', 'Formula'],
  ['tables?', 'Table'],
  ['figures?|figs?\\.?', 'Figure'],
  ['examples?', 'Example'],
  ['exercises?', 'Exercise'],
  // "sec" without a dot is too often seconds.
  ['sections?|secs?\\.|§§?', 'Section'],
  ['chapters?|chap\\.', 'Chapter'],
  ['appendix|appendices', 'Appendix'],
];
const TYPE_MATCHERS = TYPE_WORDS.map(([pattern, type]) => ({
  pattern: new RegExp(`^(?:${pattern})$`, 'iu'),
  type,
}));

// A number is `3`, `3.2`, `3.2.1`, `A.1` or, for appendices only, `A`. It must not run on into a
// longer number: "Algorithm 3.2" is not a mention of 3.2 inside "Algorithm 3.21" or "3.2.1".
const NUMBER = '(?:[A-Za-z](?:\\.\\d+)+|\\d+(?:\\.\\d+)*|[A-Za-z])(?![\\p{L}\\p{N}_]|\\.\\d)';
const ITEM = `(?:\\(${NUMBER}\\)|${NUMBER})`;
// Separators stay on one line, so a list item on the next line is never read as a continuation.
const SEPARATOR =
  '(?:[ \\t]*,[ \\t]*(?:(?:and|or)[ \\t]+)?|[ \\t]+(?:and|or|to|through)[ \\t]+|[ \\t]*[–—-][ \\t]*)';
const GAP = '(?:(?<=[.§])[ \\t\\u00a0]?|[ \\t\\u00a0]+|[ \\t\\u00a0]*\\n[ \\t\\u00a0]*)';
const REFERENCE = new RegExp(
  `(?<![\\p{L}\\p{N}_])(${TYPE_WORDS.map(([pattern]) => pattern).join('|')})${GAP}(${ITEM}(?:${SEPARATOR}${ITEM})*)`,
  'giu',
);
// The look-behind keeps the "d" of "and" from reading as an appendix letter.
const LIST_ITEM = new RegExp(`(?<![\\p{L}\\p{N}_.])\\(?(${NUMBER})\\)?`, 'gu');

interface Mention {
  type: NumberedEntityType;
  number: string;
  span: Span;
}

const typeOfWord = (word: string) => TYPE_MATCHERS.find((matcher) => matcher.pattern.test(word))?.type;
const depth = (number: string) => number.split('.').length;
const isLetter = (number: string) => /^[A-Za-z]/.test(number);

/**
 * The canonical type for a written word and number, or null when the pair is not a numbered
 * entity: chapters have whole numbers, appendices a letter, everything else no bare letter.
 * "Appendix A.2" and "Chapter 3.2" are sections.
 */
function canonical(type: NumberedEntityType, number: string): EntityReference | null {
  const dotted = number.includes('.');
  if ((type === 'Chapter' || type === 'Appendix') && dotted) return { type: 'Section', number };
  if (type === 'Chapter') return /^\d+$/.test(number) ? { type, number } : null;
  if (type === 'Appendix') return /^[A-Z]$/.test(number) ? { type, number } : null;
  if (isLetter(number) && !dotted) return null;
  return { type, number };
}

/**
 * Every reference in `text`. `strictCase` (documents) rejects lower-case letters in numbers, which
 * in prose are words ("in this section a ..."); a user's query is upper-cased instead.
 */
function findReferences(text: string, strictCase: boolean): Mention[] {
  const mentions: Mention[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const type = typeOfWord(match[1]!);
    if (!type) continue;
    const list = match[2]!;
    const listStart = match.index + match[0].length - list.length;
    const items: Array<{ number: string; start: number; end: number; range: boolean }> = [];
    let previousEnd = 0;
    for (const item of list.matchAll(LIST_ITEM)) {
      let number = item[1]!;
      if (/[a-z]/.test(number)) {
        if (strictCase) break;
        number = number.toUpperCase();
      }
      // Parentheses belong to equation numbers only: "(Table 3.1)" closes a parenthesis.
      if (
        item[0].startsWith('(') !== item[0].endsWith(')') ||
        (item[0].startsWith('(') && type !== 'Formula')
      )
        break;
      // A list goes on only with numbers of the same shape: "Table 3.1, 42 rows" is one table.
      const first = items[0]?.number;
      if (first !== undefined && (depth(first) !== depth(number) || isLetter(first) !== isLetter(number)))
        break;
      const separator = list.slice(previousEnd, item.index);
      items.push({
        number,
        start: listStart + item.index,
        end: listStart + item.index + item[0].length,
        range: /to|through|[–—-]/.test(separator),
      });
      previousEnd = item.index + item[0].length;
    }
    items.forEach((item, index) => {
      const reference = canonical(type, item.number);
      if (!reference) return;
      // The first number carries the word: "Equations 19.8" points at what is being named.
      const start = index === 0 ? match.index : item.start;
      const previous = items[index - 1];
      if (item.range && previous) {
        for (const number of between(previous.number, item.number)) {
          mentions.push({ ...reference, number, span: { start: previous.start, end: item.end } });
        }
      }
      mentions.push({ ...reference, span: { start, end: item.end } });
    });
  }
  return mentions;
}

/** The numbers strictly between two ends of a range that share a prefix: 19.8 to 19.10 → 19.9. */
function between(from: string, to: string): string[] {
  const fromParts = from.split('.');
  const toParts = to.split('.');
  const prefix = fromParts.slice(0, -1).join('.');
  if (prefix !== toParts.slice(0, -1).join('.')) return [];
  const low = Number(fromParts.at(-1));
  const high = Number(toParts.at(-1));
  // A range is a handful of items; anything longer is a misreading, not a list to expand.
  if (!Number.isInteger(low) || !Number.isInteger(high) || high - low > 100) return [];
  const numbers: string[] = [];
  for (let value = low + 1; value < high; value += 1)
    numbers.push(prefix ? `${prefix}.${value}` : `${value}`);
  return numbers;
}

/**
 * The numbered entity a user's phrase names: "Algorithm 3.2", "algorithm 3.2", "Eq. 3.1",
 * "equation (3.1)", "Table A.1", "fig 9.3". Equations are `Formula`. The first reference wins;
 * null when there is none ("3.2 apples", "Algorithm").
 */
export function parseEntityReference(text: string): EntityReference | null {
  const first = findReferences(text, false)[0];
  return first ? { type: first.type, number: first.number } : null;
}

// ---------------------------------------------------------------------------------------------
// Blocks: just enough Markdown structure to know what a caption owns.

type BlockKind = 'heading' | 'paragraph' | 'list' | 'image' | 'code' | 'math' | 'table' | 'comment';

interface Block {
  kind: BlockKind;
  start: number;
  end: number;
}

interface Line {
  start: number;
  end: number;
  text: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING_LINE = /^ {0,3}#{1,6}(?:\s|$)/;
const startsBlock = (line: string) =>
  FENCE.test(line) || HEADING_LINE.test(line) || /^\s*(?:\$\$|\|)/.test(line);

/** Headings, fenced code, display math, tables and paragraphs; blank lines separate blocks. */
function scanBlocks(text: string): Block[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push({ start: offset, end: offset + line.length, text: line });
    offset += line.length + 1;
  }
  const blocks: Block[] = [];
  const block = (kind: BlockKind, first: number, last: number) => {
    const lastLine = lines[Math.min(last, lines.length - 1)]!;
    blocks.push({ kind, start: lines[first]!.start, end: lastLine.end });
    return Math.min(last, lines.length - 1) + 1;
  };
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!.text;
    const trimmed = line.trim();
    if (trimmed === '') {
      index += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      let last = index + 1;
      while (last < lines.length && !closing.test(lines[last]!.text)) last += 1;
      index = block('code', index, last);
    } else if (trimmed.startsWith('$$')) {
      let last = index;
      if (!trimmed.slice(2).includes('$$')) {
        last += 1;
        while (last < lines.length && !lines[last]!.text.includes('$$')) last += 1;
      }
      index = block('math', index, last);
    } else if (HEADING_LINE.test(line)) {
      index = block('heading', index, index);
    } else if (trimmed.startsWith('|')) {
      let last = index;
      while (lines[last + 1]?.text.trim().startsWith('|')) last += 1;
      index = block('table', index, last);
    } else if (/^<!--.*-->$/.test(trimmed)) {
      index = block('comment', index, index);
    } else {
      let last = index;
      while (
        last + 1 < lines.length &&
        lines[last + 1]!.text.trim() !== '' &&
        !startsBlock(lines[last + 1]!.text)
      )
        last += 1;
      const kind = /^(?:[-*+]|\d+[.)])\s/.test(trimmed)
        ? 'list'
        : trimmed.startsWith('![')
          ? 'image'
          : 'paragraph';
      index = block(kind, index, last);
    }
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Titles

const ABBREVIATION = /(?:\b(?:e\.g|i\.e|cf|vs|eqs?|figs?|algs?|secs?|no|al|approx))$/i;

/** Bold, italics, code spans and links removed, whitespace collapsed. Inline math is content: kept. */
function stripMarkup(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|[^\w*])\*(?!\s)([^*]+?)\*(?!\w)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Where each sentence after the first starts: after `.`, `?` or `!` and a space before anything
 * but a lower-case letter or digit — never inside inline math or code, nor after "e.g." or "Eq.".
 */
function sentenceStarts(text: string): number[] {
  const starts: number[] = [];
  let inMath = false;
  let inCode = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '`') inCode = !inCode;
    else if (char === '$' && !inCode) inMath = !inMath;
    else if (!inMath && !inCode && '.?!'.includes(char)) {
      const space = /^\s+(?=[^\s\p{Ll}\d])/u.exec(text.slice(index + 1));
      if (space && !ABBREVIATION.test(text.slice(0, index))) starts.push(index + 1 + space[0].length);
    }
  }
  return starts;
}

const firstSentence = (text: string) => text.slice(0, sentenceStarts(text)[0]).trim();

const cleanTitle = (text: string) => stripMarkup(text).replace(/[.:]\s*$/, '') || undefined;

// ---------------------------------------------------------------------------------------------
// Definitions

/** A defined entity's number: `3.2`, `A.1`, `3.2.1`, or a plain `12` (books that number globally). */
const DEFINED_NUMBER = '(?:[A-Z]|\\d+)(?:\\.\\d+)+|\\d+';
const CHAPTER_HEADING = /^(Chapter|Appendix)\s+(\d+|[A-Z])(?![\w.])[.:]?\s*(.*)$/;
const SECTION_HEADING = /^(?:(?:Section|§)\s*)?((?:\d+|[A-Z])(?:\.\d+)+)\.?(?:\s+(.*))?$/;
const CAPTION_WORDS = 'Algorithm|Table|Figure|Example|Exercise';
const CAPTION_HEADING = new RegExp(
  `^(${CAPTION_WORDS}|Equation)\\s+(${DEFINED_NUMBER})(?![\\w]|\\.\\d)[.:]?\\s*(.*)$`,
);
const CAPTION = new RegExp(`^\\*\\*(${CAPTION_WORDS})\\s+(${DEFINED_NUMBER})[.:]?\\*\\*\\s*`);
const BOLD_EQUATION = new RegExp(`\\*\\*(?:Equation|Eq\\.)\\s+\\(?(${DEFINED_NUMBER})\\)?\\*\\*`, 'g');
const DISPLAY_TAG = new RegExp(`\\$\\$\\s*\\((${DEFINED_NUMBER})\\)\\s*$`);
const LATEX_TAG = new RegExp(`\\\\tag\\{(${DEFINED_NUMBER})\\}`);
const PAGE_MARKER = /<!--\s*page[\s:=]*(\d+)\s*-->/gi;

interface Draft {
  type: NumberedEntityType;
  number: string;
  mentions: Map<string, Span>;
  firstAt: number;
  definition?: Span;
  title?: string;
  latex?: string;
  /** Enclosing section number (a section's parent section), from the headings above the definition. */
  section?: string;
  /** Enclosing chapter or appendix number, when the number itself does not say. */
  scopeChapter?: string;
  page?: number;
}

/** Which section and chapter the text from `start` on belongs to. */
interface Scope {
  start: number;
  section: Draft | undefined;
  chapter: Draft | undefined;
}

class Extraction {
  readonly drafts = new Map<string, Draft>();
  readonly scopes: Scope[] = [{ start: 0, section: undefined, chapter: undefined }];
  /**
   * Defined sections in document order with their heading level and container (parent section,
   * else chapter), for PART_OF and FOLLOWS.
   */
  readonly sections: Array<{ draft: Draft; level: number; container: Draft | undefined }> = [];
  readonly chapters: Draft[] = [];
  private readonly pages: Array<{ at: number; page: number }>;

  constructor(
    readonly text: string,
    private readonly startPage: number | undefined,
  ) {
    this.pages = [...text.matchAll(PAGE_MARKER)].map((match) => ({
      at: match.index,
      page: Number(match[1]),
    }));
  }

  entity(type: NumberedEntityType, number: string, at: number): Draft {
    const name = numberedEntityName(type, number);
    let draft = this.drafts.get(name);
    if (!draft) {
      draft = { type, number, mentions: new Map(), firstAt: at };
      this.drafts.set(name, draft);
    }
    draft.firstAt = Math.min(draft.firstAt, at);
    return draft;
  }

  mention(type: NumberedEntityType, number: string, span: Span): Draft {
    const draft = this.entity(type, number, span.start);
    draft.mentions.set(`${span.start}:${span.end}`, span);
    return draft;
  }

  /**
   * Defines the entity at `span` unless an earlier definition in this text already did. Headings
   * pass their parent section (a heading's own scope is itself); anything else gets the section
   * in scope where its definition starts.
   */
  define(
    draft: Draft,
    span: Span,
    title: string | undefined,
    parent?: { section: Draft | undefined },
  ): boolean {
    if (draft.definition) return false;
    const scope = this.scopeAt(span.start);
    draft.definition = span;
    draft.title = title;
    draft.section = (parent ?? scope).section?.number;
    draft.scopeChapter = scope.chapter?.number;
    draft.page = this.pageAt(span.start);
    draft.firstAt = Math.min(draft.firstAt, span.start);
    return true;
  }

  scopeAt(offset: number): Scope {
    let found = this.scopes[0]!;
    for (const scope of this.scopes) if (scope.start <= offset) found = scope;
    return found;
  }

  pageAt(offset: number): number | undefined {
    let page = this.startPage;
    for (const marker of this.pages) if (marker.at <= offset) page = marker.page;
    return page;
  }
}

/**
 * Chapter, appendix and section headings, and the section stack that scopes everything else.
 * Returns the caption headings (`### Algorithm 3.2: Variable elimination`), which are defined
 * with the bold captions once every scope is known.
 */
function readHeadings(extraction: Extraction, blocks: Block[]): Map<Block, RegExpExecArray> {
  const { text } = extraction;
  const captionHeadings = new Map<Block, RegExpExecArray>();
  const open: Array<{ level: number; section: Draft | undefined }> = [];
  let chapter: Draft | undefined;
  for (const block of blocks) {
    if (block.kind !== 'heading') continue;
    const line = text.slice(block.start, block.end);
    const level = /#+/.exec(line)![0].length;
    const contentStart = block.start + line.search(/[^\s#]/);
    const content = text
      .slice(contentStart, block.end)
      .replace(/\s+#+\s*$/, '')
      .trim();
    while (open.length > 0 && open.at(-1)!.level >= level) open.pop();
    const parent = [...open].reverse().find((heading) => heading.section)?.section;

    const chapterMatch = CHAPTER_HEADING.exec(content);
    const sectionMatch = SECTION_HEADING.exec(content);
    let section: Draft | undefined;
    if (chapterMatch && (chapterMatch[1] === 'Chapter') === /^\d+$/.test(chapterMatch[2]!)) {
      const word = chapterMatch[1] as 'Chapter' | 'Appendix';
      const number = chapterMatch[2]!;
      const labelEnd = contentStart + content.indexOf(number, word.length) + number.length;
      chapter = extraction.mention(word, number, { start: contentStart, end: labelEnd });
      open.length = 0;
      extraction.scopes.push({ start: block.start, section: undefined, chapter });
      if (extraction.define(chapter, block, cleanTitle(chapterMatch[3]!), { section: undefined }))
        extraction.chapters.push(chapter);
      continue;
    } else if (sectionMatch) {
      const number = sectionMatch[1]!;
      const numberStart = contentStart + content.indexOf(number);
      section = extraction.mention('Section', number, {
        start: numberStart,
        end: numberStart + number.length,
      });
      if (extraction.define(section, block, cleanTitle(sectionMatch[2] ?? ''), { section: parent })) {
        extraction.sections.push({ draft: section, level, container: parent ?? chapter });
      }
    } else {
      const caption = CAPTION_HEADING.exec(content);
      if (caption) captionHeadings.set(block, caption);
    }
    open.push({ level, section });
    extraction.scopes.push({ start: block.start, section: section ?? parent, chapter });
  }
  return captionHeadings;
}

/**
 * The blocks an Example or Exercise runs over: its paragraph, and what follows while the text
 * visibly continues — after a sentence left open ("...is" or "Transitions:"), after a display,
 * list or table inside it, or a paragraph opening with an italic step label (`*Prediction*`).
 */
function exampleEnd(blocks: Block[], index: number, text: string): number {
  const open = (block: Block) =>
    !/[.?!]$/.test(
      text
        .slice(block.start, block.end)
        .trimEnd()
        .replace(/[)\]*_"'”’]+$/, ''),
    );
  let end = index;
  for (let next = index + 1; next < blocks.length; next += 1) {
    const previous = blocks[end]!;
    const block = blocks[next]!;
    if (block.kind === 'comment') continue;
    const body = text.slice(block.start, block.end);
    if (block.kind === 'heading' || CAPTION.test(body) || (block.kind === 'math' && displayNumber(body)))
      break;
    const continues =
      ((previous.kind === 'paragraph' || previous.kind === 'list') && open(previous)) ||
      (previous.kind !== 'paragraph' && block.kind === 'paragraph') ||
      (block.kind === 'paragraph' && /^\*[^*\s][^*]{0,40}\*[\s(:]/.test(body));
    if (!continues) break;
    end = next;
  }
  return end;
}

/** Under a heading `### Example 3.1: Title`, the example is everything up to the next heading. */
function subsectionEnd(blocks: Block[], index: number): number {
  let end = index;
  for (let next = index + 1; next < blocks.length && blocks[next]!.kind !== 'heading'; next += 1) {
    if (blocks[next]!.kind !== 'comment') end = next;
  }
  return end;
}

const displayNumber = (display: string) => DISPLAY_TAG.exec(display)?.[1] ?? LATEX_TAG.exec(display)?.[1];

/** The next or previous block that is not a comment (page markers do not separate blocks). */
function neighbour(blocks: Block[], index: number, step: 1 | -1): Block | undefined {
  for (let at = index + step; at >= 0 && at < blocks.length; at += step) {
    if (blocks[at]!.kind !== 'comment') return blocks[at];
  }
  return undefined;
}

/** Bold captions (and caption headings) with the block each owns. */
function readCaptions(
  extraction: Extraction,
  blocks: Block[],
  captionHeadings: ReadonlyMap<Block, RegExpExecArray>,
): void {
  const { text } = extraction;
  blocks.forEach((block, index) => {
    const body = text.slice(block.start, block.end);
    const heading = captionHeadings.get(block);
    const caption = heading ?? (block.kind === 'paragraph' ? CAPTION.exec(body) : null);
    if (!caption) return;
    const word = caption[1]!;
    if (word === 'Equation') return; // a heading that names an equation: the display defines it
    const type = word as NumberedEntityType;
    const number = caption[2]!;
    const labelAt = body.indexOf(word);
    const draft = extraction.mention(type, number, {
      start: block.start + labelAt,
      end: block.start + body.indexOf(number, labelAt + word.length) + number.length,
    });
    let end = block.end;
    const rest = heading ? caption[3]! : body.slice(caption[0].length);
    let title = cleanTitle(firstSentence(rest.trim()));
    if (type === 'Example' || type === 'Exercise') {
      // `**Example 3.1.** *Variable elimination on the conveyor network.* We observe ...`
      const italic = /^\*([^*]+)\*/.exec(rest.trim());
      if (italic) title = cleanTitle(italic[1]!);
      end = blocks[heading ? subsectionEnd(blocks, index) : exampleEnd(blocks, index, text)]!.end;
    } else {
      const owned = { Algorithm: 'code', Table: 'table', Figure: 'image' } as const;
      const next = neighbour(blocks, index, 1);
      if (next && next.kind === owned[type as keyof typeof owned]) end = next.end;
    }
    extraction.define(draft, { start: block.start, end }, title);
  });
}

/** Numbered display equations, with the paragraph on either side that introduces them in bold. */
function readDisplays(extraction: Extraction, blocks: Block[]): void {
  const { text } = extraction;
  const tagged = new Set(
    blocks.flatMap((block) => {
      const number = block.kind === 'math' ? displayNumber(text.slice(block.start, block.end)) : undefined;
      return number ? [number] : [];
    }),
  );
  /** The bold label `**Equation 3.1**` in a paragraph: its number and offset in the paragraph. */
  const labelIn = (block: Block | undefined, number: string | undefined) => {
    if (!block || block.kind !== 'paragraph') return undefined;
    const labels = [...text.slice(block.start, block.end).matchAll(BOLD_EQUATION)];
    // An untagged display takes its number from a bold label that no tagged display claims.
    const label = labels.find((match) =>
      number === undefined ? !tagged.has(match[1]!) : match[1] === number,
    );
    return label && { number: label[1]!, at: label.index };
  };
  blocks.forEach((block, index) => {
    if (block.kind !== 'math') return;
    const display = text.slice(block.start, block.end);
    const before = neighbour(blocks, index, -1);
    const after = neighbour(blocks, index, 1);
    const number =
      displayNumber(display) ?? (labelIn(before, undefined) ?? labelIn(after, undefined))?.number;
    if (number === undefined) return;
    const draft = extraction.entity('Formula', number, block.start);
    if (draft.definition) return;

    // The definition reaches into the sentence that introduces the display in bold, before it
    // ("Combining Equations 19.2 to 19.4 gives ... **Equation 19.5**:") or after it ("**Equation
    // 2.1** is the normalization constraint."), so what that sentence cites is the formula's.
    const span = { start: block.start, end: block.end };
    let title: string | undefined;
    for (const side of [before, after]) {
      const label = labelIn(side, number);
      if (!side || !label) continue;
      const paragraph = text.slice(side.start, side.end);
      const starts = sentenceStarts(paragraph);
      const sentenceStart = starts.filter((start) => start <= label.at).at(-1) ?? 0;
      const sentenceEnd = starts.find((start) => start > label.at) ?? paragraph.length;
      if (side === before) span.start = side.start + sentenceStart;
      else span.end = side.start + paragraph.slice(0, sentenceEnd).trimEnd().length;
      title ??= equationName(paragraph.slice(sentenceStart, sentenceEnd), number);
    }
    const tag = DISPLAY_TAG.exec(display);
    if (tag) {
      const tagStart = block.start + tag.index + tag[0].indexOf('(');
      extraction.mention('Formula', number, { start: tagStart, end: tagStart + number.length + 2 });
    }
    const open = display.indexOf('$$');
    const close = display.indexOf('$$', open + 2);
    draft.latex = display.slice(open + 2, close < 0 ? undefined : close).trim();
    extraction.define(draft, span, title);
  });
}

/** "the **Kalman gain**, **Equation 19.8**" → "Kalman gain": a bold name just before the label. */
function equationName(paragraph: string, number: string): string | undefined {
  const escaped = number.replace(/\./g, '\\.');
  const named = new RegExp(
    `\\*\\*([^*\\n]+)\\*\\*(?:\\s+[a-z]+){0,2}\\s*[,(]?\\s*\\*\\*(?:Equation|Eq\\.)\\s+\\(?${escaped}\\)?\\*\\*`,
  ).exec(paragraph);
  return named ? cleanTitle(named[1]!) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Relations

const COUNTED: ReadonlySet<RelationType> = new Set(['REFERENCES', 'CITES', 'USES_IN']);

function relationsOf(extraction: Extraction, references: Mention[]): RelationFact[] {
  const relations = new Map<string, RelationFact>();
  const relate = (from: Draft, to: Draft, type: RelationType) => {
    if (from === to) return;
    const fromName = numberedEntityName(from.type, from.number);
    const toName = numberedEntityName(to.type, to.number);
    const key = `${type}\u0000${fromName}\u0000${toName}`;
    const existing = relations.get(key);
    if (existing) {
      if (COUNTED.has(type)) existing.weight = (existing.weight ?? 1) + 1;
      return;
    }
    relations.set(key, {
      from: { type: from.type, name: fromName },
      to: { type: to.type, name: toName },
      type,
      weight: 1,
    });
  };

  const drafts = [...extraction.drafts.values()];
  const defined = drafts.filter((draft) => draft.definition);

  // Structure: what contains what, and which section comes after which.
  for (const { draft, container } of extraction.sections) if (container) relate(draft, container, 'PART_OF');
  for (const draft of defined) {
    if (draft.type === 'Section' || draft.type === 'Chapter' || draft.type === 'Appendix') continue;
    const scope = extraction.scopeAt(draft.definition!.start);
    const container = scope.section ?? scope.chapter;
    if (container) relate(draft, container, 'PART_OF');
  }
  extraction.sections.forEach((current, index) => {
    const previous = extraction.sections
      .slice(0, index)
      .reverse()
      .find((section) => section.container === current.container && section.level === current.level);
    if (previous) relate(current.draft, previous.draft, 'FOLLOWS');
  });
  extraction.chapters.forEach((chapter, index) => {
    const previous = extraction.chapters[index - 1];
    if (previous) relate(chapter, previous, 'FOLLOWS');
  });

  // References: from the innermost definition around the mention, else the enclosing section.
  for (const reference of references) {
    const target = extraction.drafts.get(numberedEntityName(reference.type, reference.number))!;
    let source: Draft | undefined;
    for (const draft of defined) {
      const span = draft.definition!;
      if (span.start > reference.span.start || span.end < reference.span.end) continue;
      if (!source || span.end - span.start < source.definition!.end - source.definition!.start)
        source = draft;
    }
    if (!source) {
      const scope = extraction.scopeAt(reference.span.start);
      source = scope.section ?? scope.chapter;
    }
    if (!source || source === target) continue;
    relate(source, target, source.type === 'Example' || source.type === 'Exercise' ? 'CITES' : 'REFERENCES');
    if (source.type === 'Algorithm' && target.type === 'Formula') relate(target, source, 'USES_IN');
  }
  return [...relations.values()];
}

// ---------------------------------------------------------------------------------------------

/** Chapter 3 of `3.2`, `A` of `A.1`; for undotted numbers, the chapter the definition sits in. */
function chapterOf(draft: Draft): string | undefined {
  if (draft.type === 'Chapter' || draft.type === 'Appendix') return draft.number;
  return draft.number.includes('.') ? draft.number.split('.')[0] : draft.scopeChapter;
}

function toFact(draft: Draft): EntityFact {
  const properties: Record<string, unknown> = { number: draft.number };
  const chapter = chapterOf(draft);
  if (chapter !== undefined) properties.chapter = chapter;
  if (draft.definition) {
    if (draft.title !== undefined) properties.title = draft.title;
    if (draft.section !== undefined) properties.section = draft.section;
    if (draft.page !== undefined) properties.page = draft.page;
    if (draft.latex !== undefined) properties.latex = draft.latex;
  }
  const fact: EntityFact = {
    type: draft.type,
    name: numberedEntityName(draft.type, draft.number),
    properties,
    mentions: [...draft.mentions.values()].sort((a, b) => a.start - b.start || a.end - b.end),
  };
  if (draft.type === 'Formula') fact.aliases = [`Equation ${draft.number}`, `Eq. ${draft.number}`];
  if (draft.definition) fact.definition = draft.definition;
  return fact;
}

/**
 * The numbered entities of one document's text and the relations between them.
 *
 * Entities are named `<Type> <number>` (`Algorithm 3.2`, `Formula 3.1`, `Section 3.1`,
 * `Chapter 3`, `Appendix A`); each appears once, with every mention. One defined in this text
 * has a `definition` span (caption and owned block, display with its bold introduction, or
 * heading line) and `title`, `section`, `page` and, for formulas, `latex` properties; one only
 * referred to has neither. Relations: PART_OF (entity → section → chapter), FOLLOWS (section →
 * previous sibling, chapter → previous chapter), REFERENCES and CITES (Examples and Exercises)
 * from the definition or section around a mention to the entity mentioned, and USES_IN from a
 * formula to an algorithm whose definition mentions it. Counted relations weigh their mentions.
 */
export function extractNumberedEntities(
  text: string,
  options: NumberedExtractionOptions = {},
): DocumentFacts {
  if (options.page !== undefined && !(Number.isInteger(options.page) && options.page >= 0)) {
    throw new RagError(ErrorCode.INVALID_INPUT, 'page must be a non-negative integer', {
      details: { page: options.page },
    });
  }
  const extraction = new Extraction(text, options.page);
  const blocks = scanBlocks(text);
  readCaptions(extraction, blocks, readHeadings(extraction, blocks));
  readDisplays(extraction, blocks);
  const references = findReferences(text, true);
  for (const reference of references) extraction.mention(reference.type, reference.number, reference.span);

  const relations = relationsOf(extraction, references);
  const entities = [...extraction.drafts.values()].sort((a, b) => a.firstAt - b.firstAt).map(toFact);
  return { entities, relations };
}
