import { useEffect, useState } from 'react';
import { operations } from '@agentic-rag/client';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import type { SearchHit } from '../api/types.js';
import { useSession } from '../session/session.js';
import { mentionedEntities, type MentionedEntity } from './graph-search.js';

// The most hits `search` returns: the more passages, the fairer the count of mentions per entity.
const PASSAGES = 50;

export type EntitySearch =
  | { status: 'idle' | 'loading' }
  | { status: 'done'; passages: number; entities: MentionedEntity[] }
  | { status: 'failed'; error: ApiError };

/** The entities that passages matching `query` mention, through `search` (the API has no entity search). */
export function useEntitySearch(query: string): EntitySearch {
  const { apiKey, workspaceId } = useSession();
  const [state, setState] = useState<EntitySearch>({ status: 'idle' });
  useEffect(() => {
    if (!query) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    // Only the answer to the query shown now may land: an earlier one still in flight is aborted.
    const land = (next: EntitySearch) => {
      if (!controller.signal.aborted) setState(next);
    };
    setState({ status: 'loading' });
    graphql<{ search: { hits: SearchHit[] } }>(
      apiKey,
      operations.SEARCH,
      { input: { query, workspaceId, k: PASSAGES } } satisfies operations.SearchQueryVariables,
      controller.signal,
    )
      .then(({ search }) =>
        land({
          status: 'done',
          passages: search.hits.length,
          entities: mentionedEntities(search.hits, query),
        }),
      )
      .catch((error: unknown) => land({ status: 'failed', error: asApiError(error) }));
    return () => controller.abort();
  }, [apiKey, workspaceId, query]);
  return state;
}
