import path from 'node:path';
import {
  documentLabel,
  entityKey,
  ErrorCode,
  type Logger,
  MAX_HOPS,
  NUMBERED_ENTITY_TYPES,
  RagError,
  type RagRuntime,
  type StoredDocument,
  unfinishedIngests,
} from '@agentic-rag/core';
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

export interface ApiContext {
  runtime: RagRuntime;
  signal: AbortSignal;
  /** The request's logger, bound to its request id. */
  logger: Logger;
}

type Args = Record<string, unknown>;

const MAX_PAGE = 100;
const MAX_EXPAND_IDS = 50;

/** Every RAG operation answers RAG_DISABLED when the deployment switched RAG off. */
function enabled(context: ApiContext): RagRuntime {
  if (!context.runtime.config.AGENTIC_RAG_ENABLED) {
    throw new RagError(
      ErrorCode.RAG_DISABLED,
      'RAG is disabled on this deployment (AGENTIC_RAG_ENABLED=false)',
    );
  }
  return context.runtime;
}

function intArgument(value: unknown, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw new RagError(ErrorCode.INVALID_INPUT, `${name} must be an integer from ${min} to ${max}`);
  }
  return value as number;
}

/** Workspaces that were never written to do not exist: a typo must not look like an empty corpus. */
async function existingWorkspace(runtime: RagRuntime, workspaceId: unknown): Promise<string> {
  if (typeof workspaceId !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(workspaceId)) {
    throw new RagError(ErrorCode.INVALID_INPUT, 'workspaceId must be letters, digits, _ . - (max 64)');
  }
  const stats = await runtime.store.stats(workspaceId);
  if (stats.corpusVersion === 0 && stats.documents === 0) {
    throw new RagError(ErrorCode.WORKSPACE_NOT_FOUND, `workspace "${workspaceId}" does not exist`);
  }
  return workspaceId;
}

const cursorOf = (sourcePath: string) => Buffer.from(sourcePath, 'utf8').toString('base64url');
function pathOfCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded || cursorOf(decoded) !== cursor)
    throw new RagError(ErrorCode.INVALID_INPUT, 'after is not a cursor of this API');
  return decoded;
}

const documentNode = (document: StoredDocument) => ({
  id: document.sourcePath,
  internalId: document.id,
  title: document.title,
  url: document.url,
  kind: document.kind,
  contentHash: document.contentHash,
  tokenCount: document.tokenCount,
  chunkCount: document.chunkCount,
  metadata: document.metadata,
  updatedAt: document.updatedAt,
});

/** Paths a client may ask the server to ingest: inside the corpus directory, nowhere else. */
function corpusPath(runtime: RagRuntime, requested: string): string {
  const root = path.resolve(runtime.config.AGENTIC_RAG_CORPUS_DIR);
  const resolved = path.resolve(root, requested);
  if (resolved !== root && !resolved.startsWith(`${root}${path.sep}`)) {
    throw new RagError(ErrorCode.INVALID_INPUT, `path "${requested}" is outside AGENTIC_RAG_CORPUS_DIR`);
  }
  return resolved;
}

/** Runs an ingestion now, recorded as a job (the inline mode). */
async function ingestJob(
  runtime: RagRuntime,
  workspaceId: string,
  kind: string,
  payload: unknown,
  work: () => ReturnType<RagRuntime['pipeline']['ingestSources']>,
) {
  const id = await runtime.jobs.start({ kind, workspaceId, payload });
  try {
    const summary = await work();
    await runtime.jobs.finish(id, { result: summary });
    return {
      mode: 'inline',
      jobs: [await runtime.jobs.get(id)],
      summary: {
        ...summary,
        failures: summary.failures.map((failure) => ({ ...failure, sourceId: failure.sourcePath })),
      },
    };
  } catch (error) {
    await runtime.jobs.finish(id, { error: (error as Error).message });
    throw error;
  }
}

/** The queue mode: one job per file or inline document, returned as queued. */
async function queueJobs(runtime: RagRuntime, ids: readonly string[]) {
  const jobs = await Promise.all(ids.map((id) => runtime.jobs.get(id)));
  return { mode: 'queue', jobs: jobs.filter(Boolean), summary: null };
}

function queueOf(runtime: RagRuntime) {
  if (!runtime.queue) {
    throw new RagError(ErrorCode.INVALID_INPUT, 'there is no job queue on this deployment (set REDIS_URL)');
  }
  return runtime.queue;
}

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

export const resolvers = {
  JSON: new GraphQLScalarType({
    name: 'JSON',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: jsonLiteral,
  }),

  Query: {
    async search(_: unknown, { input }: { input: Args }, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, input.workspaceId);
      const result = await runtime.retriever.retrieve({
        workspaceId,
        query: String(input.query ?? ''),
        k: intArgument(input.k ?? 10, 'k', 1, 50),
        filters: input.filters ?? {},
        signal: context.signal,
      });
      // One indexed read for every hit: which graph entities each chunk mentions.
      const mentions = await runtime.graph.mentionedIn(
        workspaceId,
        result.hits.map((hit) => hit.chunkId),
      );
      return {
        query: result.query,
        correctedQuery: result.correctedQuery,
        corrections: result.corrections,
        intent: result.intent,
        hits: result.hits.map((hit) => ({
          ...hit,
          sourceId: hit.sourcePath,
          mentions: mentions
            .filter((mention) => mention.chunkId === hit.chunkId)
            .map((mention) => mention.entityId),
        })),
        stages: result.stats.stages,
        warnings: result.stats.warnings,
      };
    },

    async document(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const document = await runtime.store.getDocument(workspaceId, String(args.id));
      return document ? documentNode(document) : null;
    },

    async documents(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const first = intArgument(args.first ?? 20, 'first', 1, MAX_PAGE);
      const after = typeof args.after === 'string' ? pathOfCursor(args.after) : null;
      const page = await runtime.store.documents(workspaceId, {
        first,
        after,
        sourcePrefix: typeof args.sourcePrefix === 'string' ? args.sourcePrefix : null,
      });
      const edges = page.documents.map((document) => ({
        cursor: cursorOf(document.sourcePath),
        node: documentNode(document),
      }));
      return {
        edges,
        totalCount: page.total,
        pageInfo: { hasNextPage: page.hasMore, endCursor: edges.at(-1)?.cursor ?? null },
      };
    },

    async corpus(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const [corpus, graph] = await Promise.all([
        runtime.store.stats(workspaceId),
        runtime.graph.stats(workspaceId),
      ]);
      return {
        workspaceId,
        version: corpus.corpusVersion,
        documents: corpus.documents,
        chunks: corpus.chunks,
        tokens: corpus.tokens,
        entities: graph.entities,
        relations: graph.relations,
      };
    },

    async entity(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const raw = String(args.type ?? '');
      const type = raw.charAt(0).toUpperCase() + raw.slice(1).toLowerCase();
      const numbered: readonly string[] = NUMBERED_ENTITY_TYPES;
      if (!numbered.includes(type)) {
        throw new RagError(
          ErrorCode.INVALID_INPUT,
          `type must be one of ${NUMBERED_ENTITY_TYPES.join(', ').toLowerCase()}`,
        );
      }
      const number = String(args.number ?? '');
      if (!/^[A-Z]?\d+(\.\d+)*$/i.test(number)) {
        throw new RagError(ErrorCode.INVALID_INPUT, 'number must look like 3.2, 16.4 or A.1');
      }
      const [entity] = await runtime.graph.getEntities(workspaceId, [entityKey(type, number)]);
      if (!entity) return null;
      const mentions = await runtime.graph.mentions(workspaceId, [entity.id]);
      return {
        ...entity,
        mentions: mentions.map((mention) => ({
          sourceId: mention.sourcePath,
          chunkId: mention.chunkId,
          count: mention.count,
        })),
      };
    },

    async expandGraph(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const ids = (args.ids as string[]) ?? [];
      if (ids.length === 0 || ids.length > MAX_EXPAND_IDS) {
        throw new RagError(ErrorCode.INVALID_INPUT, `ids must hold 1 to ${MAX_EXPAND_IDS} entity ids`);
      }
      const neighbourhood = await runtime.graph.neighbourhood({
        workspaceId,
        seeds: ids,
        hops: intArgument(args.depth ?? 1, 'depth', 0, MAX_HOPS),
        ...(Array.isArray(args.relationTypes) ? { relationTypes: args.relationTypes as string[] } : {}),
      });
      return neighbourhood;
    },

    async job(_: unknown, args: Args, context: ApiContext) {
      return enabled(context).jobs.get(String(args.id));
    },

    async deadLetters(_: unknown, args: Args, context: ApiContext) {
      const letters = await queueOf(enabled(context)).listDeadLetters(
        intArgument(args.limit ?? 100, 'limit', 1, 1000),
      );
      return letters.map((letter) => ({
        ...letter,
        workspaceId: letter.payload.workspaceId,
        kind: letter.payload.kind,
        document: documentLabel(letter.payload),
      }));
    },
  },

  Document: {
    async chunks(document: { internalId: number }, args: Args, context: ApiContext) {
      return context.runtime.store.chunksOf(
        document.internalId,
        intArgument(args.first ?? 50, 'first', 1, 500),
      );
    },
  },

  Mutation: {
    async ragAnswer(_: unknown, { input }: { input: Args }, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, input.workspaceId);
      return runtime.orchestrator.answer({
        query: String(input.query ?? ''),
        workspaceId,
        ...(input.topK !== undefined && input.topK !== null ? { topK: input.topK as number } : {}),
        ...(typeof input.useHyde === 'boolean' ? { useHyde: input.useHyde } : {}),
        ...(typeof input.useTools === 'boolean' ? { useTools: input.useTools } : {}),
        filters: input.filters ?? {},
        debug: input.debug === true,
        signal: context.signal,
        logger: context.logger,
      });
    },

    async ingestDocuments(_: unknown, { input }: { input: Args }, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = String(input.workspaceId ?? '');
      const paths = (input.paths as string[] | null) ?? [];
      const documents = (input.documents as Array<{ id: string; content: string }> | null) ?? [];
      if (paths.length === 0 && documents.length === 0) {
        throw new RagError(ErrorCode.INVALID_INPUT, 'give paths or documents to ingest');
      }
      const sources = paths.map((requested) => corpusPath(runtime, requested));
      if (runtime.queue) {
        const ids: string[] = [];
        for (const source of sources)
          ids.push(...(await runtime.queue.enqueueFolder(workspaceId, source)).ids);
        for (const document of documents)
          ids.push(await runtime.queue.enqueueInline(workspaceId, document.id, document.content));
        return queueJobs(runtime, ids);
      }
      return ingestJob(
        runtime,
        workspaceId,
        'ingest-documents',
        { paths, documents: documents.map((d) => d.id) },
        async () => {
          const fromFiles =
            sources.length > 0
              ? await runtime.pipeline.ingestSources({
                  workspaceId,
                  sources,
                  prune: input.prune === true,
                  signal: context.signal,
                })
              : null;
          const inline =
            documents.length > 0
              ? await runtime.pipeline.ingestInline(workspaceId, documents, context.signal)
              : null;
          if (!fromFiles) return inline!;
          if (!inline) return fromFiles;
          const counts = { ...fromFiles.documents };
          for (const key of Object.keys(counts) as Array<keyof typeof counts>)
            counts[key] += inline.documents[key];
          return {
            ...inline,
            files: fromFiles.files + inline.files,
            documents: counts,
            chunks: fromFiles.chunks + inline.chunks,
            tokens: fromFiles.tokens + inline.tokens,
            seconds: fromFiles.seconds + inline.seconds,
            failures: [...fromFiles.failures, ...inline.failures],
          };
        },
      );
    },

    async retryDeadLetters(_: unknown, args: Args, context: ApiContext) {
      const ids = Array.isArray(args.ids) ? (args.ids as string[]) : undefined;
      return queueOf(enabled(context)).retryDeadLetters(ids);
    },

    async purgeDeadLetters(_: unknown, _args: Args, context: ApiContext) {
      return queueOf(enabled(context)).purgeDeadLetters();
    },

    async resumeIngest(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      return queueOf(runtime).resume(workspaceId, await unfinishedIngests(runtime.sql, workspaceId));
    },

    async deleteDocument(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const deleted = await runtime.store.deleteDocuments(workspaceId, [String(args.id)]);
      const stats = await runtime.store.stats(workspaceId);
      return { deleted: deleted > 0, corpusVersion: stats.corpusVersion };
    },

    async refreshDocument(_: unknown, args: Args, context: ApiContext) {
      const runtime = enabled(context);
      const workspaceId = await existingWorkspace(runtime, args.workspaceId);
      const document = await runtime.store.getDocument(workspaceId, String(args.id));
      if (!document) throw new RagError(ErrorCode.NOT_FOUND, `document "${String(args.id)}" does not exist`);
      // A document's identity starts with its folder's name, so the folder is what is re-read;
      // its other files are unchanged and skipped by content hash.
      const root = path.resolve(runtime.config.AGENTIC_RAG_CORPUS_DIR);
      if (path.basename(root) !== document.sourceRoot) {
        throw new RagError(
          ErrorCode.INVALID_INPUT,
          `document "${document.sourcePath}" was not ingested from AGENTIC_RAG_CORPUS_DIR and cannot be re-read by the server`,
        );
      }
      return ingestJob(runtime, workspaceId, 'refresh-document', { id: document.sourcePath }, () =>
        runtime.pipeline.ingestSources({ workspaceId, sources: [root], signal: context.signal }),
      );
    },
  },
};
