import type { ChildNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

export interface ParsedSitemap {
  /** `urlset`: pages; `sitemapindex`: further sitemaps. */
  kind: 'urlset' | 'sitemapindex';
  locations: string[];
}

/** A sitemap (sitemaps.org 0.9), or null when the text is not one. Namespace prefixes are ignored. */
export function parseSitemap(xml: string): ParsedSitemap | null {
  const document = parseDocument(xml, { xmlMode: true });
  const root = document.children.find((node): node is Element => node.type === 'tag');
  if (!root) return null;
  const name = localName(root.name);
  if (name !== 'urlset' && name !== 'sitemapindex') return null;
  const entry = name === 'urlset' ? 'url' : 'sitemap';
  const locations: string[] = [];
  for (const child of root.children) {
    if (child.type !== 'tag' || localName(child.name) !== entry) continue;
    const loc = child.children.find(
      (node): node is Element => node.type === 'tag' && localName(node.name) === 'loc',
    );
    const text = loc ? textOf(loc).trim() : '';
    if (text) locations.push(text);
  }
  return { kind: name, locations };
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

function textOf(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  return 'children' in node ? (node.children as ChildNode[]).map(textOf).join('') : '';
}
