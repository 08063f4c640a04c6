import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder, type EmbedOptions, type EmbedResult } from '../embed/index.js';
import { ErrorCode } from '../errors/index.js';
import { DocPageExtractor, PostgresGraphStore } from '../graph/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore } from '../store/index.js';
import { isBlockedAddress } from '../tools/index.js';
import { parseCrawlRequest, type CrawlRequestInput } from './crawl-request.js';
import { fixturePage, serveFixtureSite, type FixtureSite } from './fixture-site.js';
import { SiteCrawler, type SiteCrawlerOptions } from './site-crawler.js';

/**
 * The only allowed address the tests can serve is loopback: this policy lets exactly 127.0.0.1
 * through and defers to the real one (the http_fetch tool's) for everything else, as the
 * http_fetch tests do.
 */
const allowTestServer = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

/** The deterministic embedder, counting the texts it is asked to embed. */
class CountingEmbedder extends DeterministicEmbedder {
  texts = 0;
  override async embed(options: EmbedOptions): Promise<EmbedResult> {
    this.texts += options.texts.length;
    return super.embed(options);
  }
}

const ROBOTS = 'User-agent: *\nDisallow: /private/\n';

describe.each(testBackends())('site crawler on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  let embedder: CountingEmbedder;
  let site: FixtureSite;
  let elsewhere: FixtureSite;
  let workspace: string;

  const crawler = (options: Partial<SiteCrawlerOptions> = {}) =>
    new SiteCrawler({
      pipeline: new IngestPipeline({ store, embedder, maxTokens: 200, overlapTokens: 20 }),
      store,
      sql,
      addressPolicy: allowTestServer,
      ...options,
    });
  const request = (input: Partial<CrawlRequestInput> = {}) =>
    parseCrawlRequest({ url: `${site.origin}/`, rate: 200, concurrency: 4, ...input });
  const stored = async () =>
    (await store.listDocuments(workspace, site.origin)).map((document) => document.sourcePath).sort();
  const pagesOf = (fixture: FixtureSite) => fixture.requests.map((entry) => entry.path);

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
  });
  afterAll(async () => {
    await sql.close();
  });
  beforeEach(async () => {
    embedder = new CountingEmbedder();
    workspace = uniqueWorkspace('crawl');
    elsewhere = await serveFixtureSite({ pages: { '/external': fixturePage('Elsewhere', 'Not ours.') } });
    site = await serveFixtureSite({
      robots: ROBOTS,
      pages: {
        '/': fixturePage('Guide home', 'Start here for the locations API.', [
          '/guide/locations',
          '/guide/shipments#create',
          '/private/admin',
          `${elsewhere.origin}/external`,
          'mailto:docs@example.test',
        ]),
        '/guide/locations': fixturePage('Locations', 'POST /locations creates a depot.', [
          '/',
          '/guide/archive',
        ]),
        '/guide/shipments': fixturePage('Shipments', 'POST /shipments books a pickup.', ['/']),
        '/guide/archive': fixturePage('Archive', 'Old releases of the locations API.'),
        '/private/admin': fixturePage('Admin', 'Never to be crawled.'),
      },
    });
  });
  afterEach(async () => {
    await sql.query('DELETE FROM rag_crawl_pages WHERE workspace_id = $1', [workspace]);
    await dropWorkspace(sql, workspace);
    await site.close();
    await elsewhere.close();
  });

  it('follows same-origin links, obeys robots.txt, never contacts another origin', async () => {
    const summary = await crawler().crawl(workspace, request());

    expect(await stored()).toEqual(
      ['/', '/guide/archive', '/guide/locations', '/guide/shipments'].map((path) => site.origin + path),
    );
    expect(summary.documents).toMatchObject({ added: 4, failed: 0 });
    expect(summary.pages).toMatchObject({ requested: 4, fetched: 4, disallowed: 1, notModified: 0 });
    expect(pagesOf(site)).not.toContain('/private/admin');
    expect(pagesOf(site)[0]).toBe('/robots.txt');
    expect(
      site.requests.every((entry) => String(entry.headers['user-agent']).startsWith('agentic-rag-crawler/1')),
    ).toBe(true);
    expect(elsewhere.requests).toEqual([]);

    const document = await store.getDocument(workspace, `${site.origin}/guide/locations`);
    expect(document).toMatchObject({
      url: `${site.origin}/guide/locations`,
      title: 'Locations',
      kind: 'html',
    });
    const sections = await sql.query<{ section_path: string }>(
      `SELECT c.section_path FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
       WHERE d.workspace_id = $1 AND d.source_path = $2 ORDER BY c.chunk_index`,
      [workspace, `${site.origin}/guide/locations`],
    );
    expect(sections.rows.map((row) => row.section_path).join(' | ')).toContain('Locations');
  });

  it('recrawls with validators: 304s, nothing parsed or embedded, the corpus version unchanged', async () => {
    const first = await crawler().crawl(workspace, request());
    const embeddedFirst = embedder.texts;
    expect(embeddedFirst).toBeGreaterThan(0);
    site.requests.length = 0;

    const again = await crawler().crawl(workspace, request());

    const pageRequests = site.requests.filter((entry) => entry.path !== '/robots.txt');
    expect(pageRequests).toHaveLength(4);
    for (const entry of pageRequests) {
      expect(entry.headers['if-none-match']).toMatch(/^"[0-9a-f]{16}"$/);
      expect(entry.headers['if-modified-since']).toBe('Tue, 24 Nov 2026 08:00:00 GMT');
      expect(entry.status).toBe(304);
    }
    expect(again.pages).toMatchObject({ notModified: 4, fetched: 0 });
    expect(again.documents).toMatchObject({ unchanged: 4, added: 0, updated: 0, removed: 0 });
    expect(again.chunks).toBe(0);
    expect(embedder.texts).toBe(embeddedFirst);
    expect(again.corpusVersion).toBe(first.corpusVersion);
    // The 304 pages' stored links still lead the recrawl on: the archive was reached again.
    expect(pageRequests.map((entry) => entry.path)).toContain('/guide/archive');

    site.pages.set(
      '/guide/shipments',
      fixturePage('Shipments', 'POST /shipments books a pickup today.', ['/']),
    );
    const changed = await crawler().crawl(workspace, request());
    expect(changed.documents).toMatchObject({ updated: 1, unchanged: 3 });
  });

  it('removes pages that answer 404 or 410, or that no page links to any more', async () => {
    await crawler().crawl(workspace, request());
    site.pages.delete('/guide/shipments');
    site.goneForGood.add('/guide/archive');
    const summary = await crawler().crawl(workspace, request());
    expect(summary.pages.gone).toBe(2);
    expect(summary.documents.removed).toBe(2);
    expect(await stored()).toEqual([`${site.origin}/`, `${site.origin}/guide/locations`]);

    // Unlinked (the page still exists): the crawl reached its whole frontier, so it goes too.
    site.pages.set('/', fixturePage('Guide home', 'Start here.', []));
    const unlinked = await crawler().crawl(workspace, request());
    expect(unlinked.documents.removed).toBe(1);
    expect(await stored()).toEqual([`${site.origin}/`]);
    const remembered = await sql.query<{ url: string }>(
      'SELECT url FROM rag_crawl_pages WHERE workspace_id = $1',
      [workspace],
    );
    expect(remembered.rows.map((row) => row.url)).toEqual([`${site.origin}/`]);
  });

  it("keeps 000's DocPage nodes with the pages: keyed by URL, retitled on recrawl, gone with the page", async () => {
    const graph = new PostgresGraphStore(sql);
    const graphStore = new CorpusStore(sql, { graph });
    const withGraph = () =>
      crawler({
        pipeline: new IngestPipeline({
          store: graphStore,
          embedder,
          maxTokens: 200,
          overlapTokens: 20,
          extractors: [new DocPageExtractor()],
        }),
        store: graphStore,
      });
    const docPages = async () =>
      (
        await sql.query<{ name: string; title: string }>(
          `SELECT e.name, e.properties->>'title' AS title FROM rag_entities e
           WHERE e.workspace_id = $1 AND e.type = 'DocPage'
           ORDER BY e.name`,
          [workspace],
        )
      ).rows;

    await withGraph().crawl(workspace, request());
    expect(await docPages()).toEqual([
      { name: `${site.origin}/`, title: 'Guide home' },
      { name: `${site.origin}/guide/archive`, title: 'Archive' },
      { name: `${site.origin}/guide/locations`, title: 'Locations' },
      { name: `${site.origin}/guide/shipments`, title: 'Shipments' },
    ]);

    site.pages.set('/guide/locations', fixturePage('Depots', 'POST /locations creates a depot.', ['/']));
    site.pages.delete('/guide/shipments');
    await withGraph().crawl(workspace, request());
    expect(await docPages()).toEqual([
      { name: `${site.origin}/`, title: 'Guide home' },
      { name: `${site.origin}/guide/locations`, title: 'Depots' },
    ]);
  });

  it('crawls a sitemap, and removes a page once it leaves the sitemap', async () => {
    site.sitemap = ['/guide/locations', '/guide/shipments', '/private/admin'];
    const summary = await crawler().crawl(workspace, request({ url: `${site.origin}/sitemap.xml` }));
    expect(await stored()).toEqual([`${site.origin}/guide/locations`, `${site.origin}/guide/shipments`]);
    expect(summary.pages).toMatchObject({ fetched: 2, disallowed: 1 });
    // A sitemap lists the pages: their links are not followed.
    expect(pagesOf(site)).not.toContain('/guide/archive');

    site.sitemap = ['/guide/locations'];
    const again = await crawler().crawl(workspace, request({ url: `${site.origin}/sitemap.xml` }));
    expect(again.documents).toMatchObject({ unchanged: 1, removed: 1 });
    expect(await stored()).toEqual([`${site.origin}/guide/locations`]);
  });

  it('refuses redirects off the site and to blocked addresses, and blocked start URLs', async () => {
    site.redirects.set('/metadata', 'http://169.254.169.254/latest/meta-data/');
    site.redirects.set('/moved', '/guide/locations');
    site.pages.set('/', fixturePage('Guide home', 'Start.', ['/metadata', '/moved']));
    const summary = await crawler().crawl(workspace, request());
    expect(summary.failures).toEqual([
      expect.objectContaining({ sourcePath: `${site.origin}/metadata`, code: ErrorCode.FETCH_BLOCKED }),
    ]);
    // A same-origin redirect is followed; the page it lands on is not fetched a second time.
    // /moved's page (the locations guide) links on to the archive.
    expect(await stored()).toEqual([
      `${site.origin}/`,
      `${site.origin}/guide/archive`,
      `${site.origin}/moved`,
    ]);
    expect(pagesOf(site).filter((path) => path === '/guide/locations')).toHaveLength(1);

    // A name that resolves to a private address is refused in the socket's lookup.
    const rebinding = crawler({
      resolve: async () => [{ address: '10.0.0.7', family: 4 }],
    }).crawl(workspace, request({ url: 'http://docs.rebind.test/' }));
    await expect(rebinding).rejects.toMatchObject({ code: ErrorCode.FETCH_BLOCKED });
    // Without the test's allowance, loopback is refused like any private address.
    await expect(
      crawler({ addressPolicy: isBlockedAddress }).crawl(workspace, request()),
    ).rejects.toMatchObject({ code: ErrorCode.FETCH_BLOCKED });
  });

  it('refuses a start URL robots.txt disallows', async () => {
    await expect(
      crawler().crawl(workspace, request({ url: `${site.origin}/private/admin` })),
    ).rejects.toMatchObject({ code: ErrorCode.ROBOTS_DISALLOWED });
    expect(pagesOf(site)).toEqual(['/robots.txt']);
  });

  it('keeps to the request rate and robots.txt Crawl-delay', async () => {
    await crawler().crawl(workspace, request({ rate: 10, concurrency: 4 }));
    const starts = site.requests.filter((entry) => entry.path !== '/robots.txt').map((entry) => entry.at);
    expect(starts).toHaveLength(4);
    // 10 requests/s: 4 requests span at least 3 intervals of 100 ms (loosely: clocks and timers).
    expect(starts[3]! - starts[0]!).toBeGreaterThanOrEqual(3 * 100 * 0.8);

    site.robots = `${ROBOTS}Crawl-delay: 0.25\n`;
    site.requests.length = 0;
    await crawler().crawl(workspace, request({ rate: 1000, full: true }));
    const delayed = site.requests.filter((entry) => entry.path !== '/robots.txt').map((entry) => entry.at);
    expect(delayed[3]! - delayed[0]!).toBeGreaterThanOrEqual(3 * 250 * 0.8);
  });

  it('stops at max pages and then removes nothing it did not reach', async () => {
    await crawler().crawl(workspace, request());
    const limited = await crawler().crawl(workspace, request({ maxPages: 2 }));
    expect(limited.stoppedBy).toBe('max-pages');
    expect(limited.pages.requested).toBe(2);
    expect(limited.documents.removed).toBe(0);
    expect(await stored()).toHaveLength(4);

    const shallow = await crawler().crawl(workspace, request({ maxDepth: 0, full: true }));
    expect(shallow.pages.requested).toBe(1);
    expect(await stored()).toEqual([`${site.origin}/`]);
  });
});
