import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Read-your-writes over a streaming replica, by corpus version.
 *
 * Every document write bumps `rag_workspaces.corpus_version` in the same transaction as the
 * chunks it changes (store/corpus-store.ts), so "the replica has replayed version v of this
 * workspace" means "the replica holds every chunk write up to v". A read that must see a write
 * therefore needs only that number: the version the write returned. It reaches the read two ways:
 * the client presents it (`minCorpusVersion`, the token a write's result carries, for a read that
 * lands on another API process), and this process remembers what it wrote itself (CorpusVersions).
 */

/** What the reads of one request need; `decision` is shared by every read of the request. */
export interface ReadConsistency {
  readonly workspaceId: string;
  /** The lowest corpus version of the workspace the reads may see. */
  readonly version: number;
  /** Set by ReadRoutingSql at the request's first read (see there why it sticks). */
  decision?: Promise<'replica' | 'primary'>;
}

const consistency = new AsyncLocalStorage<ReadConsistency>();

/**
 * Runs `work` with every read it sends through a ReadRoutingSql needing at least `version` of the
 * workspace's corpus. Outside such a call the routing Sql sends everything to the primary: only a
 * read that says what it needs may be served by a copy that can lag.
 */
export async function withCorpusVersion<T>(
  workspaceId: string,
  version: number,
  work: () => Promise<T>,
): Promise<T> {
  return await consistency.run({ workspaceId, version }, work);
}

/** The needs of the innermost withCorpusVersion() around the caller, if any. */
export function currentReadConsistency(): ReadConsistency | undefined {
  return consistency.getStore();
}

/**
 * The newest corpus version this process wrote (or was told was written) per workspace. A process
 * reads its own writes without a token: its reads need at least this. Versions only grow, so a
 * late or repeated note never lowers what is remembered.
 */
export class CorpusVersions {
  private readonly latestByWorkspace = new Map<string, number>();

  note(workspaceId: string, version: number): void {
    if (!Number.isSafeInteger(version) || version < 0) return;
    if (version > (this.latestByWorkspace.get(workspaceId) ?? 0))
      this.latestByWorkspace.set(workspaceId, version);
  }

  latest(workspaceId: string): number {
    return this.latestByWorkspace.get(workspaceId) ?? 0;
  }
}
