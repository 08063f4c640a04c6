export { SiteCrawler } from './site-crawler.js';
export type { CrawlProgress, CrawlSummary, SiteCrawlerOptions } from './site-crawler.js';
export {
  CRAWL_DEFAULTS,
  crawlRequest,
  pageRefreshRequest,
  parseCrawlRequest,
  parseEvery,
  parsePageRefreshRequest,
} from './crawl-request.js';
export type { CrawlRequest, CrawlRequestInput, PageRefreshRequest } from './crawl-request.js';
export { PageRefresher } from './page-refresh.js';
export type { PageRefresherOptions, PageRefreshOutcome, PageRefreshResult } from './page-refresh.js';
export { CRAWLER_TOKEN, CRAWLER_USER_AGENT } from './page-fetcher.js';
