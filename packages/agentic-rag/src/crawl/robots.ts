import { createRequire } from 'node:module';
import { ErrorCode, RagError } from '../errors/index.js';
import { CRAWLER_TOKEN, decodeBody, type PageFetcher } from './page-fetcher.js';

// robots-parser is CommonJS whose types declare an ES default export that is not there at run time
// (module.exports is the function), so under NodeNext its default import has no call signature.
// Required instead, typed with the part of its API we use.
type RobotsParser = (
  url: string,
  contents: string,
) => {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
  getCrawlDelay(userAgent?: string): number | undefined;
  getSitemaps(): string[];
};
const robotsParser = createRequire(import.meta.url)('robots-parser') as RobotsParser;

/** What a site's robots.txt says to us. */
export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** Seconds between requests the site asks of us, if it asks. */
  crawlDelaySeconds: number | null;
  /** Sitemaps the file names, as written. */
  sitemaps: string[];
}

/**
 * Reads `<origin>/robots.txt` (RFC 9309): a 4xx means there are no rules, a 2xx is parsed, and a
 * 5xx or no answer means we may not crawl at all — a site that cannot say what it allows has not
 * allowed anything.
 */
export async function loadRobots(
  fetcher: PageFetcher,
  origin: string,
  signal?: AbortSignal,
): Promise<RobotsRules> {
  const url = new URL('/robots.txt', origin);
  const page = await fetcher.get(url, {
    ...(signal ? { signal } : {}),
    wanted: (status) => status >= 200 && status < 300,
  });
  if (page.status >= 400 && page.status < 500)
    return { isAllowed: () => true, crawlDelaySeconds: null, sitemaps: [] };
  if (!page.body) {
    throw new RagError(
      ErrorCode.UPSTREAM_UNAVAILABLE,
      `${url.href} answered ${page.status}: without robots.txt the site is not crawled`,
      { details: { url: url.href, status: page.status } },
    );
  }
  const robots = robotsParser(url.href, decodeBody(page.body, page.headers['content-type']));
  const delay = robots.getCrawlDelay(CRAWLER_TOKEN);
  return {
    // undefined: the URL is not of this robots.txt's origin, which the crawler never asks about.
    isAllowed: (target) => robots.isAllowed(target.href, CRAWLER_TOKEN) !== false,
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay : null,
    sitemaps: robots.getSitemaps(),
  };
}
