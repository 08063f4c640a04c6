import { ErrorCode, RagError, RagService, createJsonLogger, redactConfig } from '@agentic-rag/core';
import { createRuntime, listen, runService, serviceConfig } from '@agentic-rag/core/runtime';
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

  // On stdio the client cannot send headers: the key the server acts with is AGENTIC_RAG_API_KEY.
  if (transport === 'stdio' && config.AGENTIC_RAG_AUTH === 'on' && !config.AGENTIC_RAG_API_KEY) {
    throw new RagError(
      ErrorCode.UNAUTHENTICATED,
      'pnpm mcp on stdio needs AGENTIC_RAG_API_KEY: create a key with `pnpm rag:keys create --workspace <id> --role reader`',
    );
  }
  const runtime = await createRuntime({ config, logger });
  const service = new RagService(runtime);
  const toolbox = createToolbox(service, logger);
  const tools = toolbox.listing.map((tool) => tool.name);
  let close: () => Promise<void> = async () => {};
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { event: 'mcp-stopping', reason });
    await close();
    await service.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (transport === 'http') {
    const server = createMcpHttpServer(toolbox, service, {
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
      await service.close();
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
    // Checked now so a bad key stops the server with one line, and again on every call.
    const identify = () => service.authenticate(`Bearer ${config.AGENTIC_RAG_API_KEY ?? ''}`);
    await identify();
    const server = createMcpServer(toolbox, identify);
    await server.connect(new StdioServerTransport());
    logger.info('MCP on stdio', { event: 'mcp-ready', tools });
    close = () => server.close();
    // The client ends the session by closing our stdin.
    process.stdin.once('end', () => void stop('stdin-closed'));
  }
}

runService('mcp', main);
