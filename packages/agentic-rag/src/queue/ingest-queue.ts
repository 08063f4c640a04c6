import { readFile } from 'node:fs/promises';
import { context, propagation } from '@opentelemetry/api';
import { Queue, type Job } from 'bullmq';
import type { Config } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import {
  binaryLoaderFor,
  discoverSources,
  findSecrets,
  redactSecrets,
  type IngestFailure,
} from '../ingest/index.js';
import type { JobRecord, JobStore } from '../store/index.js';
import type { QueueCounts } from '../telemetry/index.js';
import {
  idempotencyKey,
  ingestDocumentPayload,
  intentDocument,
  payloadSummary,
  sha256,
  type IngestDocumentPayload,
  type JobPayload,
} from './payloads.js';
import type { DeadLetter, ReconciledQueue } from './reconciled-queue.js';
import { Reconciler } from './reconciler.js';
import { queueConnection, queuePrefix, queueTarget, type QueueConnection } from './redis.js';

/** Retries, backoff and retention of every job, whoever adds it (the producer, or a worker splitting a document). */
export function jobDefaults(config: Config) {
  return {
    attempts: config.AGENTIC_RAG_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.AGENTIC_RAG_JOB_BACKOFF_MS },
    // Kept a day: while a job exists BullMQ treats its id as taken, which is what makes a
    // duplicate enqueue a no-op; the handler's content-hash check covers the rest.
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** BullMQ forbids ':' in queue names, so the dead-letter queue is `<name>-dlq`. */
export const deadLetterQueueName = (name: string) => `${name}-dlq`;

/** BullMQ states a metrics scrape reports; `completed` and `failed` are what retention keeps. */
const COUNTED_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

/** A queue's jobs by state and its dead letters, for the queue gauges of /metrics. */
export async function queueCounts(queue: Queue, deadLetters: Queue): Promise<QueueCounts> {
  const [jobs, dead] = await Promise.all([queue.getJobCounts(...COUNTED_STATES), deadLetters.count()]);
  return { queue: queue.name, jobs, deadLetters: dead };
}

/** The producer side: enqueue documents, watch them, inspect and re-drive the dead letters. */
export class IngestQueue implements ReconciledQueue {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  private readonly connection: QueueConnection;

  /** On `url` when given, else where the config puts the queue (see queueTarget). */
  constructor(
    private readonly config: Config,
    private readonly jobs: JobStore,
    url?: string,
  ) {
    const target = queueTarget(config, url);
    if (!target)
      throw new RagError(ErrorCode.INVALID_CONFIG, 'the job queue needs REDIS_URL or REDIS_CLUSTER_NODES');
    this.connection = queueConnection(target);
    const name = config.AGENTIC_RAG_QUEUE_NAME;
    const prefix = queuePrefix(target, name);
    this.queue = new Queue(name, {
      connection: this.connection,
      prefix,
      defaultJobOptions: jobDefaults(config),
    });
    this.deadLetters = new Queue(deadLetterQueueName(name), { connection: this.connection, prefix });
    // BullMQ prints (console.error) the errors of a Queue nobody listens to: a Redis restart would
    // spray stack traces over the producer's output. Commands wait for the reconnect instead.
    for (const queue of [this.queue, this.deadLetters]) queue.on('error', () => {});
  }

  /**
   * One job. Its id is the same however often the same bytes of the same document are asked for,
   * until the document is deleted or asked for other bytes (a new generation, a new job). The row
   * in rag_jobs (with an inline document's text) is written first: whatever happens to Redis
   * after, the reconciler can enqueue it again from there.
   */
  async enqueue(
    payload: Omit<IngestDocumentPayload, 'trace' | 'kind' | 'split' | 'generation'>,
  ): Promise<string> {
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const parsed = ingestDocumentPayload.parse({ ...payload, kind: 'ingest-document', trace });
    let queued: IngestDocumentPayload = parsed;
    const { id } = await this.jobs.queuedDocument(
      { workspaceId: parsed.workspaceId, document: intentDocument(parsed), contentHash: parsed.contentHash },
      (generation) => {
        queued = { ...parsed, generation };
        return {
          id: idempotencyKey(queued),
          kind: parsed.kind,
          workspaceId: parsed.workspaceId,
          payload: payloadSummary(queued),
          traceId: trace.traceparent?.split('-')[1] ?? null,
          inlineContent: parsed.source.type === 'inline' ? parsed.source.content : null,
        };
      },
    );
    await this.handOver(queued, id);
    return id;
  }

  /**
   * Gives a recorded job to Redis, waiting at most AGENTIC_RAG_ENQUEUE_WAIT_MS, and not at all
   * while the connection is known to be down. With Redis away the caller is answered anyway,
   * truthfully: the job is in rag_jobs, the add finishes when Redis returns (ioredis keeps the
   * command), and if it never does a worker's reconciler enqueues the job from rag_jobs. A job id
   * is the idempotency key, so both arriving is still one job.
   */
  private async handOver(payload: JobPayload, id: string): Promise<void> {
    const added = this.queue.add(payload.kind, payload, { jobId: id }).then(
      () => undefined,
      () => undefined,
    );
    if (this.connection.status !== 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.config.AGENTIC_RAG_ENQUEUE_WAIT_MS);
    });
    await Promise.race([added, waited]);
    clearTimeout(timer);
  }

  /**
   * Every ingestible file of the given folders and files, one job each, named as an inline ingest
   * names it (see discoverSources: inside `namingRoot`, relative to it); hashes are taken now,
   * from the bytes. What cannot be found or read is reported, not queued.
   */
  async enqueuePaths(
    workspaceId: string,
    paths: readonly string[],
    namingRoot?: string,
  ): Promise<{ ids: string[]; failures: IngestFailure[] }> {
    const failures: IngestFailure[] = [];
    const sources = await discoverSources(paths, (failure) => failures.push(failure), namingRoot);
    const ids: string[] = [];
    for (const source of sources)
      for (const file of source.files) {
        const bytes = await readFile(file.absolutePath).catch((error: NodeJS.ErrnoException) => {
          failures.push({
            sourcePath: `${source.label}/${file.relativePath}`,
            code: ErrorCode.FILE_UNREADABLE,
            message: `cannot read file: ${error.code ?? error.message}`,
          });
          return null;
        });
        if (!bytes) continue;
        ids.push(
          await this.enqueue({
            workspaceId,
            source: { type: 'file', root: source.folder, relativePath: file.relativePath },
            contentHash: sha256(bytes),
          }),
        );
      }
    return { ids, failures };
  }

  async enqueueInline(workspaceId: string, id: string, content: string): Promise<string> {
    const screened = await this.screenInline(id, content);
    return this.enqueue({
      workspaceId,
      source: { type: 'inline', id, content: screened },
      contentHash: sha256(screened),
    });
  }

  /**
   * An inline document as it may enter Redis, where jobs keep their data for a day and dead
   * letters longer: its secrets redacted (INGEST_SECRETS=redact; the markers stay in the stored
   * text), or SECRET_REFUSED naming the rules (refuse). Files are read by the worker, which
   * screens them as the inline mode does.
   */
  async screenInline(id: string, content: string): Promise<string> {
    // A PDF or DOCX arrives as base64, which holds no readable secret (and redacting it would
    // corrupt the file): the worker screens the text it extracts, as it does a file's.
    if (binaryLoaderFor(id)) return content;
    const findings = await findSecrets(content);
    if (findings.length === 0) return content;
    if (this.config.INGEST_SECRETS === 'refuse') {
      const rules = [...new Set(findings.map((finding) => finding.rule))];
      throw new RagError(
        ErrorCode.SECRET_REFUSED,
        `document "${id}" not queued: it holds secrets (${rules.join(', ')}); remove them, or ingest with secrets redacted`,
        { details: { document: id, rules } },
      );
    }
    return redactSecrets(content, findings).text;
  }

  /** Resolves when every job has completed or died; `onProgress` after each. */
  async waitFor(
    ids: readonly string[],
    onProgress?: (done: number, total: number, failed: number) => void,
    timeoutMs = 3_600_000,
  ): Promise<{ completed: number; dead: number }> {
    const deadline = Date.now() + timeoutMs;
    let completed = 0;
    let dead = 0;
    const pending = new Set(ids);
    for (let round = 0; pending.size > 0; round++) {
      for (const id of [...pending]) {
        // Every 2 s, ask BullMQ too: a worker that lost Postgres cannot have recorded the end.
        const record = await this.jobs.get(id);
        const settled =
          record?.status === 'completed' || record?.status === 'dead'
            ? record.status
            : record && round % 10 === 9
              ? await this.settle(record)
              : null;
        if (settled === 'completed') completed++;
        else if (settled === 'dead') dead++;
        else continue;
        pending.delete(id);
        onProgress?.(completed + dead, ids.length, dead);
      }
      if (pending.size === 0) break;
      if (Date.now() > deadline)
        throw new RagError(ErrorCode.ABORTED, `${pending.size} jobs still unfinished`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { completed, dead };
  }

  /** Whether a live worker holds the job (it renews the lock every lockDuration / 2). */
  async isLocked(id: string): Promise<boolean> {
    return (await this.connection.exists(this.queue.toKey(`${id}:lock`))) > 0;
  }

  /** The job's ending as BullMQ knows it, recorded in rag_jobs (a lost job is enqueued again). */
  private async settle(record: JobRecord): Promise<'completed' | 'dead' | null> {
    const { outcome } = await new Reconciler(this, this.jobs).job(record);
    return outcome === 'completed' || outcome === 'dead' ? outcome : null;
  }

  async listDeadLetters(limit = 100): Promise<DeadLetter[]> {
    const jobs = await this.deadLetters.getJobs(['waiting', 'delayed', 'prioritized'], 0, limit - 1);
    return jobs.map((job: Job) => job.data as DeadLetter);
  }

  /**
   * Puts dead letters back on the queue as fresh jobs (all, or the given ids). The original job
   * is removed first, since its id is the idempotency key and BullMQ would treat it as taken.
   */
  async retryDeadLetters(ids?: readonly string[]): Promise<string[]> {
    const letters = await this.listDeadLetters(10_000);
    const chosen = ids ? letters.filter((letter) => ids.includes(letter.id)) : letters;
    const retried: string[] = [];
    for (const letter of chosen) {
      await this.queue.remove(letter.id).catch(() => 0);
      await this.jobs.requeue(letter.id);
      // A re-driven document starts over; the caches keep whatever its stage jobs finished.
      const payload =
        letter.payload.kind === 'ingest-document' ? { ...letter.payload, split: [] } : letter.payload;
      await this.queue.add(payload.kind, payload, { jobId: letter.id });
      await this.deadLetters.remove(letter.id);
      retried.push(letter.id);
    }
    return retried;
  }

  counts(): Promise<QueueCounts> {
    return queueCounts(this.queue, this.deadLetters);
  }

  /**
   * Gives up on every dead letter: the queue forgets them, and their rag_jobs rows become
   * `failed` (finished), so `resumeIngest` no longer takes them for dead letters Redis lost.
   */
  async purgeDeadLetters(): Promise<number> {
    const letters = await this.listDeadLetters(1_000_000);
    const count = await this.deadLetters.count();
    await this.deadLetters.drain(true);
    await this.jobs.givenUp(letters.map((letter) => letter.id));
    return count;
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.deadLetters.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
