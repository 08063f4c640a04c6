import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fixture site answered, as it saw it. */
export interface SiteRequest {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
  /** performance.now() when it arrived. */
  at: number;
}

export interface FixtureSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Path → HTML. Edit it between crawls: a changed page gets a new ETag, a deleted one answers 404. */
  pages: Map<string, string>;
  /** Path → Location, answered with 302. */
  redirects: Map<string, string>;
  /** The robots.txt body; null answers 404. */
  robots: string | null;
  /** Paths listed by /sitemap.xml; null answers 404. */
  sitemap: string[] | null;
  /** Paths answered with 410 Gone. */
  goneForGood: Set<string>;
  requests: SiteRequest[];
  close(): Promise<void>;
}

/** Every page's Last-Modified: fixed, so a recrawl's If-Modified-Since matches. */
const LAST_MODIFIED = 'Tue, 24 Nov 2026 08:00:00 GMT';

/**
 * A real HTTP server on 127.0.0.1 (an ephemeral port) serving a small web site, for the crawler's
 * tests and benchmark. Pages carry an ETag (a hash of their HTML) and a Last-Modified, and a
 * request whose If-None-Match or If-Modified-Since still holds gets 304, as a static host does.
 */
export async function serveFixtureSite(
  initial: { pages?: Record<string, string>; robots?: string | null; sitemap?: string[] | null } = {},
): Promise<FixtureSite> {
  const site: FixtureSite = {
    origin: '',
    pages: new Map(Object.entries(initial.pages ?? {})),
    redirects: new Map(),
    robots: initial.robots ?? null,
    sitemap: initial.sitemap ?? null,
    goneForGood: new Set(),
    requests: [],
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fixture').pathname;
    const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
      site.requests.push({ path, headers: request.headers, status, at: performance.now() });
      response.writeHead(status, headers).end(body);
    };
    if (path === '/robots.txt' && site.robots !== null) {
      answer(200, { 'content-type': 'text/plain' }, site.robots);
    } else if (path === '/sitemap.xml' && site.sitemap !== null) {
      const origin = `http://${request.headers.host}`;
      const urls = site.sitemap.map((page) => `  <url><loc>${origin}${page}</loc></url>`).join('\n');
      answer(
        200,
        { 'content-type': 'application/xml' },
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
    } else if (site.redirects.has(path)) {
      answer(302, { location: site.redirects.get(path)! });
    } else if (site.goneForGood.has(path)) {
      answer(410);
    } else if (site.pages.has(path)) {
      const html = site.pages.get(path)!;
      const etag = `"${createHash('sha1').update(html).digest('hex').slice(0, 16)}"`;
      const validators = { etag, 'last-modified': LAST_MODIFIED };
      const unchanged =
        request.headers['if-none-match'] !== undefined
          ? request.headers['if-none-match'] === etag
          : request.headers['if-modified-since'] === LAST_MODIFIED;
      if (unchanged) answer(304, validators);
      else answer(200, { 'content-type': 'text/html; charset=utf-8', ...validators }, html);
    } else {
      answer(404, { 'content-type': 'text/plain' }, 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  site.origin = `http://127.0.0.1:${port}`;
  site.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return site;
}

/** A page of the fixture site: a title, two sections, and links. */
export function fixturePage(title: string, body: string, links: readonly string[] = []): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head><body>
<nav><a href="/">Home</a></nav>
<main><h1>${title}</h1><p>${body}</p>
<h2>Details</h2><p>${title} details: ${body}</p>
<ul>${anchors}</ul></main>
<footer>Fixture site</footer></body></html>`;
}

/**
 * A generated documentation site of `count` pages: an index linking to every page, each page
 * linking to its neighbours (and to `externalLink`, another site, when given), a sitemap listing
 * them all, and a page under /private/ for a robots.txt to keep out.
 */
export function generatedSitePages(
  count: number,
  options: { externalLink?: string } = {},
): { pages: Record<string, string>; sitemap: string[] } {
  const paths = Array.from({ length: count }, (_, index) => `/docs/page-${index}.html`);
  const pages: Record<string, string> = {
    '/': fixturePage('Documentation', 'The generated documentation index.', paths),
    '/private/admin.html': fixturePage('Admin', 'Never crawled.'),
  };
  paths.forEach((path, index) => {
    const neighbours = [
      paths[index - 1],
      paths[index + 1],
      '/private/admin.html',
      options.externalLink,
    ].filter((link): link is string => link !== undefined);
    pages[path] = fixturePage(
      `Page ${index}`,
      `Endpoint ${index} accepts POST /resources/${index} with a JSON body; it returns the created resource ${index} and a location header.`,
      neighbours,
    );
  });
  return { pages, sitemap: ['/', ...paths] };
}
