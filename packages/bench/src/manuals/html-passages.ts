import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { collapseWhitespace as collapse, preformattedText as rawText } from '@agentic-rag/core';

/**
 * Cuts one page of an installed HTML manual (PostgreSQL's DocBook output, Python's Sphinx output)
 * into passages at the manual's own section boundaries: the eval datasets' passages
 * (cli/build-docs-dataset.ts) and the benchmarks' real-text corpora (bench/corpora/). The engine's
 * HTML loader is deliberately not reused, so a dataset does not inherit the chunking it measures.
 */

/** How one manual marks its sections and its chrome. */
export interface ManualMarkup {
  /** The element that holds the page's content (everything outside it is chrome). */
  isContentRoot: (element: Element) => boolean;
  /** An element that opens a section with its own heading and anchor. */
  isSection: (element: Element) => boolean;
  /** Navigation, tables of contents, permalinks: never content. */
  isChrome: (element: Element) => boolean;
  /** The page title as a reader sees it, from the <title> text. */
  cleanTitle: (title: string) => string;
}

export interface Passage {
  _id: string;
  title: string;
  text: string;
}

export interface PassageLimits {
  minWords: number;
  maxWords: number;
}

interface Block {
  text: string;
  words: number;
  /** A definition term (a function signature, an option name) stays with the text it defines. */
  keepWithNext: boolean;
}

interface Section {
  anchor: string;
  /** Headings from the page's outermost section down to this one. */
  headings: string[];
  blocks: Block[];
}

interface Unit {
  id: string;
  heading: string;
  blocks: Block[];
  words: number;
}

const NEVER_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'nav',
  'head',
  'form',
  'button',
]);
const BLOCK_ELEMENTS = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'blockquote', 'figure',
  'figcaption', 'dl', 'dd', 'ul', 'ol', 'address', 'details', 'summary', 'hr', 'caption',
]); // prettier-ignore

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** Cuts one page; `pageId` is the page's path without `.html` (`sql-createtable`, `library/json`). */
export function pagePassages(
  html: string,
  pageId: string,
  markup: ManualMarkup,
  limits: PassageLimits,
): Passage[] {
  const dom = parseDocument(html, { decodeEntities: true, lowerCaseTags: true });
  const titleElement = findFirst(dom.children, (element) => element.name === 'title');
  const pageTitle = markup.cleanTitle(collapse(titleElement ? textOf(titleElement) : pageId));
  const root = findFirst(dom.children, markup.isContentRoot);
  if (!root) return [];
  const sections = collectSections(root, markup);
  const units: Unit[] = [];
  const usedAnchors = new Set<string>();
  for (const section of sections) {
    if (section.blocks.length === 0) continue;
    const id = units.length === 0 ? pageId : `${pageId}#${uniqueAnchor(section, usedAnchors)}`;
    // The outermost section's heading is the page title; nested ones say where they sit.
    const heading = section.headings.slice(1).join(' › ');
    units.push(
      ...splitLong({ id, heading, blocks: section.blocks, words: sumWords(section.blocks) }, limits),
    );
  }
  // A page that is only a heading (a chapter page whose table of contents was dropped) says nothing.
  const passages = mergeShort(units, limits).filter((unit) => unit.words >= limits.minWords / 4);
  return passages.map((unit) => ({
    _id: unit.id,
    title: unit.heading === '' ? pageTitle : `${pageTitle} — ${unit.heading}`,
    text: unit.blocks.map((block) => block.text).join('\n\n'),
  }));
}

/**
 * Sections in document order; text after a nested section goes back to its parent. The content
 * root is a pseudo-section first in the list: it is dropped when it holds no text of its own.
 */
function collectSections(root: Element, markup: ManualMarkup): Section[] {
  const sections: Section[] = [];
  const visitSection = (element: Element, parentHeadings: string[]) => {
    const section: Section = {
      anchor: element === root ? '' : (element.attribs.id ?? ''),
      headings: parentHeadings,
      blocks: [],
    };
    let named = false;
    sections.push(section);
    const writer = new BlockWriter(section.blocks);
    const visit = (node: ChildNode): void => {
      if (node.type === 'text') {
        writer.inline(node.data);
        return;
      }
      if (node.type !== 'tag') return;
      const child = node;
      if (NEVER_CONTENT.has(child.name) || markup.isChrome(child)) return;
      if (markup.isSection(child)) {
        writer.flush();
        visitSection(child, section.headings);
        return;
      }
      if (/^h[1-6]$/.test(child.name)) {
        writer.flush();
        const text = cleanHeading(textOf(child, markup));
        // The first heading names the section; later ones (rubrics, admonition titles) are text.
        if (!named && element !== root) section.headings = [...parentHeadings, text];
        named = true;
        writer.block(text);
        return;
      }
      switch (child.name) {
        case 'pre':
          writer.flush();
          writer.block(rawText(child).replace(/^\n+/, '').replace(/\s+$/, ''));
          return;
        case 'table':
          writer.flush();
          writer.block(renderTable(child, markup));
          return;
        case 'dt':
          writer.flush();
          child.children.forEach(visit);
          writer.flush(true);
          return;
        case 'li':
          writer.flush();
          writer.inline('- ');
          child.children.forEach(visit);
          writer.flush();
          return;
        case 'br':
          writer.inline(' ');
          return;
        default:
          if (BLOCK_ELEMENTS.has(child.name)) writer.flush();
          child.children.forEach(visit);
          if (BLOCK_ELEMENTS.has(child.name)) writer.flush();
      }
    };
    for (const child of element.children) visit(child);
    writer.flush();
  };
  visitSection(root, []);
  return sections[0]?.blocks.length === 0 ? sections.slice(1) : sections;
}

/** Collects inline text into paragraphs; a block element ends the current one. */
class BlockWriter {
  private buffer = '';
  constructor(private readonly blocks: Block[]) {}

  inline(text: string): void {
    this.buffer += text.replace(/\s+/g, ' ');
  }

  flush(keepWithNext = false): void {
    const text = this.buffer.trim();
    this.buffer = '';
    if (text === '' || text === '-') return;
    this.blocks.push({ text, words: countWords(text), keepWithNext });
  }

  block(text: string): void {
    if (text.trim() === '') return;
    this.blocks.push({ text, words: countWords(text), keepWithNext: false });
  }
}

/**
 * A section over the limit is cut between blocks into near-equal parts (each cut at the block
 * boundary nearest its share of the words); ids gain `/2`, `/3`.
 */
function splitLong(unit: Unit, limits: PassageLimits): Unit[] {
  if (unit.words <= limits.maxWords) return [unit];
  const blocks = unit.blocks.flatMap((block) => splitBlock(block, limits.maxWords));
  return cutBalanced(blocks, limits.maxWords).map((part, index) => ({
    id: index === 0 ? unit.id : `${unit.id}/${index + 1}`,
    heading: unit.heading,
    blocks: part,
    words: sumWords(part),
  }));
}

function cutBalanced(blocks: Block[], maxWords: number): Block[][] {
  const total = sumWords(blocks);
  if (total <= maxWords || blocks.length < 2) return [blocks];
  const parts = Math.ceil(total / maxWords);
  // cumulative[i] = words before the cut after block i-1; a definition term keeps its definition.
  const cumulative: number[] = [0];
  for (const block of blocks) cumulative.push(cumulative.at(-1)! + block.words);
  const cuts: number[] = [];
  for (let share = 1; share < parts; share++) {
    const goal = (share * total) / parts;
    let best = -1;
    for (let index = (cuts.at(-1) ?? 0) + 1; index < blocks.length; index++) {
      if (blocks[index - 1]!.keepWithNext) continue;
      if (best === -1 || Math.abs(cumulative[index]! - goal) < Math.abs(cumulative[best]! - goal))
        best = index;
    }
    if (best !== -1) cuts.push(best);
  }
  if (cuts.length === 0) return [blocks];
  const pieces = [0, ...cuts, blocks.length]
    .slice(0, -1)
    .map((start, index) => blocks.slice(start, [...cuts, blocks.length][index]));
  return pieces.flatMap((piece) => (piece.length < blocks.length ? cutBalanced(piece, maxWords) : [piece]));
}

/**
 * A single code listing or table over the limit is cut between lines, and a line (a long table
 * row, a paragraph) that is still over it between sentences.
 */
function splitBlock(block: Block, maxWords: number): Block[] {
  if (block.words <= maxWords) return [block];
  const byLine = block.text.includes('\n');
  const pieces = (byLine ? block.text.split('\n') : block.text.split(/(?<=[.;:])\s+/)).flatMap((piece) => {
    const words = countWords(piece);
    return byLine && words > maxWords
      ? splitBlock({ text: piece, words, keepWithNext: false }, maxWords)
      : [{ text: piece, words, keepWithNext: false }];
  });
  const separator = byLine ? '\n' : ' ';
  const parts = Math.ceil(block.words / maxWords);
  const target = block.words / parts;
  const out: Block[] = [];
  let current: string[] = [];
  let words = 0;
  const close = () => {
    if (current.length > 0) out.push({ text: current.join(separator), words, keepWithNext: false });
    current = [];
    words = 0;
  };
  for (const piece of pieces) {
    if (words > 0 && words + piece.words > maxWords) close();
    current.push(piece.text);
    words += piece.words;
    if (words >= target) close();
  }
  close();
  return out;
}

/**
 * Sections under the minimum join the next one on the same page (or the previous, at the end)
 * while the two fit the maximum; a fragment (a bare heading, a one-line note) joins regardless.
 */
function mergeShort(units: Unit[], limits: PassageLimits): Unit[] {
  const fragment = limits.minWords / 2;
  const fits = (first: Unit, second: Unit) =>
    first.words + second.words <= limits.maxWords || Math.min(first.words, second.words) < fragment;
  const merged: Unit[] = [];
  for (const unit of units) {
    const last = merged.at(-1);
    if (last && last.words < limits.minWords && fits(last, unit)) {
      merged[merged.length - 1] = join(last, unit);
    } else {
      merged.push(unit);
    }
  }
  const last = merged.at(-1);
  const previous = merged.at(-2);
  if (last && previous && last.words < limits.minWords && fits(previous, last)) {
    merged.splice(-2, 2, join(previous, last));
  }
  return merged;
}

function join(first: Unit, second: Unit): Unit {
  // "Compatibility" and "Compatibility › Temporary Tables" read as the second alone.
  const parts = [...first.heading.split('; '), second.heading].filter((heading) => heading !== '');
  const headings = parts.filter(
    (heading, index) =>
      parts.indexOf(heading) === index && !parts.some((other) => other.startsWith(`${heading} › `)),
  );
  return {
    id: first.id,
    heading: headings.join('; '),
    blocks: [...first.blocks, ...second.blocks],
    words: first.words + second.words,
  };
}

/** Readable anchors: the manual's own id, or the heading's slug where the id is generated. */
function uniqueAnchor(section: Section, used: Set<string>): string {
  const own = section.anchor.toLowerCase();
  const generated = own === '' || /^id-?[\d.]+$/.test(own);
  const base = generated ? slug(section.headings.at(-1) ?? 'section') : own;
  let anchor = base;
  for (let number = 2; used.has(anchor); number++) anchor = `${base}-${number}`;
  used.add(anchor);
  return anchor;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}

/** Headings lose their numbering ("5.4.1. ", "Chapter 5. ") and permalink marks. */
export function cleanHeading(text: string): string {
  return collapse(text.replace(/¶/g, ''))
    .replace(/^(?:Chapter|Appendix|Part)\s+[\dA-Z]+\.\s+/, '')
    .replace(/^(?:[\dA-Z]+\.)+\d*\.?\s+/, '')
    .trim();
}

function renderTable(table: Element, markup: ManualMarkup): string {
  const rows: string[] = [];
  const walk = (element: Element) => {
    for (const child of element.children) {
      if (child.type !== 'tag') continue;
      if (child.name === 'tr') {
        const cells = child.children
          .filter(
            (cell): cell is Element => cell.type === 'tag' && (cell.name === 'td' || cell.name === 'th'),
          )
          .map((cell) => collapse(textOf(cell, markup)));
        if (cells.some((cell) => cell !== '')) rows.push(cells.join(' | '));
      } else {
        walk(child);
      }
    }
  };
  walk(table);
  return rows.join('\n');
}

function findFirst(nodes: ChildNode[], match: (element: Element) => boolean): Element | undefined {
  for (const node of nodes) {
    if (node.type !== 'tag' && node.type !== 'root') continue;
    const element = node as Element;
    if (node.type === 'tag' && match(element)) return element;
    const found = findFirst(element.children, match);
    if (found) return found;
  }
  return undefined;
}

function textOf(node: ChildNode, markup?: ManualMarkup): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag') return '';
  if (markup && (NEVER_CONTENT.has(node.name) || markup.isChrome(node))) return '';
  return node.children.map((child) => textOf(child, markup)).join(node.name === 'br' ? ' ' : '');
}

function sumWords(blocks: Block[]): number {
  return blocks.reduce((total, block) => total + block.words, 0);
}
