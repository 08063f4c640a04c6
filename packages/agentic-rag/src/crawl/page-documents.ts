import { loadHtml, normalizeText, type LoadedDocument } from '../ingest/index.js';
import { pageLinks } from './links.js';
import { decodeBody, type FetchedPage } from './page-fetcher.js';

/** The media types a crawl reads as pages; anything else is not downloaded. */
export const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/**
 * An HTML page as the documents to store (identity: `key`, the URL as requested; `url`: the URL
 * that answered) and the links it holds. Shared by a crawl and a one-page refresh, so a page
 * stored either way is the same document.
 */
export function pageDocuments(
  key: string,
  page: FetchedPage,
  body: Buffer,
): { documents: LoadedDocument[]; links: string[] } {
  const html = decodeBody(body, page.headers['content-type']);
  const links = pageLinks(html, page.url);
  const loaded = loadHtml({ sourcePath: key, text: normalizeText(html) });
  for (const document of loaded.documents) {
    document.sourceFile = key;
    document.url = page.url.href;
  }
  return { documents: loaded.documents, links };
}

/** A validator header worth keeping: present and of a sane length. */
export function validator(page: FetchedPage, name: 'etag' | 'last-modified'): string | null {
  const value = page.headers[name];
  return typeof value === 'string' && value.length <= 512 ? value : null;
}
