import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import {
  createJsonLogger,
  createRuntime,
  ErrorCode,
  isRagError,
  loadConfig,
  redactConfig,
  type Config,
} from '@agentic-rag/core';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpHttpServer, MCP_PATH } from './http.js';
import { createMcpServer, createToolbox } from './server.js';

const USAGE = `Usage: pnpm mcp            MCP server on stdio (for a client that starts it)
       pnpm mcp:http       MCP server on streamable HTTP at http://HOST:AGENTIC_RAG_MCP_PORT${MCP_PATH}
`;

async function main(): Promise<void> {
  const flags = process.argv.slice(2);
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stderr.write(USAGE);
    return;
  }
  const unknown = flags.filter((flag) => flag !== '--http' && flag !== '--stdio');
  if (unknown.length > 0) {
    process.stderr.write(`unknown option ${unknown[0]}\n${USAGE}`);
    process.exit(2);
  }
  const transport = flags.includes('--http') ? 'http' : 'stdio';

  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`${isRagError(error) ? error.message : String(error)}\n`);
    process.exit(2);
  }
  // On stdio, stdout carries the protocol: logs go to stderr (an MCP client keeps it as the server's log).
  const output = transport === 'stdio' ? process.stderr : process.stdout;
  const logger = createJsonLogger({ level: config.LOG_LEVEL, write: (line) => output.write(line) });
  logger.info('starting', { event: 'mcp-starting', transport, config: redactConfig(config) });

  const runtime = await createRuntime({ config, logger });
  const toolbox = createToolbox(runtime, logger);
  const tools = toolbox.listing.map((tool) => tool.name);
  let close: () => Promise<void> = async () => {};
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { event: 'mcp-stopping', reason });
    await close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (transport === 'http') {
    const server = createMcpHttpServer(toolbox, {
      allowedOrigins: config.AGENTIC_RAG_MCP_ALLOWED_ORIGINS,
      logger,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.AGENTIC_RAG_MCP_PORT, config.HOST, resolve);
      });
    } catch (error) {
      await runtime.close();
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        code === 'EADDRINUSE'
          ? `port ${config.AGENTIC_RAG_MCP_PORT} is already in use (set AGENTIC_RAG_MCP_PORT)`
          : `cannot listen: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const { port } = server.address() as AddressInfo;
    logger.info(`MCP on http://${config.HOST}:${port}${MCP_PATH}`, {
      event: 'mcp-listening',
      port,
      path: MCP_PATH,
      tools,
    });
    close = () => new Promise((resolve) => server.close(() => resolve()));
  } else {
    const server = createMcpServer(toolbox);
    await server.connect(new StdioServerTransport());
    logger.info('MCP on stdio', { event: 'mcp-ready', tools });
    close = () => server.close();
    // The client ends the session by closing our stdin.
    process.stdin.once('end', () => void stop('stdin-closed'));
  }
}

main().catch((error: unknown) => {
  const message = isRagError(error)
    ? `[${error.code}] ${error.message}`
    : String((error as Error)?.message ?? error);
  process.stderr.write(`mcp failed to start: ${message}\n`);
  process.exit(isRagError(error) && error.code === ErrorCode.INVALID_CONFIG ? 2 : 1);
});
