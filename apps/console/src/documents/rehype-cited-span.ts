import type { ExtraProps } from 'react-markdown';
import { SPAN_END, SPAN_START } from './span-sentinels.js';

// hast's types as react-markdown exposes them (hast itself is not a dependency of the console).
type Element = NonNullable<ExtraProps['node']>;
type Content = Element['children'][number];
interface Parent {
  children: Content[];
}
type Coverage = 'full' | 'partial' | 'none' | 'empty';

const SENTINELS = /([\uE000\uE001])/;
/** In an attribute, as typed or as micromark percent-encodes it in a URL (a GFM autolink's href). */
const SENTINEL_IN_PROPERTY = /\uE000|\uE001|%EE%80%8[01]/gi;
/** Elements whose whitespace-only text is layout between blocks or rows, where a mark does not belong. */
const BLOCK_PARENTS = new Set([
  'blockquote',
  'li',
  'ol',
  'section',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

/**
 * Moves the sentinels out of math, before rehype-katex typesets it (TeX has no place for them): a
 * formula the span starts or ends in is then cited whole.
 */
export function rehypeLiftMathSentinels() {
  return (tree: Parent) => lift(tree);
}

/**
 * Wraps the text between SPAN_START and SPAN_END in `<mark>` elements and removes the sentinels;
 * run after rehype-katex and rehype-highlight so marks sit inside highlighted code. The span may
 * cross any number of elements: each piece of text in it gets its own mark, a typeset formula or an
 * image one mark as a whole. Then each run of top-level blocks the span covers whole becomes one
 * block `<mark class="cited-block">` (a mark holding blocks, which browsers lay out fine): the
 * cited passage reads as one highlighted band and is one element to scroll to.
 */
export function rehypeMarkCitedSpan() {
  return (tree: Parent) => {
    mark(tree, { inside: false }, true);
    coalesce(tree);
  };
}

function lift(parent: Parent): void {
  for (let index = 0; index < parent.children.length; index++) {
    const child = parent.children[index]!;
    if (child.type !== 'element') continue;
    if (!isMath(child)) {
      lift(child);
      continue;
    }
    const found = new Set<string>();
    strip(child, found);
    if (found.has(SPAN_START)) parent.children.splice(index++, 0, { type: 'text', value: SPAN_START });
    if (found.has(SPAN_END)) parent.children.splice(++index, 0, { type: 'text', value: SPAN_END });
  }
}

/** Math as remark-math writes it, inline or display (`<pre>` around display math's `<code>`). */
function isMath(element: Element): boolean {
  const math = (candidate: Element) =>
    /\b(language-math|math-inline|math-display)\b/.test(classesOf(candidate).join(' '));
  return (
    math(element) ||
    (element.tagName === 'pre' && element.children.some((child) => child.type === 'element' && math(child)))
  );
}

function strip(node: Content, found: Set<string>): void {
  if (node.type === 'text') {
    for (const sentinel of node.value.match(/[\uE000\uE001]/g) ?? []) found.add(sentinel);
    node.value = node.value.replace(/[\uE000\uE001]/g, '');
  } else if (node.type === 'element') for (const child of node.children) strip(child, found);
}

function mark(parent: Parent, state: { inside: boolean }, blockParent: boolean): void {
  const children: Content[] = [];
  for (const child of parent.children) {
    if (child.type === 'text' || child.type === 'raw') {
      // Raw HTML comes as `raw` nodes, which react-markdown shows as text afterwards.
      for (const piece of child.value.split(SENTINELS)) {
        if (piece === SPAN_START) state.inside = true;
        else if (piece === SPAN_END) state.inside = false;
        else if (piece) {
          const node = { type: child.type, value: piece } as Content;
          children.push(state.inside && (piece.trim() || !blockParent) ? markOf([node]) : node);
        }
      }
    } else if (child.type === 'element') {
      stripProperties(child, state);
      if (isAtomic(child)) children.push(state.inside ? markOf([child]) : child);
      else {
        mark(child, state, BLOCK_PARENTS.has(child.tagName));
        children.push(child);
      }
    } else children.push(child);
  }
  parent.children = children;
}

/**
 * Sentinels in attributes are removed. Only an image's alt text is the image's content, so only
 * there does one start or end the span; in a URL the link's text holds the same sentinel.
 */
function stripProperties(element: Element, state: { inside: boolean }): void {
  for (const [name, value] of Object.entries(element.properties)) {
    if (typeof value !== 'string') continue;
    element.properties[name] = value.replace(SENTINEL_IN_PROPERTY, (found) => {
      if (name === 'alt') state.inside = found === SPAN_START || found.toUpperCase() === '%EE%80%80';
      return '';
    });
  }
}

/** Marked whole, never inside: KaTeX's layout (and its MathML) and images. */
function isAtomic(element: Element): boolean {
  if (element.tagName === 'img') return true;
  const classes = classesOf(element);
  return classes.includes('katex') || classes.includes('katex-display') || classes.includes('katex-error');
}

function classesOf(element: Element): string[] {
  const value = element.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

function markOf(children: Content[], className?: string): Element {
  return {
    type: 'element',
    tagName: 'mark',
    properties: className ? { className: [className] } : {},
    children,
  };
}

function coalesce(root: Parent): void {
  const children: Content[] = [];
  let run: Content[] = [];
  const flush = () => {
    // Whitespace and empty blocks (a rule) join a run between covered blocks, not at its end.
    const last = run.findLastIndex((node) => coverage(node) === 'full');
    if (last >= 0) children.push(markOf(run.slice(0, last + 1).flatMap(unmark), 'cited-block'));
    children.push(...run.slice(last + 1));
    run = [];
  };
  for (const child of root.children) {
    const covered = coverage(child);
    if (covered === 'full' || (covered === 'empty' && run.length > 0)) run.push(child);
    else {
      flush();
      children.push(child);
    }
  }
  flush();
  root.children = children;
}

/** How much of a node's visible content lies in marks. */
function coverage(node: Content, marked = false): Coverage {
  if (node.type === 'text' || node.type === 'raw')
    return node.value.trim() ? (marked ? 'full' : 'none') : 'empty';
  if (node.type !== 'element') return 'empty';
  const inMark = marked || node.tagName === 'mark';
  if (isAtomic(node)) return inMark ? 'full' : 'none';
  const parts = new Set(node.children.map((child) => coverage(child, inMark)));
  parts.delete('empty');
  if (parts.size === 0) return 'empty';
  return parts.size === 1 ? [...parts][0]! : 'partial';
}

/** The node with the marks inside it replaced by their content. */
function unmark(node: Content): Content[] {
  if (node.type !== 'element') return [node];
  if (node.tagName === 'mark') return node.children.flatMap(unmark);
  node.children = node.children.flatMap(unmark);
  return [node];
}
