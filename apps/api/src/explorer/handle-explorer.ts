import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@agentic-rag/core';
import { sendError } from '../http-errors.js';
import { loadExplorerAssets, type ExplorerAssets } from './assets.js';
import { exampleQuery } from './example-query.js';
import { sendAsset, sendPage } from '../static-page.js';
import { ASSETS_PATH, EXPLORER_PATH, renderExplorerPage } from './page.js';

interface Explorer {
  assets: ExplorerAssets;
  page: Buffer;
}

let explorer: (Explorer & { workspaceId: string }) | undefined;

/** Read on first use (about 1.6 MB), then served from memory. */
function loadExplorer(workspaceId: string): Explorer {
  if (explorer?.workspaceId !== workspaceId) {
    const assets = explorer?.assets ?? loadExplorerAssets();
    const page = Buffer.from(renderExplorerPage(assets, exampleQuery(workspaceId)));
    explorer = { assets, page, workspaceId };
  }
  return explorer;
}

/**
 * A GraphQL explorer (GraphiQL) that needs no internet: `GET /explorer` is the page and
 * `GET /explorer/assets/<name>` its scripts and styles, read from installed npm packages. Only the names
 * in the asset allowlist are served, so no path reaches the file system. The page queries /graphql on
 * the same origin, and opens with an example search over `workspaceId` (the API's default workspace).
 *
 * It is served in production too, but there Apollo turns introspection off (see graphql/apollo.ts):
 * queries still run, while GraphiQL's docs, autocompletion and validation have no schema to work from.
 *
 * Returns false, having written nothing, for every request that is not a GET or HEAD under /explorer.
 */
export function handleExplorer(
  request: IncomingMessage,
  response: ServerResponse,
  workspaceId: string,
): boolean {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  if (pathname === EXPLORER_PATH || pathname === `${EXPLORER_PATH}/`) {
    const { page } = loadExplorer(workspaceId);
    sendPage(response, method, page);
    return true;
  }
  if (!pathname.startsWith(ASSETS_PATH)) return false;
  const asset = loadExplorer(workspaceId).assets.byName.get(pathname.slice(ASSETS_PATH.length));
  if (!asset) {
    sendError(response, ErrorCode.NOT_FOUND, `no explorer asset at ${pathname}`);
    return true;
  }
  sendAsset(response, method, asset);
  return true;
}
