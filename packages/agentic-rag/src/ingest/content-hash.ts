import { createHash } from 'node:crypto';
import type { LoadedDocument } from './document.js';

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Everything a loader produced that ends up stored: a change to any of it is a change. */
export function contentHash(document: LoadedDocument): string {
  const stored: unknown[] = [document.kind, document.title, document.url, document.text, document.metadata];
  // Pages only when there are any, so documents without them keep the hash they were stored under.
  if (document.pages) stored.push(document.pages);
  return sha256(JSON.stringify(stored));
}

/**
 * What else decides a document's chunks and vectors. When it changes (another chunk size, another
 * embedding model), unchanged files are re-chunked and re-embedded on the next ingest.
 */
export function pipelineFingerprint(settings: Record<string, unknown>): string {
  return sha256(JSON.stringify(settings)).slice(0, 32);
}

/** Stable across re-ingests of the same text, so citations keep pointing at the same chunk. */
export function stableChunkId(workspaceId: string, sourcePath: string, index: number, text: string): string {
  return sha256(`${workspaceId}\u0000${sourcePath}\u0000${index}\u0000${text}`).slice(0, 32);
}
