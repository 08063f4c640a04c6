import { ErrorCode, RagError, type RagService } from '@agentic-rag/core';
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { documentNode, type ApiContext } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';

/**
 * GraphQL is a translation: arguments in, the application service's answers out, shaped to the
 * schema. Validation, permissions, scopes and audit all happen in the service.
 */

// A cursor is the store's position of a row (its path, or its update time and path), opaque to clients.
const cursorOf = (position: string) => Buffer.from(position, 'utf8').toString('base64url');
function positionOfCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded || cursorOf(decoded) !== cursor)
    throw new RagError(ErrorCode.INVALID_INPUT, 'after is not a cursor of this API');
  return decoded;
}

const options = (context: ApiContext) => ({ signal: context.signal, logger: context.logger });

/**
 * An ingest outcome as IngestResult: failures name their document as sourceId. The service types a
 * job it could not read back as null (the queue path already drops those); [Job!]! cannot hold one.
 */
const ingestResult = (outcome: Awaited<ReturnType<RagService['ingest']>>) => ({
  ...outcome,
  jobs: outcome.jobs.filter((job) => job !== null),
  summary: outcome.summary && {
    ...outcome.summary,
    failures: outcome.summary.failures.map((failure) => ({ ...failure, sourceId: failure.sourcePath })),
    redactions: outcome.summary.redactions.map((redaction) => ({
      ...redaction,
      sourceId: redaction.sourcePath,
    })),
  },
});

function jsonLiteral(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(jsonLiteral);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, jsonLiteral(field.value)]));
    default:
      throw new RagError(ErrorCode.INVALID_INPUT, 'variables cannot appear inside a JSON literal');
  }
}

export const resolvers: Resolvers = {
  JSON: new GraphQLScalarType({
    name: 'JSON',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: jsonLiteral,
  }),

  Query: {
    async search(_, { input }, context) {
      const result = await context.service.search(
        context.caller,
        { ...input, k: input.k ?? 10 },
        options(context),
      );
      return {
        query: result.query,
        correctedQuery: result.correctedQuery,
        corrections: result.corrections,
        intent: result.intent,
        hits: result.hits.map((hit) => ({ ...hit, sourceId: hit.sourcePath })),
        stages: result.stats.stages,
        warnings: result.stats.warnings,
      };
    },

    async document(_, args, context) {
      const document = await context.service.getDocument(context.caller, args, options(context));
      return document ? documentNode(args.workspaceId, document) : null;
    },

    async documents(_, args, context) {
      const page = await context.service.listDocuments(
        context.caller,
        {
          ...args,
          order: args.orderBy === 'UPDATED' ? 'updated' : 'path',
          after: typeof args.after === 'string' ? positionOfCursor(args.after) : null,
        },
        options(context),
      );
      const edges = page.documents.map((document, index) => ({
        cursor: cursorOf(page.positions[index]!),
        node: documentNode(args.workspaceId, document),
      }));
      return {
        edges,
        totalCount: page.total,
        pageInfo: { hasNextPage: page.hasMore, endCursor: edges.at(-1)?.cursor ?? null },
      };
    },

    async corpus(_, args, context) {
      const corpus = await context.service.corpus(context.caller, args, options(context));
      return {
        workspaceId: corpus.workspaceId,
        version: corpus.corpusVersion,
        documents: corpus.documents,
        chunks: corpus.chunks,
        tokens: corpus.tokens,
        entities: corpus.entities,
        relations: corpus.relations,
      };
    },

    async entity(_, args, context) {
      const found = await context.service.entity(
        context.caller,
        { workspaceId: args.workspaceId, type: args.type, number: args.number },
        options(context),
      );
      if (!found) return null;
      return {
        ...found.entity,
        mentions: found.mentions.map((mention) => ({
          sourceId: mention.sourcePath,
          chunkId: mention.chunkId,
          count: mention.count,
        })),
      };
    },

    async expandGraph(_, args, context) {
      return context.service.expandGraph(context.caller, args, options(context));
    },

    async job(_, args, context) {
      return context.service.job(context.caller, { id: args.id });
    },

    async jobs(_, args, context) {
      return context.service.listJobs(context.caller, args, options(context));
    },

    async workspaces(_, _args, context) {
      return context.service.listWorkspaces(context.caller);
    },

    async deadLetters(_, args, context) {
      return context.service.deadLetters(context.caller, { limit: args.limit });
    },

    async apiKeys(_, args, context) {
      return context.service.listApiKeys(context.caller, { includeRevoked: args.includeRevoked });
    },

    async auditLog(_, args, context) {
      const records = await context.service.auditLog(context.caller, args);
      // The log's ids are serial numbers; the schema's ID is a string (as graphql-js sends it).
      return records.map((record) => ({ ...record, id: String(record.id) }));
    },

    async evalRuns(_, args, context) {
      return context.service.evalRuns(context.caller, { limit: args.limit });
    },

    async evalRun(_, args, context) {
      return context.service.evalRun(context.caller, { id: args.id });
    },
  },

  Document: {
    async chunks(document, args, context) {
      return context.service.documentChunks(
        context.caller,
        { workspaceId: document.workspaceId, id: document.id, first: args.first },
        options(context),
      );
    },
  },

  Mutation: {
    async ragAnswer(_, { input }, context) {
      return context.service.answer(context.caller, input, options(context));
    },

    async ingestDocuments(_, { input }, context) {
      return ingestResult(await context.service.ingest(context.caller, input, options(context)));
    },

    async retryDeadLetters(_, args, context) {
      return context.service.retryDeadLetters(context.caller, { ids: args.ids });
    },

    async purgeDeadLetters(_, _args, context) {
      return context.service.purgeDeadLetters(context.caller);
    },

    async resumeIngest(_, args, context) {
      return context.service.resumeIngest(context.caller, args, options(context));
    },

    async crawlSite(_, { input }, context) {
      const outcome = await context.service.crawlSite(context.caller, input, options(context));
      return {
        mode: outcome.mode,
        jobs: outcome.jobs,
        summary: outcome.summary && {
          ...outcome.summary,
          failures: outcome.summary.failures.map((failure) => ({ ...failure, sourceId: failure.sourcePath })),
        },
        schedule: outcome.schedule && { ...outcome.schedule, everySeconds: outcome.schedule.everyMs / 1000 },
      };
    },

    async deleteDocument(_, args, context) {
      return context.service.deleteDocument(context.caller, args, options(context));
    },

    async refreshDocument(_, args, context) {
      return ingestResult(await context.service.refreshDocument(context.caller, args, options(context)));
    },

    async createApiKey(_, { input }, context) {
      const created = await context.service.createApiKey(context.caller, input);
      return { ...created.record, key: created.key };
    },

    async revokeApiKey(_, args, context) {
      return context.service.revokeApiKey(context.caller, { id: args.id });
    },
  },
};
