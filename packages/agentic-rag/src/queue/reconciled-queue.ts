import type { Queue } from 'bullmq';
import type { IngestDocumentPayload, JobPayload } from './payloads.js';

export interface DeadLetter {
  /** The failed job's id (its idempotency key). */
  id: string;
  payload: JobPayload;
  error: string;
  attempts: number;
  traceId: string | null;
  failedAt: string;
}

/**
 * What the reconciler reads and repairs of the queue (IngestQueue is the one there is): the
 * BullMQ queues themselves, a job's lock, the dead letters, and a fresh enqueue. A leaf, so the
 * queue can run the reconciler and the reconciler hold the queue without importing each other.
 */
export interface ReconciledQueue {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  isLocked(id: string): Promise<boolean>;
  listDeadLetters(limit?: number): Promise<DeadLetter[]>;
  retryDeadLetters(ids?: readonly string[]): Promise<string[]>;
  enqueue(payload: Omit<IngestDocumentPayload, 'trace' | 'kind' | 'split' | 'generation'>): Promise<string>;
}
