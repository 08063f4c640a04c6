export { deadLetterQueueName, IngestQueue } from './ingest-queue.js';
export type { DeadLetter } from './reconciled-queue.js';
export { Reconciler } from './reconciler.js';
export type { JobOutcome, ReconcileReport, ResumeResult } from './reconciler.js';
export {
  documentLabel,
  documentOf,
  idempotencyKey,
  ingestDocumentPayload,
  jobPayload,
  JOB_KINDS,
  payloadSummary,
  sha256,
} from './payloads.js';
export type { IngestDocumentPayload, JobPayload, StageJobPayload } from './payloads.js';
export { assertNoEviction, queueConnection, queuePrefix, queueTarget } from './redis.js';
export type { QueueConnection, QueueTarget } from './redis.js';
export { startIngestWorker } from './worker.js';
export type { IngestWorker, WorkerDeps } from './worker.js';
export { runningJob, STAGE_PROGRESS } from './job-context.js';
export type { RunningJob } from './job-context.js';
export { CRAWL_JOB, crawlScheduleId, crawlSite, enqueueCrawl, scheduleCrawl } from './crawl-jobs.js';
export type { CrawlSchedule, CrawlSiteDeps, CrawlSiteOutcome, CrawlSitePayload } from './crawl-jobs.js';
