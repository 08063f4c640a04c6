import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';
import { entityKey, MAX_HOPS, NUMBERED_ENTITY_TYPES, RELATION_TYPES, splitEntityId } from '../graph/index.js';
import { buildContext, findEndpoints, OPERATION_TYPES } from '../retrieve/index.js';
import type { LookupResult } from '../tools/index.js';
import { inScope, type Caller } from './caller.js';
import { jobView } from './job-view.js';
import { FiltersSchema, idText, integer, corpusVersionInput, parseInput, queryText } from './inputs.js';
import type { Operation } from './permissions.js';
import {
  atCorpusVersion,
  knownCorpusVersion,
  type CallOptions,
  type OperationContext,
  type OperationHost,
  type WorkspaceCall,
} from './operation-host.js';

/** Operations that read a workspace: every one needs a reader key whose scope holds it. */

/**
 * A read: the caller's input is validated once, by `schema`, inside the guard (role, scope,
 * existence, row security: a caller without the role learns FORBIDDEN, not what was wrong), and
 * `work` gets it parsed, the workspace taken out (it is the guard's to check).
 */
function read<Schema extends z.ZodType, T>(
  operation: Operation,
  schema: Schema,
  work: (context: OperationContext, input: z.output<Schema>) => Promise<T>,
) {
  return (
    service: OperationHost,
    caller: Caller,
    input: WorkspaceCall<Schema>,
    options: CallOptions = {},
  ) => {
    const { workspaceId, ...fields } = input;
    return service.guard(
      caller,
      operation,
      workspaceId,
      (context) => work(context, parseInput(schema, fields)),
      options,
    );
  };
}

const MAX_EXPAND_IDS = 50;
const NUMBERED = NUMBERED_ENTITY_TYPES.map((type) => type.toLowerCase());

export const SearchInput = z.object({
  query: queryText(),
  k: integer('k', 1, 50).default(10),
  filters: FiltersSchema.optional(),
  intent: z.boolean().optional(),
  rerank: z.boolean().optional(),
  channels: z.array(z.enum(['vector', 'lexical', 'graph'])).optional(),
  fusion: z.enum(['adaptive', 'weighted', 'rrf']).optional(),
  minCorpusVersion: corpusVersionInput().nullish(),
  /** Also assemble the hits into a prompt context, with the operations' $ref'd schemas (rag:search --context). */
  context: z.boolean({ error: 'context must be a boolean' }).optional(),
});

export const search = read('search', SearchInput, async (context, input) => {
  const { runtime, workspaceId, signal } = context;
  const {
    query,
    k,
    filters,
    intent,
    rerank,
    channels,
    fusion,
    minCorpusVersion,
    context: withContext,
  } = input;
  const retrieve = () =>
    runtime.retriever.retrieve({
      workspaceId,
      query,
      k,
      filters: filters ?? {},
      ...(intent !== undefined ? { intent } : {}),
      ...(rerank !== undefined ? { rerank } : {}),
      ...(channels ? { channels } : {}),
      ...(fusion ? { fusion } : {}),
      ...(signal ? { signal } : {}),
      corpusVersion: knownCorpusVersion(context),
    });
  const result = await atCorpusVersion(context, minCorpusVersion, retrieve);
  // One indexed read for every hit: which graph entities each chunk mentions.
  const mentions = await runtime.graph.mentionedIn({
    workspaceId,
    chunkIds: result.hits.map((hit) => hit.chunkId),
    signal,
  });
  const assembled = withContext
    ? await buildContext(runtime.chunks, runtime.config, workspaceId, result, context.logger)
    : undefined;
  return {
    workspaceId,
    ...result,
    ...(assembled ? { context: assembled } : {}),
    hits: result.hits.map((hit) => ({
      ...hit,
      mentions: mentions
        .filter((mention) => mention.chunkId === hit.chunkId)
        .map((mention) => mention.entityId),
    })),
  };
});

export const DocumentInput = z.object({ id: idText('id') });

export const getDocument = read('getDocument', DocumentInput, async ({ runtime, workspaceId }, { id }) => {
  return runtime.store.getDocument(workspaceId, id);
});

export const ContentInput = z.object({
  id: idText('id'),
  offset: integer('offset', 0, 1_000_000_000).default(0),
  maxChars: integer('max_chars', 1, 200_000).default(50_000),
});

/** A window of a document's text with the document: NOT_FOUND when it does not exist. */
export const documentContent = read('getDocument', ContentInput, async ({ runtime, workspaceId }, input) => {
  const { id, offset, maxChars } = input;
  const [document, content] = await Promise.all([
    runtime.store.getDocument(workspaceId, id),
    runtime.store.documentContent(workspaceId, id),
  ]);
  if (!document || content === null) {
    throw new RagError(ErrorCode.NOT_FOUND, `document "${id}" does not exist in workspace "${workspaceId}"`);
  }
  if (offset > content.length) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `offset must be at most ${content.length} (the document's length)`,
    );
  }
  return { workspaceId, document, content, offset, window: content.slice(offset, offset + maxChars) };
});

export const ListInput = z.object({
  first: integer('first', 1, 100).default(20),
  after: idText('after', 2100).nullish(),
  order: z.enum(['path', 'updated'], { error: 'order must be path or updated' }).default('path'),
  sourcePrefix: idText('sourcePrefix').nullish(),
  /** Part of an id, title or kind, any case; blank is no filter. */
  search: z.string().trim().max(200, 'search must be at most 200 characters').nullish(),
});

export const listDocuments = read('listDocuments', ListInput, async ({ runtime, workspaceId }, input) => {
  const { first, after, order, sourcePrefix, search } = input;
  return runtime.store.documents(workspaceId, {
    first,
    order,
    after: after ?? null,
    sourcePrefix: sourcePrefix ?? null,
    search: search || null,
  });
});

export const ChunksInput = z.object({ id: idText('id'), first: integer('first', 1, 500).default(50) });

export const documentChunks = read('documentChunks', ChunksInput, async ({ runtime, workspaceId }, input) => {
  const { id, first } = input;
  const document = await runtime.store.getDocument(workspaceId, id);
  if (!document) return [];
  return (await runtime.chunks.firstOf(document.id, first)).map((chunk) => ({
    chunkId: chunk.chunkId,
    index: chunk.chunkIndex,
    text: chunk.text,
    tokenCount: chunk.tokenCount,
    startOffset: chunk.startOffset,
    endOffset: chunk.endOffset,
    sectionPath: chunk.sectionPath,
  }));
});

export const CorpusInput = z.looseObject({});

export const corpus = read('corpus', CorpusInput, async ({ runtime, workspaceId, signal }) => {
  const [stats, graph] = await Promise.all([
    runtime.store.stats(workspaceId),
    runtime.graph.stats({ workspaceId, signal }),
  ]);
  return { ...stats, workspaceId, entities: graph.entities, relations: graph.relations };
});

export const EntityInput = z
  .object({
    id: idText('id', 300).optional(),
    type: z
      .string({ error: 'type must be a string' })
      .transform((type) => type.trim().toLowerCase())
      .pipe(z.enum(NUMBERED, { error: `type must be one of ${NUMBERED.join(', ')}` }))
      .optional(),
    number: z
      .string({ error: 'number must be a string' })
      .trim()
      .regex(/^([A-Z]|\d+)(\.\d+)*$/i, { error: 'number must look like 3.2, 16.4 or A.1' })
      .optional(),
  })
  .refine((value) => (value.id === undefined) === (value.type !== undefined && value.number !== undefined), {
    error: 'give either id, or type and number',
  });

/**
 * An entity by id, or a numbered one by type and number, with its mentions and, for a numbered
 * entity, its defining passage (what the orchestrator's lookup tool finds); null when unknown.
 * The lookup runs here, inside the caller's workspace scope, not in a transport.
 */
export const entity = read('entity', EntityInput, async ({ runtime, workspaceId, signal }, parsed) => {
  const id =
    parsed.id !== undefined
      ? (({ type, normalized }) => entityKey(type, normalized))(splitEntityId(parsed.id.trim()))
      : entityKey(parsed.type!.charAt(0).toUpperCase() + parsed.type!.slice(1), parsed.number!);
  const [found] = await runtime.graph.getEntities({ workspaceId, ids: [id], signal });
  if (!found) return null;
  const mentions = await runtime.graph.mentions({ workspaceId, entityIds: [found.id], signal });
  const { type, normalized } = splitEntityId(found.id);
  const lookup = (NUMBERED_ENTITY_TYPES as readonly string[]).includes(type)
    ? await runtime.tools.call('lookup', { workspaceId, type, number: normalized }, signal ? { signal } : {})
    : null;
  const definition = lookup?.ok
    ? ((lookup.result.data as LookupResult | undefined)?.definition ?? null)
    : null;
  return { workspaceId, entity: found, mentions, definition };
});

export const ExpandInput = z.object({
  ids: z
    .array(idText('each id', 300), { error: 'ids must be a list of entity ids' })
    .min(1, { error: `ids must hold 1 to ${MAX_EXPAND_IDS} entity ids` })
    .max(MAX_EXPAND_IDS, { error: `ids must hold 1 to ${MAX_EXPAND_IDS} entity ids` }),
  // Any strings in, the known relation types out: a transport need not know the list.
  relationTypes: z
    .array(
      z
        .string()
        .pipe(z.enum(RELATION_TYPES, { error: `relation types may be ${RELATION_TYPES.join(', ')}` })),
    )
    .nullish(),
  depth: integer('depth', 0, MAX_HOPS).default(1),
  limit: integer('limit', 1, 500).optional(),
});

export const expandGraph = read(
  'expandGraph',
  ExpandInput,
  async ({ runtime, workspaceId, signal }, parsed) => {
    return runtime.graph.neighbourhood({
      signal,
      workspaceId,
      seeds: [
        ...new Set(
          parsed.ids.map((id) =>
            (({ type, normalized }) => entityKey(type, normalized))(splitEntityId(id.trim())),
          ),
        ),
      ],
      hops: parsed.depth,
      ...(parsed.limit !== undefined ? { limit: parsed.limit } : {}),
      ...(parsed.relationTypes ? { relationTypes: parsed.relationTypes } : {}),
    });
  },
);

export const EndpointsInput = z.object({
  resource: queryText('resource', 200),
  operation: z
    .enum(OPERATION_TYPES, { error: `operation must be one of ${OPERATION_TYPES.join(', ')}` })
    .optional(),
  limit: integer('limit', 1, 50).default(20),
});

export const endpoints = read('findEndpoints', EndpointsInput, async (context, parsed) => {
  const { runtime, workspaceId, signal } = context;
  return findEndpoints(runtime, {
    workspaceId,
    corpusVersion: knownCorpusVersion(context),
    resource: parsed.resource,
    limit: parsed.limit,
    ...(parsed.operation ? { operation: parsed.operation } : {}),
    ...(signal ? { signal } : {}),
  });
});

export const JobsInput = z.object({ first: integer('first', 1, 200).default(50) });

/**
 * A workspace's latest jobs, newest first, and whether this deployment has a queue: without one
 * every ingest ran inline and is listed here all the same.
 */
export const listJobs = read('listJobs', JobsInput, async ({ runtime, workspaceId }, { first }) => {
  const jobs = await runtime.jobs.recent(workspaceId, first);
  return { workspaceId, queue: runtime.queue !== null, jobs: jobs.map(jobView) };
});

export const WaitInput = z.object({
  ids: z.array(idText('each id', 200), { error: 'ids must be a list of job ids' }).max(100_000),
});

/**
 * Waits until every job ends (a worker finished it or it was dead-lettered), reporting progress:
 * what `rag:ingest --wait` shows. Only the caller's workspace's jobs are counted.
 */
export async function waitForJobs(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof WaitInput>,
  options: CallOptions & { onProgress?: (done: number, total: number, dead: number) => void } = {},
): Promise<{ completed: number; dead: number }> {
  return service.guard(
    caller,
    'listJobs',
    input.workspaceId,
    async ({ runtime }) => {
      const { ids } = parseInput(WaitInput, { ids: input.ids });
      if (!runtime.queue) return { completed: 0, dead: 0 };
      return runtime.queue.waitFor(ids, options.onProgress);
    },
    options,
  );
}

/**
 * What readiness shows an entitled prober (a key or the metrics token): the database backend and
 * the default workspace's size. Throws when the database does not answer.
 */
export async function deploymentStatus(service: OperationHost) {
  const { runtime } = service;
  const workspaceId = runtime.config.AGENTIC_RAG_WORKSPACE;
  return { backend: runtime.sql.backend, workspaceId, corpus: await runtime.store.stats(workspaceId) };
}

/** The workspaces the caller may see, with what each holds; a scoped key sees its own if it exists. */
export async function listWorkspaces(service: OperationHost, caller: Caller) {
  return service.guardDeployment(caller, 'listWorkspaces', async () =>
    (await service.runtime.store.workspaces()).filter((workspace) => inScope(caller, workspace.id)),
  );
}

/** A job the caller may see (its workspace in scope), else null: someone else's job does not exist. */
export const JobInput = z.object({ id: idText('id', 200) });

export async function job(service: OperationHost, caller: Caller, input: z.input<typeof JobInput>) {
  service.authorize(caller, 'job');
  const { id } = parseInput(JobInput, input);
  const found = await service.runtime.jobs.get(id);
  if (!found) return null;
  if (caller.scope !== '*' && (found.workspaceId === null || !inScope(caller, found.workspaceId)))
    return null;
  const shown = jobView(found);
  // A worker's write, learnt here: this process's next reads of the workspace include it.
  if (found.workspaceId !== null && shown.corpusVersion !== null)
    service.runtime.corpusVersions.note(found.workspaceId, shown.corpusVersion);
  return shown;
}
