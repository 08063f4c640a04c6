import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const SEARCH_MAX_AGE = 24 * 3600;
export const ENTITY_MAX_AGE = 7 * 24 * 3600;

/**
 * Answers are a function of the request and the workspace's corpus version, so that pair is the
 * ETag: a re-ingest changes the version, and a revalidating client sees the new answer at once.
 * Responds 304 (and returns true) when the client already holds this answer.
 *
 * The caching the REST contract asks for is the agent's own: every answer is to a key, so it is
 * `private` (a proxy in front — nginx, Caddy — must not hand one caller's answer to another) and
 * varies by `Authorization`.
 */
export function notModified(
  request: IncomingMessage,
  response: ServerResponse,
  parts: { workspaceId: string; corpusVersion: number; request: string; maxAge: number },
): boolean {
  const digest = createHash('sha256').update(parts.request).digest('hex').slice(0, 16);
  const etag = `W/"${parts.workspaceId}-${parts.corpusVersion}-${digest}"`;
  response.setHeader('etag', etag);
  response.setHeader('cache-control', cacheControl(parts.maxAge));
  response.setHeader('vary', 'Authorization');
  const held = request.headers['if-none-match'];
  if (!held || !held.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return false;
  response.writeHead(304);
  response.end();
  return true;
}

export function cacheControl(maxAge: number): string {
  return `private, max-age=${maxAge}`;
}
