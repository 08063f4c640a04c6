import {
  createJsonLogger,
  createRuntime,
  redactConfig,
  listen,
  runService,
  serviceConfig,
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

  const config = serviceConfig();
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
    let port: number;
    try {
      ({ port } = await listen(server, {
        port: config.AGENTIC_RAG_MCP_PORT,
        host: config.HOST,
        what: 'port',
        variable: 'AGENTIC_RAG_MCP_PORT',
      }));
    } catch (error) {
      await runtime.close();
      throw error;
    }
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

runService('mcp', main);
