import { useEffect, useState } from 'react';
import { asApiError, graphql, type ApiError } from './graphql.js';

export interface GraphqlRead<Data> {
  /** Null until the answer to the current key and variables lands. */
  data: Data | null;
  error: ApiError | null;
}

/**
 * A GraphQL read made again whenever the key, the query or the variables change. Only the answer
 * to the newest request lands (one still in flight is aborted), and the previous data is cleared
 * when a new request starts, so a page never shows one item's data under another's heading.
 */
export function useGraphqlRead<Data>(
  apiKey: string,
  query: string,
  variables: Record<string, unknown>,
): GraphqlRead<Data> {
  // The caller builds a new object on every render; the request depends on its contents.
  const key = JSON.stringify(variables);
  const [state, setState] = useState<GraphqlRead<Data>>({ data: null, error: null });
  useEffect(() => {
    const controller = new AbortController();
    setState({ data: null, error: null });
    graphql<Data>(apiKey, query, JSON.parse(key) as Record<string, unknown>, controller.signal)
      .then((data) => setState({ data, error: null }))
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setState({ data: null, error: asApiError(caught) });
      });
    return () => controller.abort();
  }, [apiKey, query, key]);
  return state;
}
