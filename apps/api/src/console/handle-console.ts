import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@agentic-rag/core';
import { sendError } from '../http-errors.js';
import { loadConsoleBuild, type ConsoleBuild } from './assets.js';
import { sendAsset, sendPage } from '../static-page.js';
import { CONSOLE_ASSETS_PATH, CONSOLE_ROUTES } from './routes.js';

let build: ConsoleBuild | undefined;

/** Read on first use, then served from memory; a missing build is looked for again next time. */
function consoleBuild(): ConsoleBuild | null {
  build ??= loadConsoleBuild() ?? undefined;
  return build ?? null;
}

/**
 * The web console (apps/console, built by `pnpm build`): `GET /` and the console's other pages
 * (CONSOLE_ROUTES) answer its index.html, `GET /assets/<name>` its scripts and styles. Only the
 * names `vite build` wrote are served, so no path reaches the file system. The page calls
 * /graphql and /graphql/stream on the same origin with the key the user signs in with.
 *
 * Returns false, having written nothing, for every request that is not a GET or HEAD of a
 * console page or asset: /graphql, /explorer, /healthz, /metrics and the REST routes are left alone.
 */
export function handleConsole(request: IncomingMessage, response: ServerResponse): boolean {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  const page = CONSOLE_ROUTES.includes(pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname);
  if (!page && !pathname.startsWith(CONSOLE_ASSETS_PATH)) return false;
  const built = consoleBuild();
  if (!built) {
    sendError(response, ErrorCode.NOT_FOUND, 'the web console is not built: run `pnpm build`');
    return true;
  }
  if (page) {
    sendPage(response, method, built.page);
    return true;
  }
  const asset = built.assets.get(pathname.slice(CONSOLE_ASSETS_PATH.length));
  if (!asset) {
    sendError(response, ErrorCode.NOT_FOUND, `no console asset at ${pathname}`);
    return true;
  }
  sendAsset(response, method, asset);
  return true;
}
