import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { httpRequestDuration, type Logger } from '@agentic-rag/core';
import { restRouteOf } from './rest/router.js';

const tracer = trace.getTracer('agentic-rag');

/** A caller's id is kept when it is a plain token; anything else could forge log fields. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Routes the server answers, as metric labels; every other path is one `unmatched` series.
 * '/graphql/stream' is GRAPHQL_STREAM_PATH written out: importing it would close a cycle through
 * graphql/errors.ts, which imports this file.
 */
const ROUTES = new Set(['/graphql', '/graphql/stream', '/explorer', '/healthz', '/readyz', '/metrics']);

/** Probes and scrapes come every few seconds: their lines are debug, and they make no spans. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

export interface RequestScope {
  requestId: string;
  logger: Logger;
}

/**
 * The request being served, for code Apollo calls without a context (its `formatError`).
 * Everything else gets the request's logger passed in explicitly.
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();

/** The route template of a path: the label of its metrics and the name of its span. */
export function routeOf(pathname: string): string {
  if (pathname.startsWith('/explorer/')) return '/explorer';
  const rest = restRouteOf(pathname);
  if (rest) return rest;
  return ROUTES.has(pathname) ? pathname : 'unmatched';
}

/**
 * Runs one request with its id (the caller's `x-request-id`, or a new one, echoed in the
 * response), a logger bound to that id, a server span that continues the caller's
 * `traceparent` (so an agent's trace reaches into ragAnswer), a sample of the request-duration
 * histogram and one access-log line.
 */
export async function withRequestTelemetry(
  request: IncomingMessage,
  response: ServerResponse,
  baseLogger: Logger,
  handle: (logger: Logger) => Promise<void>,
): Promise<void> {
  const header = request.headers['x-request-id'];
  const requestId = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
  response.setHeader('x-request-id', requestId);
  const logger = baseLogger.child({ requestId });
  const method = METHODS.has(request.method ?? '') ? request.method! : 'other';
  const route = routeOf(new URL(request.url ?? '/', 'http://localhost').pathname);
  const started = performance.now();
  const quiet = QUIET_ROUTES.has(route);
  const parent = propagation.extract(context.active(), request.headers);
  const span = quiet
    ? null
    : tracer.startSpan(
        `${method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': method, 'http.route': route, 'rag.request_id': requestId },
        },
        parent,
      );
  // `close` fires for finished and aborted responses alike, once.
  response.once('close', () => {
    const seconds = (performance.now() - started) / 1000;
    const status = response.statusCode;
    httpRequestDuration.observe({ method, route, status_code: String(status) }, seconds);
    if (span) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    const line = {
      event: 'http-request',
      method,
      route,
      status,
      aborted: !response.writableFinished,
      ms: Number((seconds * 1000).toFixed(1)),
    };
    if (quiet) logger.debug('request', line);
    else logger.info('request', line);
  });
  await requestScope.run({ requestId, logger }, () =>
    span ? context.with(trace.setSpan(parent, span), () => handle(logger)) : handle(logger),
  );
}
