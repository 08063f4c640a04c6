import { createServer, type Server } from 'node:http';
import { ErrorCode, toRagError, type RagRuntime } from '@agentic-rag/core';
import { sendError, sendJson } from './http-errors.js';

export interface ApiState {
  runtime: RagRuntime;
  /** False until the start-up ingest of the sample corpus has finished. */
  ready: boolean;
}

/**
 * The HTTP surface: liveness and readiness for orchestrators. GraphQL, REST search and /metrics
 * are mounted on this same server by the control-plane work.
 */
export function createApi(runtime: RagRuntime): { server: Server; state: ApiState } {
  const state: ApiState = { runtime, ready: false };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const route = `${request.method ?? 'GET'} ${url.pathname}`;
    if (route === 'GET /healthz') {
      sendJson(response, 200, { status: 'ok' });
      return;
    }
    if (route === 'GET /readyz') {
      if (!state.ready) {
        sendError(response, ErrorCode.STORE_UNAVAILABLE, 'starting: the corpus is still being ingested', 503);
        return;
      }
      const workspaceId = state.runtime.config.AGENTIC_RAG_WORKSPACE;
      state.runtime.store.stats(workspaceId).then(
        (corpus) => sendJson(response, 200, { status: 'ready', backend: state.runtime.sql.backend, corpus }),
        (error: unknown) => {
          const ragError = toRagError(error, ErrorCode.STORE_UNAVAILABLE);
          state.runtime.logger.error('readiness check failed', {
            event: 'readiness-failed',
            error: ragError,
          });
          sendError(response, ErrorCode.STORE_UNAVAILABLE, 'database unavailable', 503);
        },
      );
      return;
    }
    sendError(response, ErrorCode.NOT_FOUND, `no route for ${route}`);
  });
  return { server, state };
}
