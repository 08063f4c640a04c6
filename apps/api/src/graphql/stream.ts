import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnswerStreamEvent, Caller, Logger, RagService } from '@agentic-rag/core';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, specifiedRules, validate } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { typeDefs } from './apollo.js';
import { formatError } from './errors.js';
import type { RagAnswerEvent, SubscriptionResolvers } from './generated/resolvers-types.js';
import { limitRules } from './limits.js';
import type { ApiContext } from './context.js';
import { resolvers } from './resolvers.js';

/** Path of GraphQL over Server-Sent Events: Apollo Server serves no subscriptions over HTTP. */
export const GRAPHQL_STREAM_PATH = '/graphql/stream';

// graphql-sse wants a context indexable by any key, which an interface is not; a mapped copy is.
type StreamContext = { [Name in keyof ApiContext]: ApiContext[Name] };

/** An answer stream's event in the schema's shape (RagAnswerEvent: one type, fields by `type`). */
export function graphqlEvent(event: AnswerStreamEvent): RagAnswerEvent {
  switch (event.type) {
    case 'stage':
      return {
        type: 'stage',
        stage: event.stage,
        status: event.status,
        ms: event.status === 'finished' ? event.ms : null,
      };
    case 'delta':
      return { type: 'delta', text: event.text };
    case 'citation':
      return { type: 'citation', citation: event.citation };
    case 'final':
      return { type: 'final', answer: event.answer as RagAnswerEvent['answer'] };
    case 'error':
      return {
        type: 'error',
        error: { code: event.code, message: event.message, retryable: event.retryable },
      };
  }
}

/** The error with `code` in its extensions unless it has one (a depth or cost limit's stays as it is). */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined || error.extensions.limit !== undefined) return error;
  return new GraphQLError(error.message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    extensions: { ...error.extensions, code },
  });
}

/** Subscription.ragAnswerStream: the service's answer stream, each event mapped to the schema. */
export const Subscription: SubscriptionResolvers = {
  ragAnswerStream: {
    subscribe: (_parent, { input }, context) =>
      context.service.answerStream(context.caller, input, {
        signal: context.signal,
        logger: context.logger,
      }),
    resolve: (event: AnswerStreamEvent) => graphqlEvent(event),
  },
};

/**
 * GraphQL over Server-Sent Events (the graphql-sse protocol, distinct-connections mode: one
 * stream per operation, `Accept: text/event-stream`) for subscriptions, on the same schema,
 * resolvers and limits (depth, aliases, cost) as /graphql. The HTTP server authenticates first,
 * as for /graphql; closing the stream aborts the operation. Queries and mutations are /graphql's.
 */
export function createGraphqlStream(service: RagService) {
  const { config, logger: rootLogger } = service;
  const schema = makeExecutableSchema({ typeDefs, resolvers: { ...resolvers, Subscription } });
  const rules = [
    ...specifiedRules,
    ...limitRules({
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxAliases: config.GRAPHQL_MAX_ALIASES,
      maxCost: config.GRAPHQL_MAX_COST,
    }),
  ];
  const contexts = new WeakMap<IncomingMessage, StreamContext>();
  const format = formatError(rootLogger);
  const handler = createHandler<StreamContext>({
    schema,
    // No reservation tokens: every request is its own stream (distinct-connections mode).
    authenticate: () => null,
    validate: (target, document) =>
      validate(target, document, rules, { maxErrors: 50 }).map((error) =>
        withCode(error, 'GRAPHQL_VALIDATION_FAILED'),
      ),
    context: (request) => contexts.get(request.raw)!,
    execute: () => ({
      errors: [
        new GraphQLError(
          `${GRAPHQL_STREAM_PATH} serves subscriptions; send queries and mutations to /graphql`,
          {
            extensions: { code: 'BAD_REQUEST' },
          },
        ),
      ],
    }),
    // The same masking as /graphql: codes always, no internals, no stack traces.
    onNext: (_context, _request, result) =>
      result.errors
        ? {
            ...result,
            errors: result.errors.map((error) => {
              // graphql-js reports variables that do not coerce as errors of the request (no
              // path; the cause, if any, graphql-js's own) without a code; Apollo calls them
              // BAD_USER_INPUT, and so do we. A resolver's failure has a path.
              const request =
                error.path === undefined &&
                (error.originalError == null || error.originalError instanceof GraphQLError);
              const coded = request ? withCode(error, 'BAD_USER_INPUT') : error;
              return format(coded.toJSON(), coded) as unknown as GraphQLError;
            }),
          }
        : result,
  });

  return async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    logger: Logger,
    caller: Caller,
  ): Promise<void> {
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    contexts.set(request, { service, caller, signal: abort.signal, logger });
    await handler(request, response);
  };
}
