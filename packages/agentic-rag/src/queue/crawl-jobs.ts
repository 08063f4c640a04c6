import { createHash, randomUUID } from 'node:crypto';
import { context, propagation } from '@opentelemetry/api';
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import { z } from 'zod';
import { WORKSPACE_ID_PATTERN } from '../config/index.js';
import {
  crawlRequest,
  parseEvery,
  SiteCrawler,
  type CrawlProgress,
  type CrawlRequest,
  type CrawlSummary,
} from '../crawl/index.js';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { Sql } from '../db/index.js';
import type { IngestPipeline } from '../ingest/index.js';
import type { CorpusStore, JobStore } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';

/** The BullMQ job name of a crawl, one-off or repeated by a scheduler. */
export const CRAWL_JOB = 'crawl-site';

/** Crawl a site into a workspace (crawl/): the request as validated when it was asked for. */
export const crawlSitePayload = z.object({
  kind: z.literal(CRAWL_JOB),
  workspaceId: z.string().regex(WORKSPACE_ID_PATTERN),
  request: crawlRequest,
  trace: z.record(z.string(), z.string()).default({}),
});
export type CrawlSitePayload = z.output<typeof crawlSitePayload>;

/** A repeating crawl: BullMQ's job scheduler puts a crawl job on the queue every `everyMs`. */
export interface CrawlSchedule {
  id: string;
  everyMs: number;
  /** When the next crawl job is due (ISO), as the scheduler reports it. */
  next: string | null;
}

/** Crawls the site once: one job, recorded in rag_jobs like an ingest. Returns its id. */
export async function enqueueCrawl(
  queue: Queue,
  jobs: JobStore,
  workspaceId: string,
  request: CrawlRequest,
): Promise<string> {
  const payload = crawlPayload(workspaceId, request);
  const id = randomUUID();
  await jobs.queued({
    id,
    kind: CRAWL_JOB,
    workspaceId,
    payload,
    traceId: payload.trace.traceparent?.split('-')[1] ?? null,
  });
  await queue.add(CRAWL_JOB, payload, { jobId: id });
  return id;
}

/**
 * Crawls the site every `everyMs`, the first time now, for as long as a worker runs. The schedule
 * is named by workspace, start URL and mode: asking again for the same site and mode replaces its
 * interval and limits instead of adding a second schedule, while an incremental and a full
 * schedule of one site coexist (a nightly incremental plus a weekly full crawl, docs/web-sources.md).
 */
export async function scheduleCrawl(
  queue: Queue,
  workspaceId: string,
  request: CrawlRequest,
  everyMs: number,
): Promise<CrawlSchedule> {
  const id = crawlScheduleId(workspaceId, request.url, request.full);
  const next = await queue.upsertJobScheduler(
    id,
    { every: everyMs },
    { name: CRAWL_JOB, data: crawlPayload(workspaceId, request) },
  );
  const due = next?.timestamp !== undefined ? next.timestamp + (next.opts.delay ?? 0) : null;
  return { id, everyMs, next: due === null ? null : new Date(due).toISOString() };
}

export function crawlScheduleId(workspaceId: string, url: string, full = false): string {
  // The incremental id is the one schedules had before full ones could coexist, so they keep it.
  const key = `${workspaceId}\u0000${url}${full ? '\u0000full' : ''}`;
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 24);
  return `crawl-${digest}`;
}

/** What a crawl job needs of the worker's runtime. */
export interface CrawlJobDeps {
  jobs: JobStore;
  pipeline: IngestPipeline;
  logger: Logger;
  /** The corpus store and its database; a worker started without them fails crawl jobs. */
  store?: CorpusStore;
  sql?: Sql;
  /** Replaces the http_fetch tool's address policy for crawls: tests allow their loopback server. */
  crawlAddressPolicy?: (ip: string) => boolean;
}

/** Errors a retry of the same crawl cannot fix: straight to failed. */
const UNRECOVERABLE: ReadonlySet<string> = new Set([
  ErrorCode.INVALID_INPUT,
  ErrorCode.FETCH_BLOCKED,
  ErrorCode.ROBOTS_DISALLOWED,
  ErrorCode.PARSE_FAILED,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
  ErrorCode.EMBEDDER_REQUEST_REJECTED,
]);

/**
 * A crawl job in the worker. A scheduler's repeats have ids BullMQ chose, so the job's rag_jobs
 * row is written here when the producer did not write one. Not dead-lettered: a failed crawl has
 * nothing to re-drive that the next scheduled run does not do.
 */
export async function runCrawlJob(runtime: CrawlJobDeps, job: Job): Promise<CrawlSummary> {
  const parsed = crawlSitePayload.safeParse(job.data);
  if (!parsed.success)
    throw new UnrecoverableError(`invalid payload: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const payload = parsed.data;
  const { jobs } = runtime;
  const attempt = job.attemptsMade + 1;
  await jobs.queued({ id: job.id!, kind: CRAWL_JOB, workspaceId: payload.workspaceId, payload });
  await jobs.active(job.id!, attempt);
  try {
    if (!runtime.store || !runtime.sql) {
      throw new RagError(ErrorCode.INVALID_CONFIG, 'this worker was started without the corpus store');
    }
    const crawler = new SiteCrawler({
      pipeline: runtime.pipeline,
      store: runtime.store,
      sql: runtime.sql,
      logger: runtime.logger.child({ jobId: job.id }),
      ...(runtime.crawlAddressPolicy ? { addressPolicy: runtime.crawlAddressPolicy } : {}),
    });
    const summary = await crawler.crawl(payload.workspaceId, payload.request, {
      onProgress: (progress) => {
        const fraction = progress.pagesFound > 0 ? progress.pagesDone / progress.pagesFound : 0;
        void job.updateProgress(Math.min(1, fraction)).catch(() => undefined);
      },
    });
    await jobs.finish(job.id!, { result: summary });
    return summary;
  } catch (error) {
    const ragError = toRagError(error);
    const unrecoverable = UNRECOVERABLE.has(ragError.code);
    const last = unrecoverable || attempt >= (job.opts.attempts ?? 1);
    await jobs.attemptFailed(job.id!, attempt, ragError.message, last).catch(() => undefined);
    throw unrecoverable ? new UnrecoverableError(`[${ragError.code}] ${ragError.message}`) : ragError;
  }
}

function crawlPayload(workspaceId: string, request: CrawlRequest): CrawlSitePayload {
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);
  return crawlSitePayload.parse({ kind: CRAWL_JOB, workspaceId, request, trace });
}

/** What a crawl asked for through an API needs of the runtime. */
export interface CrawlSiteDeps extends CrawlJobDeps {
  /** The ingest queue when ingestion goes through workers, else null (the crawl runs now). */
  queue: { queue: Queue } | null;
  /** Told the corpus version an inline crawl left, so this process reads its own write. */
  noteCorpusVersion?: (workspaceId: string, version: number) => void;
}

export interface CrawlSiteOutcome {
  mode: 'inline' | 'queue';
  /** The crawl's job: queued, or finished (inline). None for a schedule, whose jobs come later. */
  jobIds: string[];
  /** Inline only. */
  summary: CrawlSummary | null;
  schedule: CrawlSchedule | null;
}

/**
 * A crawl asked for through an API (GraphQL), with the caller already authorised: queued when
 * there is a queue, else run now and recorded as a finished job. With `every`, a schedule on the
 * queue instead (INVALID_INPUT without one).
 */
export async function crawlSite(
  deps: CrawlSiteDeps,
  workspaceId: string,
  request: CrawlRequest,
  every: string | null,
  run: { signal?: AbortSignal; onProgress?: (progress: CrawlProgress) => void } = {},
): Promise<CrawlSiteOutcome> {
  if (every !== null) {
    const everyMs = parseEvery(every);
    if (!deps.queue) {
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        'a schedule needs the job queue (REDIS_URL): the schedule lives there and a worker runs it',
      );
    }
    const schedule = await scheduleCrawl(deps.queue.queue, workspaceId, request, everyMs);
    return { mode: 'queue', jobIds: [], summary: null, schedule };
  }
  if (deps.queue) {
    const id = await enqueueCrawl(deps.queue.queue, deps.jobs, workspaceId, request);
    return { mode: 'queue', jobIds: [id], summary: null, schedule: null };
  }
  if (!deps.store || !deps.sql) throw new RagError(ErrorCode.INVALID_CONFIG, 'no corpus store to crawl into');
  const id = await deps.jobs.start({ kind: CRAWL_JOB, workspaceId, payload: { request } });
  try {
    const crawler = new SiteCrawler({
      pipeline: deps.pipeline,
      store: deps.store,
      sql: deps.sql,
      logger: deps.logger,
      ...(deps.crawlAddressPolicy ? { addressPolicy: deps.crawlAddressPolicy } : {}),
    });
    const summary = await crawler.crawl(workspaceId, request, run);
    deps.noteCorpusVersion?.(workspaceId, summary.corpusVersion);
    await deps.jobs.finish(id, { result: summary });
    return { mode: 'inline', jobIds: [id], summary, schedule: null };
  } catch (error) {
    await deps.jobs.finish(id, { error: toRagError(error).message });
    throw error;
  }
}
