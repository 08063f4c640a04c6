import { AsyncLocalStorage } from 'node:async_hooks';

/** The job a piece of pipeline work runs for, so stage events can be filed under it. */
export interface RunningJob {
  id: string;
  /** Records a stage's progress (0..1) on the job, in BullMQ and in rag_jobs. */
  progress(fraction: number): Promise<void>;
}

export const runningJob = new AsyncLocalStorage<RunningJob>();

/** How far a document is once it passed each stage: embedding is most of the work. */
export const STAGE_PROGRESS: Readonly<Record<string, number>> = {
  parsed: 0.05,
  chunked: 0.1,
  embedded: 0.7,
  'graph-extracted': 0.8,
  stored: 1,
};
