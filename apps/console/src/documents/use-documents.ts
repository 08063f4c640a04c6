import { useCallback, useEffect, useState } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { DOCUMENT_SUMMARY, DOCUMENTS } from '../api/operations.js';
import type { DocumentSummary } from '../api/types.js';
import { useSession } from '../session/session.js';

interface Page {
  documents: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: Array<{ node: DocumentSummary }>;
  };
}

/** Newest update first (an upload lands on top), or by id. */
export type DocumentOrder = 'UPDATED' | 'PATH';

/** How long typing pauses before the list asks the server again. */
const SEARCH_PAUSE_MS = 250;

/**
 * The workspace's documents a page (100) at a time, reloaded on `reload()`. `setSearch` narrows
 * them on the server (id, title or kind), so a search covers the whole workspace, not the pages
 * already loaded. `changed(id)` reads one row again after a refresh or delete, keeping the pages
 * loaded and where the reader is.
 */
export function useDocuments() {
  const { apiKey, workspaceId } = useSession();
  const [search, setSearchNow] = useState('');
  const [order, setOrder] = useState<DocumentOrder>('UPDATED');
  const [typed, setTyped] = useState('');
  const [documents, setDocuments] = useState<DocumentSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  const load = useCallback(
    async (after: string | null, signal?: AbortSignal) => {
      setLoading(true);
      try {
        const { documents: page } = await graphql<Page>(
          apiKey,
          DOCUMENTS,
          { workspaceId, after, search: search.trim() || null, orderBy: order },
          signal,
        );
        const nodes = page.edges.map((edge) => edge.node);
        setDocuments((shown) => (after ? [...shown, ...nodes] : nodes));
        setTotal(page.totalCount);
        setNext(page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null);
        setError(null);
      } catch (caught) {
        if (signal?.aborted) return;
        setError(asApiError(caught));
        // A list that failed to load shows nothing rather than rows (and Delete buttons) it cannot vouch for.
        if (!after) {
          setDocuments([]);
          setTotal(0);
          setNext(null);
        }
      } finally {
        if (!signal?.aborted) setLoading(false);
      }
    },
    [apiKey, workspaceId, search, order],
  );

  const changed = useCallback(
    async (id: string) => {
      try {
        const { document } = await graphql<{ document: DocumentSummary | null }>(apiKey, DOCUMENT_SUMMARY, {
          workspaceId,
          id,
        });
        if (document === null) setTotal((count) => Math.max(0, count - 1));
        setDocuments((shown) => shown.flatMap((row) => (row.id !== id ? [row] : document ? [document] : [])));
      } catch (caught) {
        setError(asApiError(caught));
      }
    },
    [apiKey, workspaceId],
  );

  useEffect(() => {
    const timer = setTimeout(() => setSearchNow(typed), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    const controller = new AbortController();
    void load(null, controller.signal);
    return () => controller.abort();
  }, [load, generation]);

  return {
    search: typed,
    /** What was searched for by the rows shown (the typed text, once typing pauses). */
    searched: search,
    setSearch: setTyped,
    order,
    setOrder,
    changed: (id: string) => void changed(id),
    documents,
    total,
    error,
    loading,
    hasMore: next !== null,
    loadMore: () => void load(next),
    reload: useCallback(() => setGeneration((value) => value + 1), []),
  };
}
