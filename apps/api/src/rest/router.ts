import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ErrorCode,
  firstDirtyString,
  invalidParameter as invalid,
  toRagError,
  type CachedRead,
  type Logger,
  type RagService,
} from '@agentic-rag/core';
import { BodyTooLarge, MalformedBody, readJson } from '../http-body.js';
import { sendError, sendJson } from '../http-errors.js';
import { refuseRest } from '../refusals.js';
import { ADMIN_REFRESH_ROUTE, adminRefresh } from './admin-refresh.js';
import { ANSWER_STREAM_PATH, handleAnswerStream } from './answer-stream.js';
import { ENTITY_MAX_AGE, notModified, SEARCH_MAX_AGE } from './caching.js';
import { OPENAPI_DOCUMENT } from './openapi.js';

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
    const workspace = url.searchParams.get('workspace') ?? service.defaultWorkspace;
    if (route === ADMIN_REFRESH_ROUTE) {
      await adminRefresh(url, response, service, caller, workspace, logger);
      return true;
    }
    /**
     * Each route is one service read (guarded: role, scope, existence, row security) answered from
     * the contract's view, or 304 when the client's ETag names the same request on the same corpus
     * version, in which case the service skips the read.
     */
    const respond = async <T>(
      cache: { request: string; maxAge: number },
      read: (unchanged: (workspaceId: string, corpusVersion: number) => boolean) => Promise<CachedRead<T>>,
      shape: (view: T) => unknown,
    ) => {
      const answered = await read((workspaceId, corpusVersion) =>
        notModified(request, response, { workspaceId, corpusVersion, ...cache }),
      );
      if (answered.view !== null) sendJson(response, 200, shape(answered.view));
    };

    if (route === '/entity/{entity_type}/{number}') {
      const [, type, number] = ENTITY_PATH.exec(url.pathname)!;
      await respond(
        { request: url.pathname, maxAge: ENTITY_MAX_AGE },
        (unchanged) =>
          service.textbookEntity(
            caller,
            { workspaceId: workspace, type: type!, number: number! },
            { logger, unchanged },
          ),
        (view) => view,
      );
      return true;
    }
    const body = await readJson(request);
    // The service's rule for text, before the contract's own checks read any field.
    const dirty = firstDirtyString(body);
    if (dirty !== null) throw invalid(`${dirty} must not contain NUL characters or unpaired surrogates`);
    const cache = { request: `${route}\n${JSON.stringify(body ?? null)}`, maxAge: SEARCH_MAX_AGE };
    if (route === '/search/semantic') {
      const presented = url.searchParams.get('min_corpus_version');
      await respond(
        cache,
        (unchanged) =>
          service.textbookSearch(
            caller,
            {
              workspaceId: workspace,
              body,
              // A number when it reads as one; anything else goes on to be refused as INVALID_INPUT.
              minCorpusVersion:
                presented !== null && /^\d{1,15}$/.test(presented) ? Number(presented) : presented,
            },
            { logger, unchanged },
          ),
        (result) => ({
          results: result.results,
          total_count: result.total_count,
          ...(result.did_you_mean
            ? { did_you_mean: result.did_you_mean, corrections: result.corrections }
            : {}),
        }),
      );
      return true;
    }
    await respond(
      cache,
      (unchanged) => service.textbookExpand(caller, { workspaceId: workspace, body }, { logger, unchanged }),
      (result) => ({
        expanded_documents: result.expanded_documents,
        relationship_count: result.relationship_count,
        metadata: { warnings: result.warnings },
      }),
    );
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
