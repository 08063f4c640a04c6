import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/**
 * The pages an HTML page links to: `<a href>` resolved against the page (or its `<base href>`),
 * http(s) only, without fragments, each once. `rel="nofollow"` links and every link of a page
 * whose robots meta says `nofollow` are left out.
 */
export function pageLinks(html: string, pageUrl: URL): string[] {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true });
  const anchors: Element[] = [];
  let base = pageUrl;
  let nofollow = false;
  walk(document.children, (element) => {
    if (element.name === 'a' && element.attribs.href !== undefined) anchors.push(element);
    else if (element.name === 'base' && element.attribs.href) {
      base = resolve(element.attribs.href, pageUrl) ?? base;
    } else if (element.name === 'meta' && element.attribs.name?.toLowerCase() === 'robots') {
      nofollow ||= /\b(?:nofollow|none)\b/i.test(element.attribs.content ?? '');
    }
  });
  if (nofollow) return [];
  const links = new Set<string>();
  for (const anchor of anchors) {
    if (/\bnofollow\b/i.test(anchor.attribs.rel ?? '')) continue;
    const url = resolve(anchor.attribs.href!, base);
    if (url) links.add(url.href);
  }
  return [...links];
}

/** An absolute http(s) URL without its fragment, or null. */
export function resolve(href: string, base: URL): URL | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url;
}

function walk(nodes: ChildNode[], visit: (element: Element) => void): void {
  for (const node of nodes) {
    if (node.type === 'tag') {
      visit(node);
      walk(node.children, visit);
    } else if ('children' in node) walk(node.children as ChildNode[], visit);
  }
}
