import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, RagError, toRagError, type RagService } from '@agentic-rag/core';
import { refuseRest } from './refusals.js';
import { ADMIN_REFRESH_ROUTE } from './rest/admin-refresh.js';
import { restRouteOf } from './rest/router.js';

/** The words every transport refuses with (GraphQL, MCP and the service say the same). */
const DISABLED = 'RAG is disabled on this deployment (AGENTIC_RAG_ENABLED=false)';

/** Routes that answer nothing from the corpus: the contract's description and admin upkeep. */
const STAYS_OPEN = new Set(['/openapi.json', ADMIN_REFRESH_ROUTE]);

/**
 * AGENTIC_RAG_ENABLED=false on the REST routes that answer (search, graph expansion, entities):
 * the caller authenticates as on any route (401 first, as GraphQL does), then gets 503
 * RAG_DISABLED whatever the method or body, so a client sees one answer for "switched off" and
 * never a validation error from a feature that is not running. The service's guard refuses the
 * same way on every transport; this is the earlier check, before a body is read. The OpenAPI
 * document and the admin page refresh stay served: they answer nothing, and admin operations
 * (ingest, keys, dead letters) stay available on every transport. Returns true when it
 * answered.
 */
export async function refuseWhenDisabled(
  request: IncomingMessage,
  response: ServerResponse,
  service: RagService,
): Promise<boolean> {
  if (service.ragEnabled) return false;
  const route = restRouteOf(new URL(request.url ?? '/', 'http://localhost').pathname);
  if (route === null || STAYS_OPEN.has(route)) return false;
  try {
    await service.authenticate(request.headers.authorization, request.socket.remoteAddress);
  } catch (error) {
    refuseRest(response, toRagError(error));
    return true;
  }
  refuseRest(response, new RagError(ErrorCode.RAG_DISABLED, DISABLED));
  return true;
}
