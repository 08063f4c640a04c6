import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { collapse, rawText } from './html-text.js';
import type { Loader } from './loader.js';
import { markdownDocument } from './markdown.js';

/** Never content: code that runs, styling, and site chrome repeated on every page. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'nav',
  'footer',
  'head',
  'button',
  'form',
]);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'aside',
  'blockquote',
  'figure',
  'figcaption',
  'dd',
  'address',
  'details',
  'summary',
  'hr',
]);

/**
 * HTML becomes Markdown-shaped text (headings as `#`, `<pre>` as fences, tables as pipe rows,
 * list items as `-`) and then goes through the Markdown path, so both share one block model and
 * one chunker. Scripts, styles and navigation are dropped.
 */
export const loadHtml: Loader = (input) => {
  const dom = parseDocument(input.text, { decodeEntities: true, lowerCaseTags: true });
  const titleElement = findFirst(dom.children, (element) => element.name === 'title');
  const canonical = findFirst(
    dom.children,
    (element) =>
      (element.name === 'link' && element.attribs.rel === 'canonical') ||
      (element.name === 'meta' && element.attribs.property === 'og:url'),
  );
  const out: string[] = [];
  renderChildren(dom.children, out);
  const text =
    out
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n';
  const htmlTitle = titleElement ? collapse(textOf(titleElement)) : '';
  const url = canonical ? (canonical.attribs.href ?? canonical.attribs.content ?? null) : null;
  const document = markdownDocument({ sourcePath: input.sourcePath, text }, { kind: 'html', url });
  if (htmlTitle) document.title = htmlTitle;
  return { documents: [document], failures: [] };
};

function renderChildren(nodes: ChildNode[], out: string[]): void {
  for (const node of nodes) render(node, out);
}

function render(node: ChildNode, out: string[]): void {
  if (node.type === 'text') {
    out.push(node.data.replace(/\s+/g, ' '));
    return;
  }
  if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') {
    if ('children' in node) renderChildren(node.children as ChildNode[], out);
    return;
  }
  const element = node as Element;
  const name = element.name;
  if (
    SKIPPED.has(name) ||
    element.attribs.hidden !== undefined ||
    element.attribs['aria-hidden'] === 'true' ||
    isPermalink(element)
  )
    return;

  const heading = /^h([1-6])$/.exec(name);
  if (heading) {
    out.push(`\n\n${'#'.repeat(Number(heading[1]))} ${collapse(textOf(element))}\n\n`);
  } else if (name === 'pre') {
    const code = findFirst(element.children, (child) => child.name === 'code');
    const language =
      /(?:language|lang)-([\w+#-]+)/.exec(code?.attribs.class ?? element.attribs.class ?? '')?.[1] ?? '';
    const body = rawText(element).replace(/^\n/, '').replace(/\s+$/, '');
    out.push(`\n\n\`\`\`${language}\n${body}\n\`\`\`\n\n`);
  } else if (name === 'br') {
    out.push('\n');
  } else if (name === 'li') {
    const ordered = element.parent && (element.parent as Element).name === 'ol';
    out.push(`\n${ordered ? '1.' : '-'} `);
    const inner: string[] = [];
    renderChildren(element.children, inner);
    const item = inner.join('');
    // A code block inside an item keeps its lines; anything else is folded onto the item's line.
    out.push(
      item.includes('```') ? item.trim().replace(/\n{3,}/g, '\n\n') : item.replace(/\s*\n\s*/g, ' ').trim(),
    );
    out.push('\n');
  } else if (name === 'ul' || name === 'ol') {
    out.push('\n\n');
    renderChildren(element.children, out);
    out.push('\n\n');
  } else if (name === 'dl') {
    out.push(`\n\n${renderDefinitions(element)}\n\n`);
  } else if (name === 'table') {
    out.push(`\n\n${renderTable(element)}\n\n`);
  } else if (name === 'code') {
    out.push(`\`${textOf(element)}\``);
  } else if (BLOCK.has(name)) {
    out.push('\n\n');
    renderChildren(element.children, out);
    out.push('\n\n');
  } else {
    renderChildren(element.children, out);
  }
}

/**
 * Not content: a heading's or a definition's "¶" link (Sphinx, DocBook), a link to itself; and
 * navigation a page marks by its role or class (Sphinx's "The Python Standard Library »" trail,
 * DocBook's navheader).
 */
function isPermalink(element: Element): boolean {
  return (
    (element.name === 'a' && /\bheaderlink\b/.test(element.attribs.class ?? '')) ||
    element.attribs.role === 'navigation' ||
    element.attribs.role === 'search' ||
    // DocBook's Prev/Up/Home/Next tables above and below every page.
    /\bnav(header|footer)\b/.test(element.attribs.class ?? '')
  );
}

/**
 * A definition list keeps each term with its description, as a list item: `--jobs`, `-j`: "Run the dump in
 * parallel ...". Apart, the term is a fragment no answer can quote and the description never
 * names what it describes (which option, which function), so the term opens the description's
 * first paragraph. A description that opens with a block of its own (code, a list, a table)
 * follows the term on its own lines instead.
 */
function renderDefinitions(list: Element): string {
  const parts: string[] = [];
  let terms: string[] = [];
  for (const child of list.children) {
    if (child.type !== 'tag') continue;
    if (child.name === 'dt') {
      const inner: string[] = [];
      renderChildren(child.children, inner);
      const term = inner
        .join('')
        .replace(/\s*\n\s*/g, ' ')
        .replace(/`\s+`/g, '`, `')
        .trim();
      if (term) terms.push(term);
    } else if (child.name === 'dd') {
      const inner: string[] = [];
      renderChildren(child.children, inner);
      const body = inner
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      const term = terms.join(', ');
      terms = [];
      if (!term) parts.push(body);
      else if (!body) parts.push(`- ${term}`);
      else if (/^(```|#|[-*] |\d+\. |\|)/.test(body)) parts.push(`- ${term}\n\n${body}`);
      else {
        // The term and its first paragraph are one list item, quoted whole; the description's
        // further paragraphs follow as paragraphs of their own.
        const [first = '', ...rest] = body.split(/\n{2,}/);
        parts.push([`- ${term}: ${first.replace(/\s*\n\s*/g, ' ')}`, ...rest].join('\n\n'));
      }
    } else {
      const inner: string[] = [];
      render(child, inner);
      parts.push(inner.join('').trim());
    }
  }
  if (terms.length > 0) parts.push(`- ${terms.join(', ')}`);
  return parts.filter(Boolean).join('\n\n');
}

function renderTable(table: Element): string {
  const rows: string[][] = [];
  let headerRows = 0;
  walk(table, (element) => {
    if (element.name !== 'tr') return true;
    const cells = element.children
      .filter(
        (child): child is Element => child.type === 'tag' && (child.name === 'td' || child.name === 'th'),
      )
      .map((cell) => collapse(textOf(cell)).replace(/\|/g, '\\|'));
    if (
      rows.length === headerRows &&
      element.children.some((child) => child.type === 'tag' && child.name === 'th')
    )
      headerRows++;
    rows.push(cells);
    return false;
  });
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cells[index] ?? '').join(' | ')} |`;
  const lines = rows.map(line);
  lines.splice(Math.max(headerRows, 1), 0, `|${' --- |'.repeat(width)}`);
  return lines.join('\n');
}

function walk(element: Element, visit: (element: Element) => boolean): void {
  for (const child of element.children) {
    if (child.type !== 'tag') continue;
    if (visit(child)) walk(child, visit);
  }
}

function findFirst(nodes: ChildNode[], match: (element: Element) => boolean): Element | undefined {
  for (const node of nodes) {
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style' && node.type !== 'root') {
      continue;
    }
    const element = node as Element;
    if (match(element)) return element;
    const found = findFirst(element.children, match);
    if (found) return found;
  }
  return undefined;
}

function textOf(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  if (node.type === 'tag') {
    if ((SKIPPED.has(node.name) && node.name !== 'head') || isPermalink(node)) return '';
    return node.children.map(textOf).join(node.name === 'br' ? '\n' : '');
  }
  return '';
}
