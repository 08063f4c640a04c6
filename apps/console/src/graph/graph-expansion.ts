import { operations } from '@agentic-rag/client';
import { useEffect, useState } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { useSession } from '../session/session.js';
import type { GraphEdge, GraphNode } from './GraphView.js';

export type Expansion =
  | { status: 'idle' | 'loading' }
  | { status: 'done'; entities: GraphNode[]; edges: GraphEdge[] }
  | { status: 'failed'; error: ApiError };

/** The neighbourhood of `ids` within `depth` hops, through `expandGraph`. */
export function useExpansion(ids: string[], depth: number): Expansion {
  const { apiKey, workspaceId } = useSession();
  const [state, setState] = useState<Expansion>({ status: 'idle' });
  // The page reads a new array from the URL on every render; the request depends on its contents.
  const key = JSON.stringify(ids);
  useEffect(() => {
    const list = JSON.parse(key) as string[];
    if (list.length === 0) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    const land = (next: Expansion) => {
      if (!controller.signal.aborted) setState(next);
    };
    setState({ status: 'loading' });
    graphql<operations.ExpandGraphQuery>(
      apiKey,
      operations.EXPAND_GRAPH,
      { workspaceId, ids: list, depth } satisfies operations.ExpandGraphQueryVariables,
      controller.signal,
    )
      .then(({ expandGraph }) => land({ status: 'done', ...expandGraph }))
      .catch((error: unknown) => land({ status: 'failed', error: asApiError(error) }));
    return () => controller.abort();
  }, [apiKey, workspaceId, key, depth]);
  return state;
}
