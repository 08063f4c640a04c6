import type { ApolloServerPlugin } from '@apollo/server';
import { ERROR_CODE_INFO, GRAPHQL_REFUSALS } from '@agentic-rag/core';

/** Refusals that answer with their own HTTP status when nothing else in the request succeeded. */
const REFUSALS = new Map<string, number>(
  GRAPHQL_REFUSALS.map((code) => [ERROR_CODE_INFO[code].graphql, ERROR_CODE_INFO[code].httpStatus]),
);

/**
 * A request whose every field was refused for access (FORBIDDEN, RATE_LIMITED) or because RAG is
 * switched off (RAG_DISABLED, as REST answers it) answers 403, 429 or 503, not 200, so proxies, logs and clients that only read the status see what happened. A
 * request with some data keeps 200 and the errors beside it, as GraphQL does.
 */
export const accessStatus: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const { data, errors } = response.body.singleResult;
        if (!errors || errors.length === 0) return;
        if (data && Object.values(data).some((value) => value !== null)) return;
        const statuses = errors.map((error) => REFUSALS.get(String(error.extensions?.code)));
        if (statuses.some((status) => status === undefined)) return;
        response.http.status = Math.max(...(statuses as number[]));
        const retryAfter = errors
          .map(
            (error) =>
              (error.extensions?.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds,
          )
          .find((value) => typeof value === 'number');
        if (retryAfter !== undefined) response.http.headers.set('retry-after', String(retryAfter));
      },
    };
  },
};
