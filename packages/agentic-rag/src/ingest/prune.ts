import type { StoredDocumentRef } from '../store/index.js';
import type { LoadResult } from './loaders/index.js';
import type { IngestStore } from './pipeline-options.js';
import type { Source } from './sources.js';

/**
 * Removes the stored documents of a folder source that `keep` does not hold: those under its
 * label and, for a folder below the naming root, only those below that folder (an ingest of
 * `docs/api` says nothing about `docs/guides`). Returns how many were removed.
 */
export async function pruneSource(
  store: Pick<IngestStore, 'listDocuments' | 'deleteDocuments'>,
  workspaceId: string,
  source: Source,
  keep: (document: StoredDocumentRef) => boolean,
): Promise<number> {
  const stored = await store.listDocuments(workspaceId, source.label);
  const gone = stored
    .filter((document) => source.scope === null || document.sourceFile.startsWith(source.scope))
    .filter((document) => !keep(document))
    .map((document) => document.sourcePath);
  return gone.length > 0 ? store.deleteDocuments(workspaceId, gone) : 0;
}

/**
 * A file split into documents (a knowledge pack's pieces, a spec's operations, JSONL records)
 * that is ingested again on its own takes the documents it no longer yields with it: a piece
 * removed or edited (a new id) must not stay searchable beside its replacement. A file that
 * loaded nothing says nothing about its documents and prunes nothing.
 */
export async function pruneSiblings(
  store: Pick<IngestStore, 'listDocuments' | 'deleteDocuments'>,
  workspaceId: string,
  sourceRoot: string,
  loaded: LoadResult,
): Promise<number> {
  const sourceFile = loaded.documents[0]?.sourceFile;
  if (!sourceFile) return 0;
  const produced = new Set(loaded.documents.map((document) => document.sourcePath));
  const stored = await store.listDocuments(workspaceId, sourceRoot, sourceFile);
  const gone = stored
    .filter((document) => !produced.has(document.sourcePath))
    .map((document) => document.sourcePath);
  return gone.length > 0 ? store.deleteDocuments(workspaceId, gone) : 0;
}
