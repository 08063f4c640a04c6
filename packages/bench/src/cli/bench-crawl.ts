import { randomUUID } from 'node:crypto';
import {
  benchArguments,
  formatTable,
  report,
  requireBenchServer,
  openScratchDatabase,
} from '../bench/index.js';
import { type FixtureSite, generatedSitePages, serveFixtureSite } from '@agentic-rag/core/testing';
import {
  type CrawlSummary,
  ErrorCode,
  isBlockedAddress,
  migrate,
  parseCrawlRequest,
  RagError,
  SiteCrawler,
} from '@agentic-rag/core';
import { createRuntime, type RagRuntime } from '@agentic-rag/core/runtime';
import { cliConfig, EXIT, formatNumber, runCli } from '@agentic-rag/core/cli';

const HELP = `Usage: pnpm bench:crawl [options]

Crawls a generated documentation site served by a local HTTP server (127.0.0.1, an ephemeral
port): an index linking to every page, each page linking to its neighbours, to a page robots.txt
disallows and to a second local server (another origin). Into an empty workspace, twice:

  first crawl   every page fetched, parsed, chunked, embedded (the configured embedder) and stored
  recrawl       every page asked for with its validators: all 304, nothing parsed or embedded

Baselines in the same run, with the same concurrency and no rate limit: a plain fetch() of the
same page URLs reading each body (no robots.txt, no parsing, no ingest), and the same with
If-None-Match (all 304). Prints pages/s for each, the requests the other origin received and the
requests the crawler sent outside the site (both must be 0).

Options:
  --pages N        generated pages (default 300)
  --rate R         the crawler's requests per second (default 1000: effectively unlimited, so the
                   figure is the crawler's own cost; a real site gets the default of 2)
  --concurrency N  requests in flight, crawler and baselines (default 8)
  --json           print the results as JSON on stdout
  -h, --help       show this help

Needs BENCH_DATABASE_URL (or DATABASE_URL); runs in the scratch database "agentic_rag_bench_crawl"
on that server.`;

const DATABASE = 'agentic_rag_bench_crawl';
/** The fixture site is on loopback: the http_fetch policy, with exactly 127.0.0.1 allowed. */
const allowLoopback = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

interface Row {
  run: string;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  notModified: number;
  chunks: number;
}

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    pages: { type: 'string', default: '300' },
    rate: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
  });
  if (!values) return EXIT.ok;
  const pages = Number(values.pages);
  if (!Number.isInteger(pages) || pages < 1 || pages > 20_000)
    throw new RagError(ErrorCode.INVALID_INPUT, '--pages must be an integer from 1 to 20000');
  const concurrency = Number(values.concurrency);
  const config = cliConfig();
  const serverUrl = requireBenchServer(config, 'bench:crawl');

  const elsewhere = await serveFixtureSite({ pages: { '/external.html': '<p>another site</p>' } });
  const generated = generatedSitePages(pages, { externalLink: `${elsewhere.origin}/external.html` });
  const site = await serveFixtureSite({
    pages: generated.pages,
    sitemap: generated.sitemap,
    robots: 'User-agent: *\nDisallow: /private/\n',
  });
  const sql = await openScratchDatabase(serverUrl, DATABASE, 8);
  let runtime: RagRuntime | null = null;
  const workspace = `bench-crawl-${randomUUID().slice(0, 8)}`;
  try {
    await migrate(sql);
    runtime = await createRuntime({ config: { ...config, AGENTIC_RAG_INGEST_MODE: 'inline' }, sql });
    const urls = generated.sitemap.map((path) => `${site.origin}${path}`);
    const rows: Row[] = [];
    let offSite = 0;
    const crawler = new SiteCrawler({
      pipeline: runtime.pipeline,
      store: runtime.store,
      sql,
      addressPolicy: allowLoopback,
      onRequest: (url) => {
        if (url.origin !== site.origin) offSite++;
      },
    });
    const request = parseCrawlRequest({
      url: `${site.origin}/`,
      rate: Number(values.rate),
      concurrency,
      maxPages: pages + 10,
    });

    // Untimed: the first requests of a process pay for connection setup and JIT warm-up.
    await plainFetch('warm-up', urls, concurrency, site, false);
    rows.push(await plainFetch('baseline: plain fetch', urls, concurrency, site, false));
    rows.push(crawlRow('crawl (first)', await crawler.crawl(workspace, request)));
    rows.push(await plainFetch('baseline: plain fetch, If-None-Match', urls, concurrency, site, true));
    rows.push(crawlRow('recrawl (304s)', await crawler.crawl(workspace, request)));

    const result = {
      pages: urls.length,
      rate: request.rate,
      concurrency,
      embedder: runtime.embedder.modelId,
      rows,
      otherOriginRequests: elsewhere.requests.length,
      crawlerOffSiteRequests: offSite,
      disallowedRequested: site.requests.filter((entry) => entry.path.startsWith('/private/')).length,
    };
    report(values.json, result, () => [
      `bench:crawl  ${result.pages} pages on ${site.origin}  rate ${result.rate}/s  concurrency ${concurrency}  embedder ${result.embedder}`,
      formatTable(
        [
          { header: 'run', value: (row: Row) => row.run },
          { header: 'pages', value: (row) => row.pages },
          { header: 'seconds', value: (row) => row.seconds.toFixed(2), align: 'right' },
          { header: 'pages/s', value: (row) => formatNumber(row.pagesPerSecond, 1), align: 'right' },
          { header: '304s', value: (row) => row.notModified },
          { header: 'chunks', value: (row) => row.chunks },
        ],
        rows,
      ),
      `requests received by the other origin: ${result.otherOriginRequests} (must be 0)`,
      `requests the crawler sent outside the site: ${result.crawlerOffSiteRequests} (must be 0)`,
      `requests for robots.txt-disallowed pages: ${result.disallowedRequested} (must be 0)`,
    ]);
    const recrawl = rows[3]!;
    const clean =
      result.otherOriginRequests === 0 &&
      result.crawlerOffSiteRequests === 0 &&
      result.disallowedRequested === 0 &&
      recrawl.notModified === urls.length;
    return clean ? EXIT.ok : EXIT.failed;
  } finally {
    if (runtime) {
      await sql.query('DELETE FROM rag_crawl_pages WHERE workspace_id = $1', [workspace]);
      await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
      await runtime.close();
    }
    await sql.close();
    await site.close();
    await elsewhere.close();
  }
}

function crawlRow(run: string, summary: CrawlSummary): Row {
  return {
    run,
    pages: summary.pages.requested,
    seconds: summary.seconds,
    pagesPerSecond: summary.pagesPerSecond,
    notModified: summary.pages.notModified,
    chunks: summary.chunks,
  };
}

/** The baseline: the same URLs with fetch(), `concurrency` at a time, each body read. */
async function plainFetch(
  run: string,
  urls: readonly string[],
  concurrency: number,
  site: FixtureSite,
  conditional: boolean,
): Promise<Row> {
  const etags = new Map<string, string>();
  if (conditional) {
    for (const url of urls) {
      const response = await fetch(url);
      await response.arrayBuffer();
      etags.set(url, response.headers.get('etag') ?? '');
    }
  }
  const before = site.requests.length;
  let next = 0;
  let notModified = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const response = await fetch(
          url,
          conditional ? { headers: { 'if-none-match': etags.get(url)! } } : {},
        );
        await response.arrayBuffer();
        if (response.status === 304) notModified++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sent = site.requests.length - before;
  return { run, pages: sent, seconds, pagesPerSecond: sent / seconds, notModified, chunks: 0 };
}

runCli(main);
