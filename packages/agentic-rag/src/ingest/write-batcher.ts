import { ErrorCode, RagError, toRagError } from '../errors/index.js';
import type { WriteDocumentInput, WriteDocumentResult } from '../store/index.js';
import { STOP_THE_RUN } from './summary.js';

export interface WriteBatcherLimits {
  /** Documents per transaction. */
  documents: number;
  /** Chunks per transaction: bounds the statement's size whatever the documents' lengths. */
  chunks: number;
  /**
   * Batches written at once. A batch's long statement (chunks and postings) shares no rows with
   * another's; they queue only on the statistics at the end. Two keep two server cores busy.
   */
  parallel: number;
}

/**
 * Measured on Postgres (bench:ingest, 10-chunk documents): the statistics every document shares
 * (document frequencies, the workspace row) cost less per document as the batch grows, flattening
 * out by a few hundred chunks; past a few thousand, one statement holds tens of MB of parameters.
 */
export const DEFAULT_BATCH_LIMITS: WriteBatcherLimits = { documents: 64, chunks: 1000, parallel: 2 };

/**
 * On the embedded database a transaction holds its only backend: smaller batches, one at a time,
 * keep a search from waiting long behind a bulk load.
 */
export const EMBEDDED_BATCH_LIMITS: WriteBatcherLimits = { documents: 16, chunks: 250, parallel: 1 };

interface Pending {
  input: WriteDocumentInput;
  resolve: (result: WriteDocumentResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers prepared documents into batches, each written in one transaction, while the next
 * batch is being prepared: up to `parallel` batches in flight, the next filling. A batch that fails is written
 * again one document at a time, so one bad document fails alone; a failure that would fail every
 * document (the store is down, the run was cancelled) fails the batch as it is.
 */
export class WriteBatcher {
  private pending: Pending[] = [];
  private pendingChunks = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private draining = false;
  /** Set by flush: what is pending goes out whether or not a batch is full. */
  private flushing = false;

  constructor(
    private readonly write: (inputs: readonly WriteDocumentInput[]) => Promise<WriteDocumentResult[]>,
    private readonly limits: WriteBatcherLimits = DEFAULT_BATCH_LIMITS,
  ) {}

  /**
   * Queues a document; settles once its batch is written. A signal that aborts while the document
   * still waits for its batch takes it out (ABORTED); once its batch is being written it stays.
   */
  add(input: WriteDocumentInput, signal?: AbortSignal): Promise<WriteDocumentResult> {
    signal?.throwIfAborted();
    const written = new Promise<WriteDocumentResult>((resolve, reject) => {
      const item: Pending = { input, resolve, reject };
      if (signal) {
        const withdraw = () => {
          const at = this.pending.indexOf(item);
          if (at < 0) return;
          this.pending.splice(at, 1);
          this.pendingChunks -= input.chunks.length;
          reject(new RagError(ErrorCode.ABORTED, `${input.sourcePath} was cancelled before it was written`));
        };
        signal.addEventListener('abort', withdraw, { once: true });
        item.resolve = (result) => {
          signal.removeEventListener('abort', withdraw);
          resolve(result);
        };
        item.reject = (error) => {
          signal.removeEventListener('abort', withdraw);
          reject(error);
        };
      }
      this.pending.push(item);
    });
    this.pendingChunks += input.chunks.length;
    this.kick();
    return written;
  }

  /** Writes what is queued now, in as many batches as it takes, without waiting for them. */
  flush(): void {
    this.flushing = true;
    this.kick();
  }

  /** Nothing queued and nothing being written. */
  idle(): boolean {
    return this.pending.length === 0 && this.inFlight.size === 0;
  }

  /** Resolves once there is room for another document: back-pressure for whoever prepares them. */
  async room(): Promise<void> {
    while (this.full() && this.inFlight.size > 0) await Promise.race(this.inFlight);
  }

  /** Writes everything queued and waits for it. */
  async drain(): Promise<void> {
    this.draining = true;
    this.kick();
    while (this.inFlight.size > 0) await Promise.race(this.inFlight);
  }

  private full(): boolean {
    return this.pending.length >= this.limits.documents || this.pendingChunks >= this.limits.chunks;
  }

  private kick(): void {
    while (
      this.inFlight.size < this.limits.parallel &&
      this.pending.length > 0 &&
      (this.full() || this.draining || this.flushing)
    ) {
      const batch: Pending[] = [];
      const paths = new Set<string>();
      let chunks = 0;
      while (this.pending.length > 0 && batch.length < this.limits.documents) {
        const next = this.pending[0]!;
        if (batch.length > 0 && chunks + next.input.chunks.length > this.limits.chunks) break;
        // A batch holds each document once (two writers of one path write one after the other).
        if (paths.has(next.input.sourcePath)) break;
        paths.add(next.input.sourcePath);
        batch.push(this.pending.shift()!);
        chunks += next.input.chunks.length;
      }
      this.pendingChunks -= chunks;
      const written: Promise<void> = this.writeBatch(batch).finally(() => {
        this.inFlight.delete(written);
        this.kick();
      });
      this.inFlight.add(written);
    }
    if (this.pending.length === 0) this.flushing = false;
  }

  private async writeBatch(batch: readonly Pending[]): Promise<void> {
    try {
      const results = await this.write(batch.map((item) => item.input));
      batch.forEach((item, index) => item.resolve(results[index]!));
      return;
    } catch (error) {
      const code = toRagError(error).code;
      if (batch.length === 1 || code === ErrorCode.ABORTED || STOP_THE_RUN.has(code)) {
        for (const item of batch) item.reject(error);
        return;
      }
    }
    for (const item of batch) {
      try {
        item.resolve((await this.write([item.input]))[0]!);
      } catch (error) {
        item.reject(error);
      }
    }
  }
}
