import { context, propagation } from '@opentelemetry/api';
import type { Job, Queue } from 'bullmq';
import type { IngestPipeline, PendingWork } from '../ingest/index.js';
import type { JobStore } from '../store/index.js';
import {
  idempotencyKey,
  payloadSummary,
  type IngestDocumentPayload,
  type StageJobPayload,
} from './payloads.js';

export interface SplitDeps {
  queue: Queue;
  jobs: JobStore;
  pipeline: IngestPipeline;
  /** Items per stage job; a document with no more than this pending is not split. */
  batchSize: number;
}

/**
 * A big document's slow stages as jobs of their own, so that every worker can take a share: HyDE
 * questions first (they are part of what is embedded), then embedding batches with the entity
 * extraction beside them. Each stage job leaves its output in a cache (`rag_embedding_cache`,
 * `rag_stage_outputs`); when they have finished, the document's own job runs again and writes
 * the document in one transaction, reading what the stage jobs computed. A stage job that died
 * leaves a gap the parent fills itself, so a split document never ends worse than an unsplit one.
 *
 * Resolves true when the job now waits for its children (the caller throws WaitingChildrenError).
 * Only stages with a cache in front can be split: with the deterministic embedder and no HyDE,
 * nothing is worth moving and every document runs in one job.
 */
export async function splitIntoStageJobs(
  job: Job,
  token: string,
  payload: IngestDocumentPayload,
  deps: SplitDeps,
): Promise<boolean> {
  const done = new Set(payload.split);
  if (done.has('embed')) return false;
  const pending = await deps.pipeline.pendingWork(payload.workspaceId, payload.source);
  const trace: Record<string, string> = {};
  propagation.inject(context.active(), trace);

  let step: 'hyde' | 'embed' = 'hyde';
  let children = done.has('hyde')
    ? []
    : pending.flatMap((work) => batches('hyde', work, work.questions, deps.batchSize, payload, trace));
  if (children.length === 0) {
    step = 'embed';
    children = pending
      .filter((work) => work.embeddings.length > deps.batchSize)
      .flatMap((work) => [
        ...batches('embed-chunks', work, work.embeddings, deps.batchSize, payload, trace),
        ...(work.extraction
          ? [
              {
                kind: 'extract-entities' as const,
                workspaceId: payload.workspaceId,
                document: work.sourcePath,
                contentHash: work.contentHash,
                batch: 0,
                trace,
                input: work.extraction,
              },
            ]
          : []),
      ]);
  }
  if (children.length === 0) return false;

  for (const child of children) {
    const id = idempotencyKey(child);
    // A finished job of an earlier split keeps its id for a day; BullMQ would take the new add as
    // a duplicate and the parent might wait on a job that never runs again. Its output is cached,
    // so running it once more costs a cache read.
    const earlier = await deps.queue.getJob(id);
    if (earlier && ((await earlier.isCompleted()) || (await earlier.isFailed()))) await earlier.remove();
    await deps.jobs.queued({
      id,
      kind: child.kind,
      workspaceId: child.workspaceId,
      payload: payloadSummary(child),
      traceId: trace.traceparent?.split('-')[1] ?? null,
    });
    await deps.queue.add(child.kind, child, {
      jobId: id,
      parent: { id: job.id!, queue: job.queueQualifiedName },
      // A dead stage job must not fail the document: the parent redoes the missing part itself.
      ignoreDependencyOnFailure: true,
    });
  }
  await job.updateData({ ...payload, split: [...payload.split, step] });
  return job.moveToWaitingChildren(token);
}

/** A document's pending texts of one stage, `size` per job; none when one job's worth or less. */
function batches(
  kind: 'hyde' | 'embed-chunks',
  work: PendingWork,
  texts: readonly string[],
  size: number,
  payload: IngestDocumentPayload,
  trace: Record<string, string>,
): StageJobPayload[] {
  if (texts.length <= size) return [];
  const jobs: StageJobPayload[] = [];
  for (let start = 0; start < texts.length; start += size) {
    jobs.push({
      kind,
      workspaceId: payload.workspaceId,
      document: work.sourcePath,
      contentHash: work.contentHash,
      batch: start / size,
      trace,
      texts: texts.slice(start, start + size),
    });
  }
  return jobs;
}
