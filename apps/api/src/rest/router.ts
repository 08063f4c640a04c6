import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, RagError, toRagError, type Logger, type RagRuntime } from '@agentic-rag/core';
import { BodyTooLarge, MalformedBody, readJson } from '../http-body.js';
import { sendError, sendJson } from '../http-errors.js';
import { ENTITY_MAX_AGE, notModified, SEARCH_MAX_AGE } from './caching.js';
import { getEntity } from './entity.js';
import { expandGraph, parseExpandRequest } from './expand.js';
import { OPENAPI_DOCUMENT } from './openapi.js';
import { parseSemanticRequest, semanticSearch } from './semantic.js';

const ENTITY_PATH = /^\/entity\/([^/]+)\/([^/]+)$/;

/** Route templates of the REST contract, for metrics and span names. */
export const REST_ROUTES = [
  '/search/semantic',
  '/search/expand-graph',
  '/entity/{entity_type}/{number}',
  '/openapi.json',
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
 * Returns false for paths that are not REST routes.
 */
export async function handleRest(
  request: IncomingMessage,
  response: ServerResponse,
  runtime: RagRuntime,
  logger: Logger,
): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const route = restRouteOf(url.pathname);
  if (!route) return false;
  const method = request.method ?? 'GET';
  const expected = route.startsWith('/search/') ? 'POST' : 'GET';
  if (method !== expected) {
    response.setHeader('allow', expected);
    sendError(response, ErrorCode.INVALID_INPUT, `${route} takes ${expected}`, 405);
    return true;
  }
  try {
    if (route === '/openapi.json') {
      sendJson(response, 200, OPENAPI_DOCUMENT);
      return true;
    }
    const workspaceId = url.searchParams.get('workspace') ?? runtime.config.AGENTIC_RAG_WORKSPACE;
    const cacheParts = { workspaceId, corpusVersion: await corpusVersion(runtime, workspaceId) };

    if (route === '/entity/{entity_type}/{number}') {
      const [, type, number] = ENTITY_PATH.exec(url.pathname)!;
      if (notModified(request, response, { ...cacheParts, request: url.pathname, maxAge: ENTITY_MAX_AGE }))
        return true;
      sendJson(response, 200, await getEntity(runtime, workspaceId, type!, number!));
      return true;
    }
    const body = await readJson(request);
    const requestKey = `${route}\n${JSON.stringify(body ?? null)}`;
    if (route === '/search/semantic') {
      const parsed = parseSemanticRequest(body);
      if (notModified(request, response, { ...cacheParts, request: requestKey, maxAge: SEARCH_MAX_AGE }))
        return true;
      const result = await semanticSearch(runtime, workspaceId, parsed);
      sendJson(response, 200, {
        results: result.results,
        total_count: result.total_count,
        ...(result.did_you_mean
          ? { did_you_mean: result.did_you_mean, corrections: result.corrections }
          : {}),
      });
      return true;
    }
    const parsed = parseExpandRequest(body);
    if (notModified(request, response, { ...cacheParts, request: requestKey, maxAge: SEARCH_MAX_AGE }))
      return true;
    const result = await expandGraph(runtime, workspaceId, parsed);
    sendJson(response, 200, {
      expanded_documents: result.expanded_documents,
      relationship_count: result.relationship_count,
      metadata: { warnings: result.warnings },
    });
    return true;
  } catch (error) {
    // A failed request must not keep the cache headers of the answer it did not give.
    response.removeHeader('etag');
    response.removeHeader('cache-control');
    if (error instanceof BodyTooLarge)
      sendError(response, ErrorCode.INVALID_INPUT, 'request body exceeds 1 MiB', 413);
    else if (error instanceof MalformedBody)
      sendError(response, ErrorCode.INVALID_INPUT, 'request body is not valid JSON');
    else {
      const ragError = toRagError(error);
      if (ragError.code === ErrorCode.INTERNAL) {
        logger.error('rest request failed', { event: 'http-error', route, error: ragError });
        sendError(response, ErrorCode.INTERNAL, 'internal error');
      } else sendError(response, ragError.code, ragError.message);
    }
    return true;
  }
}

/** The workspace's corpus version: one indexed read, since every answer's ETag needs it. */
async function corpusVersion(runtime: RagRuntime, workspaceId: string): Promise<number> {
  const result = await runtime.sql.query<{ corpus_version: number }>(
    'SELECT corpus_version FROM rag_workspaces WHERE id = $1',
    [workspaceId],
  );
  const row = result.rows[0];
  if (!row) throw new RagError(ErrorCode.WORKSPACE_NOT_FOUND, `workspace '${workspaceId}' does not exist`);
  return Number(row.corpus_version);
}
