import type { SqlExecutor } from '../db/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { IngestPipeline, IngestStore } from '../ingest/index.js';
import { crawlRequests, silentLogger, type Logger } from '../telemetry/index.js';
import type { ResolvedIp } from '../tools/index.js';
import { CrawlPages } from './crawl-pages.js';
import { CRAWL_DEFAULTS, type PageRefreshRequest } from './crawl-request.js';
import { HTML_TYPES, pageDocuments, validator } from './page-documents.js';
import { PageFetcher } from './page-fetcher.js';
import { loadRobots } from './robots.js';

export interface PageRefresherOptions {
  pipeline: Pick<IngestPipeline, 'ingestDocument'>;
  store: Pick<IngestStore, 'documentState' | 'deleteDocuments' | 'corpusVersion'>;
  /** Where rag_crawl_pages lives (the corpus database). */
  sql: SqlExecutor;
  logger?: Logger;
  /** The http_fetch tool's address policy unless replaced (tests allow their loopback server). */
  addressPolicy?: (ip: string) => boolean;
  resolve?: (hostname: string) => Promise<ResolvedIp[]>;
  timeoutMs?: number;
}

/**
 * What one refresh did to the page's document: `added` (the site had it, we did not), `updated`,
 * `unchanged` (a 304, or a 200 whose text hashed the same) or `removed` (the site answered 404/410).
 */
export type PageRefreshOutcome = 'added' | 'updated' | 'unchanged' | 'removed';

export interface PageRefreshResult {
  /** The page's identity: the URL asked for, without its fragment. */
  url: string;
  /** The origin: the document's source root. */
  site: string;
  outcome: PageRefreshOutcome;
  /** The site's answer to the page request (304 when the validators matched). */
  httpStatus: number;
  /** True when the request carried the stored validators (If-None-Match / If-Modified-Since). */
  conditional: boolean;
  chunks: number;
  corpusVersion: number;
}

/**
 * Fetches one page of a site this workspace crawled, now, and brings its document up to date: the
 * crawl's "refresh this URL" for when a page changed and the nightly recrawl is hours away. The
 * same rules as a crawl: the address policy on every hop, robots.txt obeyed, same-origin
 * redirects only, the stored validators sent unless `full`. A URL of a site no crawl of this
 * workspace fetched is refused (SOURCE_OUTSIDE_ROOT): an admin key must not turn the server into a
 * fetcher of arbitrary pages, and a site's crawl settings (its limits, its schedule) are the
 * operator's decision to crawl it. Links are not followed.
 */
export class PageRefresher {
  private readonly logger: Logger;
  private readonly pages: CrawlPages;

  constructor(private readonly options: PageRefresherOptions) {
    this.logger = options.logger ?? silentLogger;
    this.pages = new CrawlPages(options.sql);
  }

  async refresh(
    workspaceId: string,
    request: PageRefreshRequest,
    signal?: AbortSignal,
  ): Promise<PageRefreshResult> {
    const target = new URL(request.url);
    target.hash = '';
    const key = target.href;
    const site = target.origin;
    const { options } = this;
    const fetcher = new PageFetcher({
      maxPageBytes: CRAWL_DEFAULTS.maxPageBytes,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.addressPolicy ? { addressPolicy: options.addressPolicy } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    // A blocked address is refused as such, whether or not its site was ever crawled.
    fetcher.checkUrl(target, site);
    if (!(await this.pages.knows(workspaceId, site))) {
      throw new RagError(
        ErrorCode.SOURCE_OUTSIDE_ROOT,
        `${site} has not been crawled into workspace "${workspaceId}": crawl the site first (crawlSite or rag:ingest --url)`,
        { details: { url: key, site } },
      );
    }
    const robots = await loadRobots(fetcher, site, signal);
    if (!robots.isAllowed(target)) {
      throw new RagError(ErrorCode.ROBOTS_DISALLOWED, `${site}/robots.txt does not let us fetch ${key}`, {
        details: { url: key },
      });
    }
    const known = await this.pages.page(workspaceId, key);
    // As in a crawl: validators only while the document is stored, so a 304 never stands for a
    // document deleted since.
    const stored = known && !request.full ? await options.store.documentState(workspaceId, key) : null;
    const headers: Record<string, string> = {};
    if (known && stored) {
      if (known.etag) headers['if-none-match'] = known.etag;
      if (known.lastModified) headers['if-modified-since'] = known.lastModified;
    }
    const conditional = Object.keys(headers).length > 0;
    const page = await fetcher.get(target, {
      headers,
      wanted: (status, type) => status >= 200 && status < 300 && HTML_TYPES.has(type),
      ...(signal ? { signal } : {}),
    });
    const answer = async (outcome: PageRefreshOutcome, chunks: number): Promise<PageRefreshResult> => {
      const corpusVersion = await options.store.corpusVersion(workspaceId);
      this.logger.info('page refreshed', {
        event: 'page-refreshed',
        workspaceId,
        url: key,
        outcome,
        status: page.status,
        conditional,
      });
      return { url: key, site, outcome, httpStatus: page.status, conditional, chunks, corpusVersion };
    };

    if (page.status === 304 && conditional) {
      crawlRequests.inc({ outcome: 'not_modified' });
      return answer('unchanged', 0);
    }
    if (page.status === 404 || page.status === 410) {
      crawlRequests.inc({ outcome: 'gone' });
      const removed = await options.store.deleteDocuments(workspaceId, [key]);
      await this.pages.forget(workspaceId, [key]);
      if (removed === 0) {
        throw new RagError(
          ErrorCode.NOT_FOUND,
          `${key} answered ${page.status} and no document was stored for it`,
          {
            details: { url: key, status: page.status },
          },
        );
      }
      return answer('removed', 0);
    }
    if (page.body) {
      crawlRequests.inc({ outcome: 'fetched' });
      const { documents, links } = pageDocuments(key, page, page.body);
      const statuses = new Set<string>();
      let chunks = 0;
      // A failure here (an embedder down) is the caller's answer; the page keeps its old
      // validators, so nothing claims the new text is stored.
      for (const document of documents) {
        const result = await options.pipeline.ingestDocument(workspaceId, site, document, signal);
        statuses.add(result.status);
        chunks += result.chunks;
      }
      await this.pages.save(workspaceId, site, {
        url: key,
        etag: validator(page, 'etag'),
        lastModified: validator(page, 'last-modified'),
        links,
      });
      const outcome = statuses.has('added') ? 'added' : statuses.has('updated') ? 'updated' : 'unchanged';
      return answer(outcome, chunks);
    }
    crawlRequests.inc({ outcome: page.status >= 200 && page.status < 300 ? 'skipped' : 'failed' });
    if (page.status >= 200 && page.status < 300) {
      throw new RagError(
        ErrorCode.UNSUPPORTED_FILE_TYPE,
        `${key} answered ${String(page.headers['content-type'] ?? 'no content type')}, not HTML: its document is left as it was`,
        { details: { url: key, contentType: page.headers['content-type'] ?? null } },
      );
    }
    throw new RagError(
      ErrorCode.UPSTREAM_UNAVAILABLE,
      `${key} answered ${page.status}: its document is left as it was`,
      { details: { url: key, status: page.status } },
    );
  }
}
