import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { nestsDeeperThan, type Caller, type Logger, type RagService } from '@agentic-rag/core';
import { MalformedBody, readJson, TOO_DEEP } from '../http-body.js';
import { formatError } from './errors.js';
import { limitRules } from './limits.js';
import { accessStatus } from './access-status.js';
import { operationMetrics } from './operation-metrics.js';
import type { ApiContext } from './context.js';
import { resolvers } from './resolvers.js';

export const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

/**
 * Apollo Server behind our own node:http server. Apollo has no depth or cost limit: the
 * validation rules in limits.ts add them. CSRF prevention on; batched requests off; introspection
 * and schema hints ("did you mean ...") only outside production.
 */
export async function createGraphql(service: RagService) {
  const { config, logger } = service;
  const production = config.NODE_ENV === 'production';
  const server = new ApolloServer<ApiContext>({
    typeDefs,
    resolvers,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    introspection: !production,
    hideSchemaDetailsFromClientErrors: production,
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    validationRules: limitRules({
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxAliases: config.GRAPHQL_MAX_ALIASES,
      maxCost: config.GRAPHQL_MAX_COST,
    }),
    formatError: formatError(logger),
    plugins: [operationMetrics, accessStatus],
    logger: {
      debug: () => {},
      info: () => {},
      warn: (message) => logger.warn(String(message), { event: 'apollo-warning' }),
      error: (message) => logger.error(String(message), { event: 'apollo-error' }),
    },
  });
  await server.start();

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    logger: Logger,
    caller: Caller,
  ): Promise<void> {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const url = new URL(request.url ?? '/', 'http://localhost');
    // A GET carries its variables in the query string: held to the same depth as a body.
    for (const name of ['variables', 'extensions'])
      if (nestsDeeperThan(url.searchParams.get(name) ?? '')) throw new MalformedBody(TOO_DEEP);
    const result = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: request.method ?? 'GET', headers, search: url.search, body },
      context: async () => ({ service, caller, signal: abort.signal, logger }),
    });
    for (const [name, value] of result.headers) response.setHeader(name, value);
    response.statusCode = result.status ?? 200;
    if (result.body.kind === 'complete') {
      response.end(result.body.string);
      return;
    }
    for await (const chunk of result.body.asyncIterator) response.write(chunk);
    response.end();
  }

  return { handle, stop: () => server.stop() };
}
