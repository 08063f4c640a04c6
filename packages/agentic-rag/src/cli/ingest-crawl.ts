import { parseCrawlRequest, parseEvery, type CrawlRequest, type CrawlSummary } from '../crawl/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Caller, RagService } from '../service/index.js';
import { EXIT, formatNumber } from './cli-support.js';
import { ProgressBar } from './progress-bar.js';

export interface CrawlFlags {
  url: string;
  every: string | undefined;
  maxPages: string | undefined;
  maxDepth: string | undefined;
  maxBytes: string | undefined;
  rate: string | undefined;
  concurrency: string | undefined;
  full: boolean;
}

export interface CrawlCommand {
  request: CrawlRequest;
  /** `--every` in milliseconds; null for one crawl. */
  everyMs: number | null;
  every: string | undefined;
}

/** The crawl the flags ask for, checked before anything is opened. */
export function crawlCommand(flags: CrawlFlags): CrawlCommand {
  const number = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed))
      throw new RagError(ErrorCode.INVALID_INPUT, `--${flag} must be a number, not "${value}"`);
    return parsed;
  };
  const request = parseCrawlRequest({
    url: flags.url,
    maxPages: number('max-pages', flags.maxPages),
    maxDepth: number('max-depth', flags.maxDepth),
    maxBytes: number('max-bytes', flags.maxBytes),
    rate: number('rate', flags.rate),
    concurrency: number('concurrency', flags.concurrency),
    full: flags.full,
  });
  return { request, everyMs: flags.every === undefined ? null : parseEvery(flags.every), every: flags.every };
}

/**
 * `rag:ingest --url`: the service's crawlSite, as the local operator: crawled now (inline) or
 * queued for the workers, as the ingest mode says; with `--every`, a schedule on the queue crawls
 * it again at that interval while a worker runs.
 */
export async function ingestCrawl(
  service: RagService,
  caller: Caller,
  workspaceId: string,
  { request, everyMs, every }: CrawlCommand,
  options: { queued: boolean; wait: boolean; json: boolean; quiet: boolean },
): Promise<number> {
  const say = (line: string) => {
    if (!options.quiet && !options.json) console.log(line);
  };
  if (everyMs !== null && !options.queued) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      '--every needs the queue (REDIS_URL, or --queue): the schedule lives there and a worker (pnpm worker) runs it',
    );
  }
  if (everyMs !== null && options.wait)
    throw new RagError(ErrorCode.INVALID_INPUT, '--wait does not go with --every');
  const showProgress = !options.quiet && !options.json;
  const bar = new ProgressBar({ label: 'crawl' });
  const outcome = await service.crawlSite(
    caller,
    { workspaceId, ...request, schedule: every ?? null },
    showProgress
      ? {
          onProgress: (progress) =>
            bar.update(
              progress.pagesDone,
              progress.pagesFound,
              `${progress.chunks} chunks  ${progress.currentUrl}`,
            ),
        }
      : {},
  );
  if (outcome.schedule) {
    const { schedule } = outcome;
    if (options.json) console.log(JSON.stringify({ workspaceId, schedule }));
    say(
      `scheduled: ${request.url} into "${workspaceId}" every ${every} (schedule ${schedule.id}, next run ${schedule.next ?? 'now'}); pnpm worker runs it`,
    );
    return EXIT.ok;
  }
  if (outcome.mode === 'queue') {
    const id = outcome.jobIds[0]!;
    if (!options.wait) {
      if (options.json) console.log(JSON.stringify({ workspaceId, queued: [id] }));
      say(`crawl of ${request.url} queued as job ${id}; pnpm worker runs it`);
      return EXIT.ok;
    }
    const result = await service.waitForJobs(caller, { workspaceId, ids: [id] });
    const record = await service.job(caller, { id });
    if (options.json) console.log(JSON.stringify({ workspaceId, job: record }));
    else if (record?.result) printCrawlSummary(record.result as CrawlSummary);
    else say(`crawl job ${id}: ${record?.status ?? 'unknown'} ${record?.error ?? ''}`);
    return result.dead > 0 ? EXIT.failed : EXIT.ok;
  }
  const summary = outcome.summary!;
  if (showProgress) bar.finish();
  if (options.json) console.log(JSON.stringify(summary));
  else printCrawlSummary(summary);
  return summary.failures.length > 0 ? EXIT.failed : EXIT.ok;
}

function printCrawlSummary(summary: CrawlSummary): void {
  const { documents, pages } = summary;
  console.log(
    `Crawled ${summary.site} into workspace "${summary.workspaceId}" in ${summary.seconds.toFixed(2)} s (${formatNumber(summary.pagesPerSecond, 1)} pages/s)`,
  );
  console.log(
    `  pages      requested ${pages.requested}  fetched ${pages.fetched}  not modified ${pages.notModified}  gone ${pages.gone}  disallowed ${pages.disallowed}  skipped ${pages.skipped}  failed ${pages.failed}`,
  );
  console.log(
    `  documents  added ${documents.added}  updated ${documents.updated}  unchanged ${documents.unchanged}  removed ${documents.removed}  failed ${documents.failed}`,
  );
  console.log(
    `  chunks     ${formatNumber(summary.chunks)} written (${formatNumber(summary.tokens)} tokens); ${formatNumber(summary.bytes)} bytes downloaded; corpus version ${summary.corpusVersion}`,
  );
  if (summary.stoppedBy)
    console.log(
      `  stopped    at the ${summary.stoppedBy} limit: nothing unseen was removed; raise it to reach the rest`,
    );
  for (const failure of summary.failures)
    console.log(`  FAILED     ${failure.sourcePath}: [${failure.code}] ${failure.message}`);
}
