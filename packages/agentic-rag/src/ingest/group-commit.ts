import type { WriteDocumentInput, WriteDocumentResult } from '../store/index.js';
import { DEFAULT_BATCH_LIMITS, WriteBatcher, type WriteBatcherLimits } from './write-batcher.js';

/**
 * How long a prepared document waits for the others of its workspace still being prepared. Long
 * enough for a few documents' chunking and embedding to finish beside it; short against a job.
 */
export const DEFAULT_LINGER_MS = 50;

/** One document being prepared: written through the group, or released when there is nothing to write. */
export interface CommitTicket {
  write(input: WriteDocumentInput, signal?: AbortSignal): Promise<WriteDocumentResult>;
  /** Idempotent; a ticket that wrote is already released. */
  release(): void;
}

interface Group {
  batcher: WriteBatcher;
  /** Tickets of this workspace whose document is still being prepared. */
  preparing: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Group commit for documents that arrive one at a time from concurrent callers (queue jobs, API
 * ingests): a prepared document waits, at most `lingerMs`, for the documents of its workspace
 * still being prepared, and then they are written together in one transaction (see
 * WriteBatcher): the shared statistics are updated once and one lexical segment holds them all,
 * instead of one transaction and one segment per document. A document with no company is written
 * at once. A batch that fails is written again one document at a time, so each caller still gets
 * its own document's outcome.
 */
export class GroupCommit {
  private readonly groups = new Map<string, Group>();

  constructor(
    private readonly write: (inputs: readonly WriteDocumentInput[]) => Promise<WriteDocumentResult[]>,
    private readonly limits: WriteBatcherLimits = DEFAULT_BATCH_LIMITS,
    private readonly lingerMs = DEFAULT_LINGER_MS,
  ) {}

  /** Call before preparing a document of the workspace, so that the ones ready wait for it. */
  begin(workspaceId: string): CommitTicket {
    const group = this.group(workspaceId);
    group.preparing++;
    let open = true;
    const release = () => {
      if (!open) return;
      open = false;
      group.preparing--;
      this.settle(workspaceId, group);
    };
    return {
      write: async (input, signal) => {
        const written = group.batcher.add(input, signal);
        release();
        try {
          return await written;
        } finally {
          this.forgetIfIdle(workspaceId, group);
        }
      },
      release,
    };
  }

  private group(workspaceId: string): Group {
    let group = this.groups.get(workspaceId);
    if (!group) {
      group = { batcher: new WriteBatcher(this.write, this.limits), preparing: 0, timer: undefined };
      this.groups.set(workspaceId, group);
    }
    return group;
  }

  /** Writes what is ready once nobody else is preparing, or when the first ready one has waited long enough. */
  private settle(workspaceId: string, group: Group): void {
    if (group.preparing === 0) {
      this.flush(group);
      this.forgetIfIdle(workspaceId, group);
    } else if (!group.timer && !group.batcher.idle()) {
      group.timer = setTimeout(() => this.flush(group), this.lingerMs);
      group.timer.unref();
    }
  }

  private flush(group: Group): void {
    clearTimeout(group.timer);
    group.timer = undefined;
    group.batcher.flush();
  }

  private forgetIfIdle(workspaceId: string, group: Group): void {
    if (group.preparing === 0 && group.batcher.idle() && this.groups.get(workspaceId) === group) {
      clearTimeout(group.timer);
      this.groups.delete(workspaceId);
    }
  }
}
