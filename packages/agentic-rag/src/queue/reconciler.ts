import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { IngestStageRecord, JobRecord, JobStore } from '../store/index.js';
import type { Logger } from '../telemetry/index.js';
import type { DeadLetter, ReconciledQueue } from './reconciled-queue.js';
import { ingestDocumentPayload, sha256, type IngestDocumentPayload } from './payloads.js';

/** Job states in which BullMQ will still run a job: nothing to restart. */
const WAITING_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
]);

/** What the reconciler did with one unfinished job of rag_jobs. */
export type JobOutcome =
  /** The queue still has it, waiting or running under a live lock. */
  | 'alive'
  /** rag_jobs said `active` but no worker holds it any more: back to `queued` (BullMQ retries it). */
  | 'retried'
  /** The queue had lost it; enqueued again from what rag_jobs keeps. */
  | 'requeued'
  /** It had ended without its worker being able to say so. */
  | 'completed'
  | 'dead'
  /** Lost and cannot be enqueued again from rag_jobs (see `reason`). */
  | 'lost';

export interface ReconcileReport {
  checked: number;
  outcomes: Record<JobOutcome, number>;
  lost: Array<{ id: string; document: string; reason: string }>;
}

/** What `resume` did for a workspace: every unfinished document appears in exactly one list. */
export interface ResumeResult {
  /** Dead jobs put back on the queue (from their dead letter, or from rag_jobs when Redis lost it). */
  retried: string[];
  /** Unfinished jobs the queue had lost, or whose worker had died, enqueued again. */
  requeued: string[];
  /** Unfinished jobs the queue still holds and will run: nothing to do. */
  alive: string[];
  /** Documents that cannot be restarted from here, with the reason. */
  unrecoverable: Array<{ document: string; reason: string }>;
}

/**
 * rag_jobs is the source of truth, BullMQ the transport. The reconciler compares the two for
 * every unfinished job and repairs the difference: a job Redis lost (a flush, a restart without
 * persistence, an eviction) is enqueued again from rag_jobs; a job whose worker died is marked
 * retried; a job that ended while Postgres could not be told is recorded as it ended. It runs
 * when a worker starts, every AGENTIC_RAG_RECONCILE_MS, and for one workspace on `resumeIngest`.
 */
export class Reconciler {
  constructor(
    private readonly queue: ReconciledQueue,
    private readonly jobs: JobStore,
  ) {}

  /** One pass over the unfinished jobs idle for `idleMs` (so a job being enqueued is left alone). */
  async pass(options: { idleMs: number; limit?: number; workspaceId?: string }): Promise<ReconcileReport> {
    const records = await this.jobs.unfinished({
      idleMs: options.idleMs,
      limit: options.limit ?? 1000,
      ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    });
    const report: ReconcileReport = {
      checked: records.length,
      outcomes: { alive: 0, retried: 0, requeued: 0, completed: 0, dead: 0, lost: 0 },
      lost: [],
    };
    for (const record of records) {
      const { outcome, reason } = await this.job(record);
      report.outcomes[outcome]++;
      if (outcome === 'lost') report.lost.push({ id: record.id, document: documentName(record), reason });
    }
    return report;
  }

  /** Brings one unfinished job of rag_jobs in line with the queue. */
  async job(record: JobRecord): Promise<{ outcome: JobOutcome; reason: string }> {
    const queue = this.queue.queue;
    const state = await queue.getJobState(record.id);
    if (state === 'completed') {
      const job = await queue.getJob(record.id);
      await this.jobs.finish(record.id, { result: job?.returnvalue ?? null });
      return { outcome: 'completed', reason: '' };
    }
    if (state === 'failed') {
      await this.recordDeath(record);
      return { outcome: 'dead', reason: '' };
    }
    if (WAITING_STATES.has(state)) {
      if (record.status !== 'active') return { outcome: 'alive', reason: '' };
      await this.jobs.retried(record.id, 'its worker stopped before finishing; the queue runs it again');
      return { outcome: 'retried', reason: '' };
    }
    if (state === 'active') {
      // A live worker renews its lock every lockDuration / 2; without one the job is stalled, and
      // the next worker's stalled check hands it on. rag_jobs says so now rather than `active`.
      if (await this.queue.isLocked(record.id)) return { outcome: 'alive', reason: '' };
      if (record.status === 'active')
        await this.jobs.retried(record.id, 'its worker stopped before finishing; the queue runs it again');
      return { outcome: 'retried', reason: '' };
    }
    return this.requeue(record);
  }

  /** A job the queue does not know: enqueued again from rag_jobs, or reported lost. */
  private async requeue(record: JobRecord): Promise<{ outcome: JobOutcome; reason: string }> {
    if (record.kind !== 'ingest-document') {
      // A big document's stage job: its document's job, enqueued again, splits the work afresh.
      await this.jobs.finish(record.id, {
        error: 'lost from the queue; its document job does this work again',
      });
      return { outcome: 'completed', reason: '' };
    }
    const payload = await this.payloadOf(record);
    if (typeof payload === 'string') {
      await this.jobs.attemptFailed(record.id, record.attempts, payload, true);
      return { outcome: 'lost', reason: payload };
    }
    await this.jobs.retried(record.id, 'the queue had lost it; queued again');
    await this.queue.queue.add(payload.kind, payload, { jobId: record.id });
    return { outcome: 'requeued', reason: '' };
  }

  /** The payload to enqueue again, or why there is none. */
  private async payloadOf(record: JobRecord): Promise<IngestDocumentPayload | string> {
    const summary = ingestDocumentPayload.safeParse(record.payload);
    const kept = record.payload as { source?: { type?: string; id?: string } } | null;
    if (kept?.source?.type === 'inline') {
      const content = await this.jobs.inlineContent(record.id);
      if (content === null) return 'its inline text is no longer kept: send the document again';
      const parsed = ingestDocumentPayload.safeParse({
        ...kept,
        source: { type: 'inline', id: kept.source.id, content },
      });
      return parsed.success ? { ...parsed.data, split: [] } : 'its recorded payload is not valid';
    }
    if (!summary.success) return 'its recorded payload is not valid';
    return { ...summary.data, split: [] };
  }

  /** BullMQ failed the job; its dead letter says why (written now if the worker died first). */
  private async recordDeath(record: JobRecord): Promise<void> {
    const letter = await this.queue.deadLetters.getJob(record.id);
    if (letter) {
      const data = letter.data as DeadLetter;
      await this.jobs.attemptFailed(record.id, data.attempts, data.error, true);
      return;
    }
    const job = await this.queue.queue.getJob(record.id);
    const error = job?.failedReason || 'failed in the queue without a recorded error';
    const attempts = job?.attemptsMade ?? record.attempts;
    if (job) {
      const dead: DeadLetter = {
        id: record.id,
        payload: job.data,
        error,
        attempts,
        traceId: record.traceId,
        failedAt: new Date(job.finishedOn ?? Date.now()).toISOString(),
      };
      await this.queue.deadLetters.add('dead-letter', dead, { jobId: record.id });
    }
    await this.jobs.attemptFailed(record.id, attempts, error, true);
  }

  /**
   * Restarts everything of a workspace that did not finish: its dead letters, its dead jobs whose
   * letter Redis lost, its unfinished jobs (reconciled now, not after the idle delay), and the
   * documents whose ingest stopped before they were stored with no job row to say why.
   */
  async resume(workspaceId: string, stuckStages: readonly IngestStageRecord[]): Promise<ResumeResult> {
    const result: ResumeResult = { retried: [], requeued: [], alive: [], unrecoverable: [] };
    const letters = (await this.queue.listDeadLetters(10_000))
      .filter((letter) => letter.payload.workspaceId === workspaceId)
      .map((letter) => letter.id);
    if (letters.length > 0) result.retried.push(...(await this.queue.retryDeadLetters(letters)));
    for (const record of await this.jobs.dead(workspaceId)) {
      if (result.retried.includes(record.id) || record.kind !== 'ingest-document') continue;
      if ((await this.queue.queue.getJobState(record.id)) === 'failed')
        await this.queue.queue.remove(record.id);
      const payload = await this.payloadOf(record);
      if (typeof payload === 'string') {
        result.unrecoverable.push({ document: documentName(record), reason: payload });
        continue;
      }
      await this.jobs.requeue(record.id);
      await this.queue.queue.add(payload.kind, payload, { jobId: record.id });
      result.retried.push(record.id);
    }
    const seen = new Set(result.retried);
    for (const record of await this.jobs.unfinished({ idleMs: 0, limit: 100_000, workspaceId })) {
      // A dead job just retried is `queued` again: it is listed once, as retried.
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      const { outcome, reason } = await this.job(record);
      if (outcome === 'alive' || outcome === 'retried') result.alive.push(record.id);
      else if (outcome === 'requeued') result.requeued.push(record.id);
      else if (outcome === 'lost') result.unrecoverable.push({ document: documentName(record), reason });
    }
    for (const stage of stuckStages) {
      if (stage.jobId && seen.has(stage.jobId)) continue;
      const outcome = await this.stuckStage(workspaceId, stage);
      if (typeof outcome === 'string')
        result.unrecoverable.push({ document: stage.sourcePath, reason: outcome });
      else result.requeued.push(outcome.id);
    }
    return result;
  }

  /**
   * A document whose ingest stopped before it was stored and whose job finished (or never
   * existed): a file is read afresh and queued; anything else is reported.
   */
  private async stuckStage(workspaceId: string, stage: IngestStageRecord): Promise<{ id: string } | string> {
    const record = stage.jobId ? await this.jobs.get(stage.jobId) : null;
    if (!record) return 'no queued job ran it: ingest it again';
    const payload = ingestDocumentPayload.safeParse(record.payload);
    if (!payload.success || payload.data.source.type !== 'file')
      return 'its job finished without storing it and its text is not kept: send the document again';
    const { source } = payload.data;
    const bytes = await readFile(path.join(source.root, source.relativePath)).catch(() => null);
    if (!bytes) return `file ${source.relativePath} is gone`;
    await this.queue.queue.remove(record.id).catch(() => 0);
    const id = await this.queue.enqueue({ workspaceId, source, contentHash: sha256(bytes) });
    await this.jobs.requeue(id);
    return { id };
  }

  /** Runs a pass now and every `intervalMs`; returns the function that stops it. */
  every(intervalMs: number, idleMs: number, logger: Logger): () => Promise<void> {
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = this.pass({ idleMs })
        .then((report) => {
          const { alive, ...repaired } = report.outcomes;
          if (Object.values(repaired).some((count) => count > 0))
            logger.info('jobs reconciled', {
              event: 'jobs-reconciled',
              alive,
              ...repaired,
              lost: report.lost,
            });
        })
        .catch((error: unknown) => logger.warn('reconcile failed', { event: 'reconcile-failed', error }));
    };
    tick();
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }
}

/** How a person names the document a job is about. */
function documentName(record: JobRecord): string {
  const source = (record.payload as { source?: { type?: string; id?: string; relativePath?: string } })
    ?.source;
  return source?.type === 'file' ? (source.relativePath ?? record.id) : (source?.id ?? record.id);
}
