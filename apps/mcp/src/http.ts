import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import {
  ERROR_CODE_INFO,
  ErrorCode,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  toRagError,
  type Caller,
  type Logger,
  type RagService,
} from '@agentic-rag/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type Toolbox } from './server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  /** Browser origins allowed to call (AGENTIC_RAG_MCP_ALLOWED_ORIGINS); requests without one always are. */
  allowedOrigins: readonly string[];
  logger: Logger;
}

/**
 * The streamable-HTTP transport, stateless: every POST to /mcp gets a fresh MCP server and
 * transport (cheap: the toolbox with its schemas is built once), answered as plain JSON. No
 * session lives in the process, so any replica can answer any request. A request carrying an
 * Origin header must come from an allowed origin (the MCP spec's DNS-rebinding defence), and
 * every request must carry `Authorization: Bearer <key>` (401 with a JSON-RPC error otherwise).
 */
export function createMcpHttpServer(
  toolbox: Toolbox,
  service: RagService,
  options: McpHttpOptions,
): HttpServer {
  const allowed = new Set(options.allowedOrigins);
  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.logger.error('mcp request failed', {
        event: 'mcp-request-failed',
        error: error instanceof Error ? error : new Error(String(error)),
      });
      if (!response.headersSent) rpcError(response, 500, -32603, 'internal error');
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/healthz' && request.method === 'GET') {
      json(response, 200, { status: 'ok' });
      return;
    }
    if (pathname !== MCP_PATH) {
      json(response, 404, {
        detail: `no route for ${request.method} ${pathname}`,
        status_code: 404,
        error_code: ErrorCode.NOT_FOUND,
        timestamp: new Date().toISOString(),
      });
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowed.has(origin)) {
      rpcError(response, 403, -32000, `origin ${origin} is not allowed (AGENTIC_RAG_MCP_ALLOWED_ORIGINS)`);
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no standalone SSE stream to GET and no session to DELETE.
      response.setHeader('allow', 'POST');
      rpcError(
        response,
        405,
        -32000,
        `${request.method} is not supported: POST JSON-RPC messages to ${MCP_PATH}`,
      );
      return;
    }
    let caller: Caller;
    try {
      caller = await service.authenticate(request.headers.authorization, request.socket.remoteAddress);
    } catch (caught) {
      const error = toRagError(caught);
      if (error.code === ErrorCode.UNAUTHENTICATED) response.setHeader('www-authenticate', 'Bearer');
      const retryAfter = error.details?.retryAfterSeconds;
      if (typeof retryAfter === 'number') response.setHeader('retry-after', String(retryAfter));
      const status = ERROR_CODE_INFO[error.code].httpStatus;
      rpcError(response, status >= 500 ? 503 : status, -32001, `${error.code}: ${error.message}`);
      return;
    }
    const server = createMcpServer(toolbox, async () => caller);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    const body = await readMessage(request, response);
    if (body === undefined) return;
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }
}

/** The SDK transport's own limit for one POST. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The JSON-RPC body, read here so that a malformed `initialize` gets -32602 (invalid params): the
 * SDK's built-in handler would answer a client's mistake with -32603, an internal error. Answers
 * the request itself (and returns undefined) for an oversized body, bad JSON or such an initialize.
 */
async function readMessage(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      rpcError(response, 413, -32000, 'the request body exceeds 4 MiB');
      request.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  // Parsed, a body nesting thousands deep overflows the stack of whatever walks it next.
  if (nestsDeeperThan(text)) {
    rpcError(response, 400, -32600, `Invalid Request: the body nests deeper than ${MAX_JSON_DEPTH} levels`);
    return undefined;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    rpcError(response, 400, -32700, 'Parse error: the body is not JSON');
    return undefined;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    if ((message as { method?: unknown } | null)?.method !== 'initialize') continue;
    const parsed = InitializeRequestSchema.safeParse(message);
    if (!parsed.success) {
      const where = parsed.error.issues.map((issue) => issue.path.join('.') || 'params').join(', ');
      json(response, 200, {
        jsonrpc: '2.0',
        id: (message as { id?: unknown }).id ?? null,
        error: { code: -32602, message: `Invalid initialize request: check ${where}` },
      });
      return undefined;
    }
  }
  return body;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  json(response, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}
