import PQueue from 'p-queue';
import type { SqlExecutor } from '../db/index.js';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import {
  countIngest,
  emptySummary,
  STOP_THE_RUN,
  tally,
  type IngestPipeline,
  type IngestStore,
  type IngestSummary,
} from '../ingest/index.js';
import { crawlRequests, silentLogger, type Logger } from '../telemetry/index.js';
import type { ResolvedIp } from '../tools/index.js';
import { CrawlPages, type CrawledPage } from './crawl-pages.js';
import type { CrawlRequest } from './crawl-request.js';
import { resolve } from './links.js';
import { HTML_TYPES, pageDocuments, validator } from './page-documents.js';
import { decodeBody, PageFetcher, type FetchedPage } from './page-fetcher.js';
import { loadRobots, type RobotsRules } from './robots.js';
import { parseSitemap } from './sitemap.js';

export interface SiteCrawlerOptions {
  pipeline: Pick<IngestPipeline, 'ingestDocument'>;
  store: Pick<IngestStore, 'documentState' | 'listDocuments' | 'deleteDocuments' | 'corpusVersion'>;
  /** Where rag_crawl_pages lives (the corpus database). */
  sql: SqlExecutor;
  logger?: Logger;
  /** The http_fetch tool's address policy unless replaced (tests allow their loopback server). */
  addressPolicy?: (ip: string) => boolean;
  resolve?: (hostname: string) => Promise<ResolvedIp[]>;
  timeoutMs?: number;
  /** Told of every request sent, robots.txt and sitemaps included. */
  onRequest?: (url: URL) => void;
}

export interface CrawlProgress {
  pagesDone: number;
  /** Pages found so far (more turn up as pages are read). */
  pagesFound: number;
  currentUrl: string;
  chunks: number;
}

/** An ingest summary (documents, chunks, failures by URL) and what the crawl itself did. */
export interface CrawlSummary extends IngestSummary {
  /** The origin crawled: every document's source root, and the prune scope. */
  site: string;
  pages: {
    /** Requests for pages (robots.txt and sitemaps not counted). */
    requested: number;
    /** 200 with an HTML body, handed to the ingest pipeline. */
    fetched: number;
    /** 304: unchanged since the last crawl, nothing parsed or embedded. */
    notModified: number;
    /** 404 or 410: their documents are removed. */
    gone: number;
    /** Kept out by robots.txt: never requested. */
    disallowed: number;
    /** Answered with something other than HTML. */
    skipped: number;
    failed: number;
  };
  /** Body bytes downloaded for pages and sitemaps. */
  bytes: number;
  /** Why the crawl stopped before its frontier was empty; null when it finished. Nothing is pruned then. */
  stoppedBy: 'max-pages' | 'max-bytes' | null;
  pagesPerSecond: number;
}

const XML_TYPES = /^(?:application|text)\/(?:[\w.-]+\+)?xml$/;
/** A sitemap index may point at sitemap indexes; deeper than this is a loop or a mistake. */
const MAX_SITEMAP_NESTING = 3;

/**
 * Crawls one site (an origin) into a workspace: from a start page following same-origin links, or
 * from a sitemap (a path ending in .xml, sitemap indexes followed). robots.txt is read first and
 * obeyed (Disallow, Crawl-delay); requests are rate-limited; a page fetched before is asked for
 * with its validators, and a 304 costs nothing more. Each HTML page goes through the HTML loader
 * and the ingest pipeline with its URL as its identity. A crawl that reached its whole frontier
 * removes the site's documents it no longer found (404/410, gone from the sitemap or the links,
 * now disallowed); a crawl cut short by a limit removes only the pages that answered 404/410.
 */
export class SiteCrawler {
  private readonly logger: Logger;
  private readonly pages: CrawlPages;

  constructor(private readonly options: SiteCrawlerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.pages = new CrawlPages(options.sql);
  }

  async crawl(
    workspaceId: string,
    request: CrawlRequest,
    run: { signal?: AbortSignal; onProgress?: (progress: CrawlProgress) => void } = {},
  ): Promise<CrawlSummary> {
    return new CrawlRun(this.options, this.pages, this.logger, workspaceId, request, run).execute();
  }
}

/** One crawl's state: its frontier, limiter and tallies. */
class CrawlRun {
  private readonly started = performance.now();
  private readonly start: URL;
  private readonly site: string;
  private readonly sitemapMode: boolean;
  private readonly summary: CrawlSummary;
  private readonly fetcher: PageFetcher;
  private readonly signal: AbortSignal | undefined;
  private robots: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: null, sitemaps: [] };
  private limiter = new PQueue();
  /** Pages in the pipeline at once: as many as requests in flight, so the database pool is not flooded. */
  private ingesting = new PQueue();
  private remembered = new Map<string, CrawledPage>();
  /** Every URL scheduled once. */
  private readonly seen = new Set<string>();
  /** Pages whose documents stay: fetched, unchanged, or failing in a way that says nothing. */
  private readonly keep = new Set<string>();
  private readonly gone: string[] = [];
  private readonly tasks = new Set<Promise<void>>();
  /** A sitemap that could not be read: the page list is incomplete, so nothing is pruned. */
  private sitemapFailed = false;
  private fatal: RagError | null = null;

  constructor(
    private readonly options: SiteCrawlerOptions,
    private readonly pages: CrawlPages,
    private readonly logger: Logger,
    private readonly workspaceId: string,
    private readonly request: CrawlRequest,
    private readonly run: { signal?: AbortSignal; onProgress?: (progress: CrawlProgress) => void },
  ) {
    this.start = new URL(request.url);
    this.start.hash = '';
    this.site = this.start.origin;
    this.sitemapMode = /\.xml$/i.test(this.start.pathname);
    this.signal = run.signal;
    this.summary = {
      ...emptySummary(workspaceId),
      site: this.site,
      pages: { requested: 0, fetched: 0, notModified: 0, gone: 0, disallowed: 0, skipped: 0, failed: 0 },
      bytes: 0,
      stoppedBy: null,
      pagesPerSecond: 0,
    };
    this.fetcher = new PageFetcher({
      maxPageBytes: request.maxPageBytes,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.addressPolicy ? { addressPolicy: options.addressPolicy } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    });
  }

  async execute(): Promise<CrawlSummary> {
    const { request, summary } = this;
    this.logger.info('crawl start', {
      event: 'crawl-start',
      workspaceId: this.workspaceId,
      url: this.start.href,
      maxPages: request.maxPages,
      rate: request.rate,
    });
    this.robots = await loadRobots(this.fetcher, this.site, this.signal);
    if (!this.robots.isAllowed(this.start)) {
      throw new RagError(
        ErrorCode.ROBOTS_DISALLOWED,
        `${this.site}/robots.txt does not let us crawl ${this.start.href}`,
        {
          details: { url: this.start.href },
        },
      );
    }
    // One request per interval, never more often than the site's Crawl-delay asks. Strict: a
    // sliding window, so two requests never start closer than the interval, even at a boundary.
    const interval = Math.ceil(Math.max(1000 / request.rate, (this.robots.crawlDelaySeconds ?? 0) * 1000));
    this.limiter = new PQueue({ concurrency: request.concurrency, interval, intervalCap: 1, strict: true });
    this.ingesting = new PQueue({ concurrency: request.concurrency });
    this.remembered = await this.pages.site(this.workspaceId, this.site);

    if (this.sitemapMode) {
      for (const url of await this.sitemapPages(this.start, 0)) this.schedule(url, 0);
    } else {
      this.schedule(this.start, 0);
    }
    while (this.tasks.size > 0) await Promise.race(this.tasks);
    if (this.fatal) throw this.fatal;

    await this.prune();
    summary.corpusVersion = await this.options.store.corpusVersion(this.workspaceId);
    summary.seconds = (performance.now() - this.started) / 1000;
    summary.chunksPerSecond = summary.seconds > 0 ? summary.chunks / summary.seconds : 0;
    summary.pagesPerSecond = summary.seconds > 0 ? summary.pages.requested / summary.seconds : 0;
    summary.files = summary.pages.fetched;
    countIngest(summary);
    this.logger.info('crawl done', {
      event: 'crawl-done',
      workspaceId: this.workspaceId,
      site: this.site,
      pages: summary.pages,
      documents: summary.documents,
      bytes: summary.bytes,
      stoppedBy: summary.stoppedBy,
      seconds: summary.seconds,
    });
    return summary;
  }

  /** The page URLs of a sitemap, sitemap indexes followed; other origins' entries are ignored. */
  private async sitemapPages(url: URL, nesting: number): Promise<URL[]> {
    if (!this.robots.isAllowed(url)) {
      this.sitemapFailed = true;
      this.fail(url.href, new RagError(ErrorCode.ROBOTS_DISALLOWED, 'robots.txt disallows this sitemap'));
      return [];
    }
    let page: FetchedPage;
    try {
      page = await this.fetch(url, {}, (status, type) => ok(status) && (XML_TYPES.test(type) || type === ''));
    } catch (error) {
      this.sitemapFailed = true;
      if (nesting === 0) throw error;
      this.fail(url.href, error);
      return [];
    }
    const sitemap = page.body ? parseSitemap(decodeBody(page.body, page.headers['content-type'])) : null;
    if (!sitemap) {
      const error = new RagError(
        page.body ? ErrorCode.PARSE_FAILED : ErrorCode.UPSTREAM_UNAVAILABLE,
        page.body
          ? `${url.href} is not a sitemap (urlset or sitemapindex)`
          : `${url.href} answered ${page.status}`,
        { details: { url: url.href, status: page.status } },
      );
      if (nesting === 0) throw error;
      this.sitemapFailed = true;
      this.fail(url.href, error);
      return [];
    }
    const locations = sitemap.locations
      .map((location) => resolve(location, url))
      .filter((location): location is URL => location !== null && location.origin === this.site);
    if (sitemap.kind === 'urlset') return locations;
    if (nesting >= MAX_SITEMAP_NESTING) {
      this.sitemapFailed = true;
      this.fail(url.href, new RagError(ErrorCode.PARSE_FAILED, 'sitemap indexes nested too deep'));
      return [];
    }
    const nested: URL[] = [];
    for (const location of locations) nested.push(...(await this.sitemapPages(location, nesting + 1)));
    return nested;
  }

  private schedule(url: URL, depth: number): void {
    if (url.origin !== this.site || this.seen.has(url.href) || this.fatal) return;
    this.seen.add(url.href);
    const task: Promise<void> = this.visit(url, depth).then(
      () => {
        this.tasks.delete(task);
      },
      (error: unknown) => {
        this.tasks.delete(task);
        this.fatal ??= toRagError(error);
      },
    );
    this.tasks.add(task);
  }

  private async visit(url: URL, depth: number): Promise<void> {
    const { request, summary } = this;
    if (this.fatal) return;
    this.signal?.throwIfAborted();
    if (!this.robots.isAllowed(url)) {
      summary.pages.disallowed++;
      return;
    }
    if (summary.pages.requested >= request.maxPages) {
      summary.stoppedBy ??= 'max-pages';
      return;
    }
    if (summary.bytes >= request.maxBytes) {
      summary.stoppedBy ??= 'max-bytes';
      return;
    }
    summary.pages.requested++;
    const key = url.href;
    const known = this.remembered.get(key);
    // Validators only for a page whose document is still stored: a 304 must not stand for a
    // document someone deleted since.
    const stored =
      known && !request.full ? await this.options.store.documentState(this.workspaceId, key) : null;
    const headers: Record<string, string> = {};
    if (known && stored) {
      if (known.etag) headers['if-none-match'] = known.etag;
      if (known.lastModified) headers['if-modified-since'] = known.lastModified;
    }
    let page: FetchedPage;
    try {
      page = await this.fetch(url, headers, (status, type) => ok(status) && HTML_TYPES.has(type));
    } catch (error) {
      if (toRagError(error).code === ErrorCode.ABORTED) throw error;
      this.keep.add(key);
      this.count('failed');
      this.fail(key, error);
      return;
    }
    if (page.status === 304 && known) {
      this.keep.add(key);
      this.count('not_modified');
      tally(summary, key, { status: 'unchanged', chunks: 0, tokens: 0, redactions: [] });
      this.follow(known.links, depth);
    } else if (page.status === 404 || page.status === 410) {
      this.gone.push(key);
      this.count('gone');
    } else if (ok(page.status) && page.body) {
      this.keep.add(key);
      this.seen.add(page.url.href);
      this.count('fetched');
      const body = page.body;
      await this.ingesting.add(() => this.ingest(key, page, body, depth));
    } else if (ok(page.status)) {
      this.count('skipped');
    } else {
      this.keep.add(key);
      this.count('failed');
      this.fail(key, new RagError(ErrorCode.UPSTREAM_UNAVAILABLE, `${key} answered ${page.status}`));
    }
    this.run.onProgress?.({
      pagesDone: summary.pages.requested,
      pagesFound: this.seen.size,
      currentUrl: key,
      chunks: summary.chunks,
    });
  }

  /** An HTML page into the pipeline as one document whose identity is its URL. */
  private async ingest(key: string, page: FetchedPage, body: Buffer, depth: number): Promise<void> {
    const { documents, links } = pageDocuments(key, page, body);
    let stored = true;
    for (const document of documents) {
      try {
        tally(
          this.summary,
          key,
          await this.options.pipeline.ingestDocument(this.workspaceId, this.site, document, this.signal),
        );
      } catch (error) {
        const ragError = toRagError(error);
        if (ragError.code === ErrorCode.ABORTED || STOP_THE_RUN.has(ragError.code)) throw ragError;
        stored = false;
        this.fail(key, ragError);
      }
    }
    // Validators only once the page is stored: a page that failed is fetched in full next time.
    await this.pages.save(this.workspaceId, this.site, {
      url: key,
      etag: stored ? validator(page, 'etag') : null,
      lastModified: stored ? validator(page, 'last-modified') : null,
      links,
    });
    this.follow(links, depth);
  }

  private follow(links: readonly string[], depth: number): void {
    if (this.sitemapMode || depth >= this.request.maxDepth) return;
    for (const link of links) {
      const url = resolve(link, this.start);
      if (url) this.schedule(url, depth + 1);
    }
  }

  /** Through the rate limiter; counts the bytes. */
  private async fetch(
    url: URL,
    headers: Record<string, string>,
    wanted: (status: number, mediaType: string) => boolean,
  ): Promise<FetchedPage> {
    const page = await this.limiter.add(() =>
      this.fetcher.get(url, { headers, wanted, ...(this.signal ? { signal: this.signal } : {}) }),
    );
    this.summary.bytes += page.body?.length ?? 0;
    return page;
  }

  /**
   * Removes what the site no longer has. Pages that answered 404/410 always; with the whole
   * frontier reached, also every stored page of the site this crawl did not keep.
   */
  private async prune(): Promise<void> {
    const complete = this.summary.stoppedBy === null && !this.sitemapFailed;
    const gone = new Set(this.gone);
    const stored = await this.options.store.listDocuments(this.workspaceId, this.site);
    const doomed = stored
      .map((document) => document.sourcePath)
      .filter((path) => gone.has(path) || (complete && !this.keep.has(path)));
    this.summary.documents.removed += await this.options.store.deleteDocuments(this.workspaceId, doomed);
    const forgotten = [...this.remembered.keys()].filter(
      (url) => gone.has(url) || (complete && !this.keep.has(url)),
    );
    await this.pages.forget(this.workspaceId, forgotten);
  }

  private count(outcome: 'fetched' | 'not_modified' | 'gone' | 'skipped' | 'failed'): void {
    const pages = this.summary.pages;
    if (outcome === 'fetched') pages.fetched++;
    else if (outcome === 'not_modified') pages.notModified++;
    else if (outcome === 'gone') pages.gone++;
    else if (outcome === 'skipped') pages.skipped++;
    else pages.failed++;
    crawlRequests.inc({ outcome });
  }

  private fail(url: string, error: unknown): void {
    const ragError = toRagError(error);
    this.summary.failures.push({ sourcePath: url, code: ragError.code, message: ragError.message });
    this.summary.documents.failed++;
    this.logger.warn('crawl page failed', { event: 'crawl-page-failed', url, code: ragError.code });
  }
}

function ok(status: number): boolean {
  return status >= 200 && status < 300;
}
