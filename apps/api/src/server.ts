import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  ErrorCode,
  metricsRegistry,
  toRagError,
  type Caller,
  type Logger,
  type RagService,
} from '@agentic-rag/core';
import { handleConsole } from './console/index.js';
import { handleExplorer } from './explorer/index.js';
import { createGraphql } from './graphql/apollo.js';
import { createGraphqlStream, GRAPHQL_STREAM_PATH } from './graphql/stream.js';
import { BodyTooLarge, MalformedBody } from './http-body.js';
import { sendError, sendJson } from './http-errors.js';
import { refuseWhenDisabled } from './rag-gate.js';
import { refuseGraphql, refuseRest } from './refusals.js';
import { withRequestTelemetry } from './request-telemetry.js';
import { handleRest } from './rest/router.js';

export interface ApiState {
  service: RagService;
  /** False until the start-up ingest of the sample corpus has finished. */
  ready: boolean;
}

/**
 * The HTTP surface: the web console at /, GraphQL at /graphql with an offline explorer at /explorer, the REST search
 * contract (/search/semantic, /search/expand-graph, /entity/..., /openapi.json), Prometheus at
 * /metrics, liveness and readiness for orchestrators. GraphQL and REST callers authenticate
 * with `Authorization: Bearer <key>` before anything else runs; /healthz, the explorer page and
 * the OpenAPI document are open and say nothing about content.
 */
export async function createApi(
  service: RagService,
): Promise<{ server: Server; state: ApiState; stop: () => Promise<void> }> {
  const state: ApiState = { service, ready: false };
  const graphql = await createGraphql(service);
  const graphqlStream = createGraphqlStream(service);
  const authenticate = (request: IncomingMessage) =>
    service.authenticate(request.headers.authorization, request.socket.remoteAddress);

  const route = async (request: IncomingMessage, response: ServerResponse, logger: Logger): Promise<void> => {
    if (handleExplorer(request, response, service.defaultWorkspace)) return;
    if (handleConsole(request, response)) return;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const streaming = url.pathname === GRAPHQL_STREAM_PATH;
    if ((url.pathname === '/graphql' || streaming) && (method === 'POST' || method === 'GET')) {
      let caller: Caller;
      try {
        caller = await authenticate(request);
      } catch (error) {
        refuseGraphql(response, toRagError(error));
        return;
      }
      if (streaming) await graphqlStream(request, response, logger, caller);
      else await graphql.handle(request, response, logger, caller);
      return;
    }
    if (await refuseWhenDisabled(request, response, service)) return;
    if (await handleRest(request, response, service, logger)) return;
    const key = `${method} ${url.pathname}`;
    if (key === 'GET /healthz') {
      sendJson(response, 200, { status: 'ok' });
      return;
    }
    if (key === 'GET /metrics') {
      if (!service.isMetricsToken(request.headers.authorization)) {
        try {
          service.authorize(await authenticate(request), 'metrics');
        } catch (error) {
          refuseRest(response, toRagError(error));
          return;
        }
      }
      const body = await metricsRegistry.metrics();
      response.writeHead(200, { 'content-type': metricsRegistry.contentType });
      response.end(body);
      return;
    }
    if (key === 'GET /readyz') {
      if (!state.ready) {
        sendError(response, ErrorCode.STORE_UNAVAILABLE, 'starting: the corpus is still being ingested', 503);
        return;
      }
      // Details (the backend, the default workspace's size) only for a key or the metrics token.
      const entitled =
        service.isMetricsToken(request.headers.authorization) ||
        (request.headers.authorization !== undefined &&
          (await authenticate(request).then(
            () => true,
            () => false,
          )));
      try {
        const { backend, corpus } = await service.status();
        sendJson(response, 200, entitled ? { status: 'ready', backend, corpus } : { status: 'ready' });
      } catch (error) {
        logger.error('readiness check failed', {
          event: 'readiness-failed',
          error: toRagError(error, ErrorCode.STORE_UNAVAILABLE),
        });
        sendError(response, ErrorCode.STORE_UNAVAILABLE, 'database unavailable', 503);
      }
      return;
    }
    sendError(response, ErrorCode.NOT_FOUND, `no route for ${key}`);
  };

  const server = createServer((request, response) => {
    void withRequestTelemetry(request, response, service.logger, (logger) =>
      route(request, response, logger).catch((error: unknown) => failed(response, logger, error)),
    );
  });
  return { server, state, stop: graphql.stop };
}

/** The answer to a request whose handler threw: a GraphQL-shaped error for unreadable bodies, else a masked 500. */
function failed(response: ServerResponse, logger: Logger, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // The client went away while its body was read (a browser aborting a fetch it no longer needs):
  // there is no one to answer, and nothing failed here.
  if (response.destroyed || (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET') {
    logger.info('client closed the request', { event: 'request-aborted' });
    response.destroy();
    return;
  }
  // Bodies GraphQL cannot read get a GraphQL-shaped error, like every other /graphql answer.
  if (error instanceof BodyTooLarge || error instanceof MalformedBody) {
    const tooLarge = error instanceof BodyTooLarge;
    sendJson(response, tooLarge ? 413 : 400, {
      errors: [
        {
          message: tooLarge ? 'request body exceeds 1 MiB' : error.message,
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
    return;
  }
  logger.error('request failed', { event: 'http-error', error: toRagError(error) });
  sendError(response, ErrorCode.INTERNAL, 'internal error');
}
