import {
  ERROR_CODE_INFO,
  ErrorCode,
  RagError,
  toRagError,
  type Caller,
  type Logger,
  type RagService,
} from '@agentic-rag/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import { mcpTools, type McpTool } from './tools.js';
import { workspacePolicy } from './workspaces.js';

const TOOLS_CALL = z.looseObject({ method: z.literal('tools/call') });

/** Codes whose messages describe the server's insides (SQL, config): logged, never sent. */
const MASKED: ReadonlySet<string> = new Set([
  ErrorCode.INTERNAL,
  ErrorCode.INVALID_CONFIG,
  ErrorCode.MIGRATION_FAILED,
  ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
]);

/** The deployment's allowlisted tools, listed and called the same way over every transport. */
export interface Toolbox {
  /** What tools/list answers: name, title, description, JSON Schema of the arguments, hints. */
  readonly listing: Tool[];
  readonly instructions: string;
  /** Never throws: a failed call is a tool result with `isError` and a stable code. */
  call(
    name: string,
    args: unknown,
    signal: AbortSignal,
    identify: () => Promise<Caller>,
  ): Promise<CallToolResult>;
}

export function createToolbox(service: RagService, logger: Logger): Toolbox {
  const { config } = service;
  const allowed = new Set<string>(config.AGENTIC_RAG_MCP_TOOLS);
  const tools = new Map<string, McpTool>(
    mcpTools(config)
      .filter((tool) => allowed.has(tool.name))
      .map((tool) => [tool.name, tool]),
  );
  const resolveWorkspace = workspacePolicy(config);
  const listing: Tool[] = [...tools.values()].map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  }));

  return {
    listing,
    instructions:
      `Knowledge base of agentic-rag (workspace "${config.AGENTIC_RAG_WORKSPACE}"). Tools: ${[...tools.keys()].join(', ')}. ` +
      'Results cite their sources by sourceId (a document id for kb_get_doc). A failed call says ' +
      '"CODE: message", e.g. INVALID_INPUT, WORKSPACE_NOT_FOUND, NOT_FOUND, TOOL_NOT_ALLOWED.',
    async call(name, args, signal, identify) {
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      try {
        const tool = tools.get(name);
        // Unknown and disallowed names answer alike, so a client cannot probe what is installed.
        if (!tool) throw new RagError(ErrorCode.TOOL_NOT_ALLOWED, `tool "${name}" is not allowed`);
        // Who is calling is settled per call: a key revoked meanwhile is refused on its next call.
        const caller = await identify();
        const result = await tool.call(args, { service, caller, signal, logger, resolveWorkspace });
        logger.info('tool call', { event: 'mcp-tool-call', tool: name, outcome: 'ok', ms: ms() });
        return {
          content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
          structuredContent: result,
        };
      } catch (caught) {
        const error = toRagError(caught);
        const masked = MASKED.has(error.code);
        const code = masked ? ErrorCode.INTERNAL : error.code;
        const message = masked ? 'internal error' : error.message;
        if (masked) {
          logger.error('tool call failed', {
            event: 'mcp-tool-failed',
            tool: name,
            ms: ms(),
            error: caught instanceof Error ? caught : new Error(String(caught)),
          });
        } else {
          logger.info('tool call', { event: 'mcp-tool-call', tool: name, outcome: 'error', code, ms: ms() });
        }
        return {
          isError: true,
          content: [{ type: 'text', text: `${code}: ${message}` }],
          structuredContent: { error: { code, message, retryable: ERROR_CODE_INFO[code].retryable } },
        };
      }
    },
  };
}

/**
 * An MCP server over the toolbox. The SDK's low-level `Server` rather than `McpServer`: McpServer
 * validates arguments itself and reports a bad one as protocol error text with no code, where
 * this server's contract is a stable error code on every failed call (tools.ts validates).
 */
export function createMcpServer(toolbox: Toolbox, identify: () => Promise<Caller>): Server {
  const server = new Server(
    { name: 'agentic-rag', title: 'agentic-rag knowledge base', version: packageJson.version },
    { capabilities: { tools: {} }, instructions: toolbox.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolbox.listing }));
  // Registered with a schema that only names the method: the SDK then checks the request itself
  // and answers a malformed one with -32602 (invalid params); with the full schema its own parse
  // would fail first and answer -32603, an internal error, for a client's mistake.
  server.setRequestHandler(TOOLS_CALL, (request, extra) => {
    const { params } = CallToolRequestSchema.parse(request);
    return toolbox.call(params.name, params.arguments, extra.signal, identify);
  });
  return server;
}
