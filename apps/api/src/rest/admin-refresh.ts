import type { ServerResponse } from 'node:http';
import { ErrorCode, RagError, type Caller, type Logger, type RagService } from '@agentic-rag/core';
import { sendJson } from '../http-errors.js';

export const ADMIN_REFRESH_ROUTE = '/admin/kb/refresh';

/**
 * `POST /admin/kb/refresh?url=<page>[&full=true][&workspace=<id>]` — the on-demand refresh of
 * docs/web-sources.md: fetches one page of a crawled site now and answers what became of its
 * document. An admin key whose scope holds the workspace; errors are the REST error shape with
 * the service's codes (SOURCE_OUTSIDE_ROOT, FETCH_BLOCKED, ROBOTS_DISALLOWED, ...).
 */
export async function adminRefresh(
  url: URL,
  response: ServerResponse,
  service: RagService,
  caller: Caller,
  workspace: string,
  logger: Logger,
): Promise<void> {
  const target = url.searchParams.get('url');
  if (target === null)
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      'url is required: POST /admin/kb/refresh?url=https://docs.example.com/page',
    );
  const result = await service.refreshUrl(
    caller,
    { workspaceId: workspace, url: target, full: parseFlag(url.searchParams.get('full'), 'full') },
    { logger },
  );
  sendJson(response, 200, {
    url: result.url,
    site: result.site,
    outcome: result.outcome,
    http_status: result.httpStatus,
    conditional: result.conditional,
    chunks: result.chunks,
    corpus_version: result.corpusVersion,
  });
}

/** A query flag: absent, `true`/`1`/bare or `false`/`0`; anything else is refused, not read as false. */
function parseFlag(value: string | null, name: string): boolean {
  if (value === null || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1' || value === '') return true;
  throw new RagError(ErrorCode.INVALID_INPUT, `${name} must be true or false, not "${value}"`);
}
