import { context, propagation, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { Queue, UnrecoverableError, WaitingChildrenError, Worker, type Job } from 'bullmq';
import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { Config } from '../config/index.js';
import type { IngestPipeline, IngestSummary } from '../ingest/index.js';
import { withIntent, type JobStore } from '../store/index.js';
import { jobDuration, jobsTotal, type Logger, type QueueCounts } from '../telemetry/index.js';
import { deadLetterQueueName, jobDefaults, queueCounts, type IngestQueue } from './ingest-queue.js';
import type { DeadLetter } from './reconciled-queue.js';
import { runningJob } from './job-context.js';
import { Reconciler } from './reconciler.js';
import { intentDocument, jobPayload, type IngestDocumentPayload, type StageJobPayload } from './payloads.js';
import { assertNoEviction, queueConnection, queuePrefix, queueTarget } from './redis.js';
import { CRAWL_JOB, runCrawlJob, type CrawlJobDeps } from './crawl-jobs.js';
import { splitIntoStageJobs } from './stage-jobs.js';

const tracer = trace.getTracer('agentic-rag');

/** A job row this fresh may be between its rag_jobs insert and its queue add: left alone. */
const RECONCILE_IDLE_MS = 5000;

/** Errors no retry can fix: the input itself is wrong. Straight to the dead-letter queue. */
const UNRECOVERABLE: ReadonlySet<string> = new Set([
  ErrorCode.INVALID_INPUT,
  ErrorCode.PARSE_FAILED,
  ErrorCode.UNSUPPORTED_FILE_TYPE,
  ErrorCode.FILE_UNREADABLE,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
  ErrorCode.EMBEDDER_REQUEST_REJECTED,
]);

/** What a worker needs of the runtime (the same pipeline the inline mode uses). */
export interface WorkerDeps extends Pick<CrawlJobDeps, 'store' | 'sql' | 'crawlAddressPolicy'> {
  config: Config;
  logger: Logger;
  jobs: JobStore;
  pipeline: IngestPipeline;
  /** The producer side; with it the worker reconciles rag_jobs with the queue (see reconciler.ts). */
  queue?: IngestQueue | null;
}

export interface IngestWorker {
  worker: Worker;
  /** The queue's jobs by state and its dead letters (the worker's /metrics). */
  counts(): Promise<QueueCounts>;
  /** Stops taking jobs and waits for the running ones (SIGTERM): nothing is left half-written. */
  close(): Promise<void>;
}

/** What a stage job reports: how many items (texts, documents) it computed or found cached. */
export interface StageResult {
  kind: StageJobPayload['kind'];
  items: number;
}

/** A document job whose document was deleted or asked for other bytes after it was queued. */
export interface Superseded {
  superseded: true;
  reason: string;
}

/**
 * The worker side: BullMQ runs `ingest-document` jobs with the same pipeline the inline mode
 * uses, and the stage jobs (`embed-chunks`, `hyde`, `extract-entities`) a big document is split
 * into (see stage-jobs.ts). A job that exhausts its attempts (or fails in a way no retry can fix) is copied to the
 * dead-letter queue with its error, attempts and trace id before it fails; `rag_jobs` follows
 * every transition. A worker killed mid-job leaves a stalled job that BullMQ hands to another
 * worker; the document is written in one transaction, so the retry finds either nothing or the
 * finished document, never half of it.
 */
export async function startIngestWorker(runtime: WorkerDeps, url?: string): Promise<IngestWorker> {
  const { config, logger, jobs } = runtime;
  const target = queueTarget(config, url);
  if (!target) throw new Error('the worker needs REDIS_URL or REDIS_CLUSTER_NODES');
  const connection = queueConnection(target);
  await assertNoEviction(connection, logger);
  const prefix = queuePrefix(target, config.AGENTIC_RAG_QUEUE_NAME);
  const deadLetters = new Queue(deadLetterQueueName(config.AGENTIC_RAG_QUEUE_NAME), { connection, prefix });
  // Where a big document's stage jobs go: the same queue, with the producer's retry policy.
  const queue = new Queue(config.AGENTIC_RAG_QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: jobDefaults(config),
  });
  // BullMQ prints the errors of a Queue nobody listens to; the worker's listener below already
  // reports this shared connection's errors, once.
  for (const own of [deadLetters, queue]) own.on('error', () => {});

  const handle = async (job: Job, token?: string): Promise<IngestSummary | StageResult | Superseded> => {
    // A site crawl (one-off or from a schedule) is its own kind of job: see crawl-jobs.ts.
    if (job.name === CRAWL_JOB) return runCrawlJob(runtime, job);
    const parsed = jobPayload.safeParse(job.data);
    if (!parsed.success)
      throw new UnrecoverableError(`invalid payload: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
    const payload = parsed.data;
    const attempt = job.attemptsMade + 1;
    const parent = propagation.extract(context.active(), payload.trace);
    const started = performance.now();
    const outcome = (name: 'completed' | 'retried' | 'dead' | 'split') => {
      jobsTotal.inc({ kind: payload.kind, outcome: name });
      jobDuration.observe({ kind: payload.kind }, (performance.now() - started) / 1000);
      return name;
    };
    return tracer.startActiveSpan(`job.${payload.kind}`, {}, parent, async (span) => {
      span.setAttributes({
        'rag.job_id': job.id!,
        'rag.job_kind': payload.kind,
        'rag.workspace': payload.workspaceId,
        'rag.attempt': attempt,
      });
      // With tracing off the span's id is all zeros: no trace to point to, so none is logged.
      const traced = trace.isSpanContextValid(span.spanContext());
      const jobLogger = logger.child({
        jobId: job.id,
        ...(traced ? { traceId: span.spanContext().traceId } : {}),
      });
      try {
        // Inside the try: an attempt that cannot even reach Postgres is still a logged, counted
        // attempt, and the last one still goes to the dead-letter queue.
        await jobs.active(job.id!, attempt);
        const progress = async (fraction: number) => {
          await Promise.all([job.updateProgress(fraction), jobs.progress(job.id!, fraction)]);
        };
        if (payload.kind !== 'ingest-document') {
          const result = await runStage(runtime, payload);
          await jobs.finish(job.id!, { result });
          span.setAttributes({ 'rag.job.outcome': outcome('completed'), 'rag.stage.items': result.items });
          return result;
        }
        const split = {
          queue,
          jobs,
          pipeline: runtime.pipeline,
          batchSize: config.AGENTIC_RAG_STAGE_BATCH_SIZE,
        };
        if (token && (await splitIntoStageJobs(job, token, payload, split))) {
          span.setAttribute('rag.job.outcome', outcome('split'));
          throw new WaitingChildrenError();
        }
        const intent = { document: intentDocument(payload), generation: payload.generation };
        const summary = await runningJob.run({ id: job.id!, progress }, () =>
          withIntent(intent, () => run(runtime, payload)),
        );
        // A failed item that names itself (`file#piece`: a knowledge piece refused for a secret)
        // is reported in the result while the rest of the file is stored: the job did its work.
        // A failure that names the file itself (unparseable, unreadable, a bad line) fails it.
        // A document deleted or re-asked since the job was queued (SUPERSEDED) is no failure: an
        // inline ingest reports it per document, and such a job ends as a file job does.
        const superseded = summary.failures.find((candidate) => candidate.code === ErrorCode.SUPERSEDED);
        if (superseded && summary.failures.length === 1 && summary.chunks === 0) {
          throw new RagError(ErrorCode.SUPERSEDED, superseded.message);
        }
        const failure = summary.failures.find(
          (candidate) => !candidate.sourcePath.includes('#') && candidate.code !== ErrorCode.SUPERSEDED,
        );
        if (failure) {
          const error = new Error(`${failure.sourcePath}: [${failure.code}] ${failure.message}`);
          throw UNRECOVERABLE.has(failure.code) ? new UnrecoverableError(error.message) : error;
        }
        await jobs.finish(job.id!, { result: summary });
        span.setAttributes({ 'rag.job.outcome': outcome('completed'), ...summaryAttributes(summary) });
        return summary;
      } catch (error) {
        // Not a failure: the job comes back once its stage jobs have finished.
        if (error instanceof WaitingChildrenError) throw error;
        const ragError = toRagError(error);
        if (ragError.code === ErrorCode.SUPERSEDED) {
          // The document was deleted or asked for other bytes since: this job's work is moot.
          const result: Superseded = { superseded: true, reason: ragError.message };
          await jobs.finish(job.id!, { result });
          span.setAttribute('rag.job.outcome', outcome('completed'));
          return result;
        }
        const unrecoverable = error instanceof UnrecoverableError || UNRECOVERABLE.has(ragError.code);
        const last = unrecoverable || attempt >= (job.opts.attempts ?? 1);
        const message = error instanceof Error ? error.message : String(error);
        if (last) {
          const letter: DeadLetter = {
            id: job.id!,
            payload,
            error: message,
            attempts: attempt,
            traceId: traced ? span.spanContext().traceId : null,
            failedAt: new Date().toISOString(),
          };
          // Same id as the job: a crash between here and the failure cannot leave two letters.
          await deadLetters.add('dead-letter', letter, { jobId: job.id! });
        }
        span.recordException(ragError);
        span.setStatus({ code: SpanStatusCode.ERROR, message: ragError.code });
        span.setAttribute('rag.job.outcome', outcome(last ? 'dead' : 'retried'));
        jobLogger.warn('job failed', {
          event: 'job-failed',
          attempt,
          dead: last,
          code: ragError.code,
        });
        // Bookkeeping that fails (Postgres down) must not replace the job's own error: BullMQ
        // decides from it whether to retry.
        await jobs.attemptFailed(job.id!, attempt, message, last).catch((bookkeeping: unknown) =>
          jobLogger.warn('cannot record the failed attempt', {
            event: 'job-bookkeeping-failed',
            attempt,
            error: toRagError(bookkeeping),
          }),
        );
        throw unrecoverable && !(error instanceof UnrecoverableError)
          ? new UnrecoverableError(message)
          : error;
      } finally {
        span.end();
      }
    });
  };

  const worker = new Worker(config.AGENTIC_RAG_QUEUE_NAME, handle, {
    connection,
    prefix,
    concurrency: config.AGENTIC_RAG_WORKER_CONCURRENCY,
    // A killed worker's lock lapses after lockDuration and the next stalled check hands its job
    // to another worker; a live worker renews its lock every lockDuration / 2.
    lockDuration: config.AGENTIC_RAG_JOB_LOCK_MS,
    stalledInterval: Math.max(500, Math.floor(config.AGENTIC_RAG_JOB_LOCK_MS / 2)),
    maxStalledCount: 2,
  });
  worker.on('error', (error) => logger.warn('worker error', { event: 'worker-error', error }));
  // On start and then periodically: what Redis lost while no worker ran is enqueued again.
  const stopReconciling = runtime.queue
    ? new Reconciler(runtime.queue, jobs).every(config.AGENTIC_RAG_RECONCILE_MS, RECONCILE_IDLE_MS, logger)
    : async () => {};
  return {
    worker,
    counts: () => queueCounts(queue, deadLetters),
    close: async () => {
      await stopReconciling();
      await worker.close();
      await deadLetters.close();
      await queue.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/** A document job's result on its span: how many documents went which way, and the chunks written. */
function summaryAttributes(summary: IngestSummary): Attributes {
  return {
    'rag.ingest.added': summary.documents.added,
    'rag.ingest.updated': summary.documents.updated,
    'rag.ingest.unchanged': summary.documents.unchanged,
    'rag.ingest.skipped': summary.documents.skipped,
    'rag.ingest.failed': summary.documents.failed,
    'rag.ingest.chunks': summary.chunks,
  };
}

async function runStage(runtime: WorkerDeps, payload: StageJobPayload): Promise<StageResult> {
  switch (payload.kind) {
    case 'embed-chunks':
      await runtime.pipeline.embedTexts(payload.texts);
      return { kind: payload.kind, items: payload.texts.length };
    case 'hyde':
      await runtime.pipeline.writeQuestions(payload.texts);
      return { kind: payload.kind, items: payload.texts.length };
    case 'extract-entities':
      await runtime.pipeline.extractFacts(payload.input);
      return { kind: payload.kind, items: 1 };
  }
}

async function run(runtime: WorkerDeps, payload: IngestDocumentPayload): Promise<IngestSummary> {
  const { source } = payload;
  return source.type === 'file'
    ? runtime.pipeline.ingestFile(payload.workspaceId, source.root, source.relativePath)
    : runtime.pipeline.ingestInline(payload.workspaceId, [{ id: source.id, content: source.content }]);
}
