import { Parser } from 'htmlparser2';

/** Never readable content: code, styling, embedded documents, forms and site chrome. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'head',
  'nav',
  'footer',
  'form',
  'button',
  'select',
  'textarea',
]);
/** Elements that end a line of text, so paragraphs and list items do not run together. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

export interface HtmlText {
  title: string;
  text: string;
}

/**
 * Readable text of an HTML page for a model to read: skipped elements and hidden ones are dropped
 * with everything inside them, entities decoded, whitespace collapsed, one line per block.
 */
export function htmlToText(html: string): HtmlText {
  const parts: string[] = [];
  let title = '';
  let inTitle = false;
  let sawTitle = false;
  // Every open tag gets a close (void and implied ones included), so a counter tracks the
  // skipped subtree without a stack.
  let skipDepth = 0;
  // The element that started the skipped subtree: <head> hides the page title, <svg> an icon's.
  let skipRoot = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title' && !sawTitle && (skipDepth === 0 || skipRoot === 'head')) inTitle = true;
        if (skipDepth > 0) {
          skipDepth++;
        } else if (
          SKIPPED.has(name) ||
          attributes.hidden !== undefined ||
          attributes['aria-hidden'] === 'true'
        ) {
          skipDepth = 1;
          skipRoot = name;
        } else if (BLOCK.has(name)) {
          parts.push('\n');
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        // Newlines inside a text node are layout, not structure: only blocks end a line.
        else if (skipDepth === 0) parts.push(text.replace(/\s+/g, ' '));
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          sawTitle = true;
        }
        if (skipDepth > 0) skipDepth--;
        else if (BLOCK.has(name)) parts.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const text = parts
    .join('')
    .split('\n')
    .map(collapse)
    .filter((line) => line.length > 0)
    .join('\n');
  return { title: collapse(title), text };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
