import { ErrorCode, RagError } from '../errors/index.js';

/**
 * Rejects a call whose signal is already aborted, before it does any work: ABORTED with the
 * abort reason as cause, as the database and model adapters report it.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'graph call aborted', { cause: signal.reason });
}
