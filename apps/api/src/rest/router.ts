import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ErrorCode,
  firstDirtyString,
  toRagError,
  type Logger,
  type OperationContext,
  type RagService,
} from '@agentic-rag/core';
import { BodyTooLarge, MalformedBody, readJson } from '../http-body.js';
import { sendError, sendJson } from '../http-errors.js';
import { refuseRest } from '../refusals.js';
import { ADMIN_REFRESH_ROUTE, adminRefresh } from './admin-refresh.js';
import { ANSWER_STREAM_PATH, handleAnswerStream } from './answer-stream.js';
import { ENTITY_MAX_AGE, notModified, SEARCH_MAX_AGE } from './caching.js';
import { getEntity } from './entity.js';
import { expandGraph, parseExpandRequest } from './expand.js';
import { OPENAPI_DOCUMENT } from './openapi.js';
import { invalid } from './problems.js';
import { parseSemanticRequest, semanticSearch } from './semantic.js';

const ENTITY_PATH = /^\/entity\/([^/]+)\/([^/]+)$/;

/** Route templates of the REST contract, for metrics and span names. */
export const REST_ROUTES = [
  '/search/semantic',
  '/search/expand-graph',
  '/entity/{entity_type}/{number}',
  ANSWER_STREAM_PATH,
  '/openapi.json',
  ADMIN_REFRESH_ROUTE,
];

export function restRouteOf(pathname: string): string | null {
  if (ENTITY_PATH.test(pathname)) return '/entity/{entity_type}/{number}';
  return REST_ROUTES.includes(pathname) ? pathname : null;
}

/**
 * The REST contract agents are written against: semantic search over the numbered entities,
 * graph expansion, entity lookup, and its OpenAPI document. Answers carry an ETag on the corpus
 * version and may be cached for a day (search, graph) or a week (entities). Every error is
 * `{detail, status_code, error_code, timestamp}`. The workspace is `?workspace=` or the default.
 * Every route but the OpenAPI document needs `Authorization: Bearer <key>` (a reader key whose
 * scope holds the workspace); the service checks it. Returns false for paths that are not REST
 * routes.
 */
export async function handleRest(
  request: IncomingMessage,
  response: ServerResponse,
  service: RagService,
  logger: Logger,
): Promise<boolean> {
  if (await handleAnswerStream(request, response, service, logger)) return true;
  const { runtime } = service;
  const url = new URL(request.url ?? '/', 'http://localhost');
  const route = restRouteOf(url.pathname);
  if (!route) return false;
  const method = request.method ?? 'GET';
  const expected = route.startsWith('/search/') || route === ADMIN_REFRESH_ROUTE ? 'POST' : 'GET';
  if (method !== expected) {
    response.setHeader('allow', expected);
    sendError(response, ErrorCode.INVALID_PARAMETER, `${route} takes ${expected}`, 405);
    return true;
  }
  try {
    if (route === '/openapi.json') {
      sendJson(response, 200, OPENAPI_DOCUMENT);
      return true;
    }
    const caller = await service.authenticate(request.headers.authorization, request.socket.remoteAddress);
    const workspace = url.searchParams.get('workspace') ?? runtime.config.AGENTIC_RAG_WORKSPACE;
    if (route === ADMIN_REFRESH_ROUTE) {
      await adminRefresh(url, response, service, caller, workspace, logger);
      return true;
    }
    /**
     * Each route is one guarded read (role, scope, existence, row security) answered from the
     * contract's view, or 304 when the client's ETag names the same request on the same corpus
     * version.
     */
    const answer = (
      operation: 'entity' | 'search' | 'expandGraph',
      cache: { request: string; maxAge: number },
      view: (context: OperationContext, corpusVersion: number) => Promise<unknown>,
    ) =>
      service.guard(
        caller,
        operation,
        workspace,
        async (context) => {
          const corpusVersion = await context.runtime.store.corpusVersion(context.workspaceId);
          if (notModified(request, response, { workspaceId: context.workspaceId, corpusVersion, ...cache }))
            return;
          sendJson(response, 200, await view(context, corpusVersion));
        },
        { logger },
      );

    if (route === '/entity/{entity_type}/{number}') {
      const [, type, number] = ENTITY_PATH.exec(url.pathname)!;
      await answer('entity', { request: url.pathname, maxAge: ENTITY_MAX_AGE }, (context) =>
        getEntity(context.runtime, context.workspaceId, type!, number!),
      );
      return true;
    }
    const body = await readJson(request);
    // The service's rule for text, before the contract's own checks read any field.
    const dirty = firstDirtyString(body);
    if (dirty !== null) throw invalid(`${dirty} must not contain NUL characters or unpaired surrogates`);
    const cache = { request: `${route}\n${JSON.stringify(body ?? null)}`, maxAge: SEARCH_MAX_AGE };
    if (route === '/search/semantic') {
      const parsed = parseSemanticRequest(body);
      const presented = url.searchParams.get('min_corpus_version');
      await answer('search', cache, async (context, corpusVersion) => {
        // The ETag names the primary's corpus version, so the body must be at least that fresh even
        // when a replica (DATABASE_READ_URL) serves it: a stale body under a fresh tag would be
        // revalidated as current. min_corpus_version is checked all the same (INVALID_INPUT).
        const atLeast =
          presented === null ? corpusVersion : /^\d{1,15}$/.test(presented) ? Number(presented) : presented;
        const result = await service.readAtLeast(
          context,
          typeof atLeast === 'number' ? Math.max(atLeast, corpusVersion) : atLeast,
          () => semanticSearch(context.runtime, context.workspaceId, parsed),
          'min_corpus_version',
        );
        return {
          results: result.results,
          total_count: result.total_count,
          ...(result.did_you_mean
            ? { did_you_mean: result.did_you_mean, corrections: result.corrections }
            : {}),
        };
      });
      return true;
    }
    const parsed = parseExpandRequest(body);
    await answer('expandGraph', cache, async (context) => {
      const result = await expandGraph(context.runtime, context.workspaceId, parsed);
      return {
        expanded_documents: result.expanded_documents,
        relationship_count: result.relationship_count,
        metadata: { warnings: result.warnings },
      };
    });
    return true;
  } catch (error) {
    // A failed request must not keep the cache headers of the answer it did not give.
    response.removeHeader('etag');
    response.removeHeader('cache-control');
    if (error instanceof BodyTooLarge)
      sendError(response, ErrorCode.INVALID_PARAMETER, 'request body exceeds 1 MiB', 413);
    else if (error instanceof MalformedBody) sendError(response, ErrorCode.INVALID_PARAMETER, error.message);
    else {
      const ragError = toRagError(error);
      if (ragError.code === ErrorCode.INTERNAL) {
        logger.error('rest request failed', { event: 'http-error', route, error: ragError });
        sendError(response, ErrorCode.INTERNAL, 'internal error');
      } else refuseRest(response, ragError);
    }
    return true;
  }
}
