import {
  describeIssue,
  ErrorCode,
  MAX_HOPS,
  MAX_QUERY_LENGTH,
  NUMBERED_ENTITY_TYPES,
  OPERATION_TYPES,
  RagError,
  RELATION_TYPES,
  type Caller,
  type Config,
  type Logger,
  type McpToolName,
  type RagService,
} from '@agentic-rag/core';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * What a tool runs with: the application service, who is calling, and the workspace the call
 * names (the deployment's default when it names none); the service checks the caller may read it.
 */
export interface ToolContext {
  service: RagService;
  caller: Caller;
  workspaceId: string;
  signal: AbortSignal;
  logger: Logger;
}

/** What a call starts from: the `workspace` argument is resolved by the server's policy. */
export interface CallContext extends Omit<ToolContext, 'workspaceId'> {
  resolveWorkspace(requested: string | undefined): string;
}

/** One MCP tool as the server lists and calls it. */
export interface McpTool {
  name: McpToolName;
  title: string;
  description: string;
  /** The arguments, `workspace` included: published as JSON Schema, and what validates a call. */
  input: z.ZodObject;
  annotations: ToolAnnotations;
  /** Validates the arguments (INVALID_INPUT), resolves the workspace, runs. */
  call(args: unknown, context: CallContext): Promise<Record<string, unknown>>;
}

interface ToolDefinition<Shape extends z.ZodRawShape> extends Omit<McpTool, 'input' | 'call'> {
  input: Shape;
  run(input: z.output<z.ZodObject<Shape>>, context: ToolContext): Promise<Record<string, unknown>>;
}

const MAX_EXPAND_IDS = 50;
const MAX_DOCUMENT_CHARS = 200_000;
const MAX_MENTIONS = 20;

/** An integer argument whose every failure says the same clear thing. */
const integer = (name: string, min: number, max: number) => {
  const error = `${name} must be an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
};

const text = (name: string, max: number) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`),
    })
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(max, { error: `${name} must be at most ${max} characters` });

const NUMBERED = NUMBERED_ENTITY_TYPES.map((type) => type.toLowerCase());

const filters = z
  .strictObject({
    sourcePrefix: z
      .string()
      .min(1)
      .optional()
      .describe('source ids starting with this, e.g. "simulated_ingestion/textbook/"'),
    kind: z
      .string()
      .min(1)
      .optional()
      .describe('document kind: markdown, text, html, json-record, yaml, openapi, knowledge'),
    chapter: z.string().min(1).optional(),
    section: z.string().min(1).optional(),
    page_number: z.int().optional(),
    entity_type: z.string().min(1).optional().describe('textbook chunks defining this type, e.g. Algorithm'),
    chunk_type: z.string().min(1).optional().describe('API specs: endpoint, schema, errors, overview'),
    operation_type: z.enum(OPERATION_TYPES).optional().describe('API operations of this type'),
    entity_id: z.string().min(1).optional().describe('knowledge pieces of this entity, e.g. user:alice'),
    info_type: z.string().min(1).optional().describe('knowledge pieces of this info type, e.g. instructions'),
    knowledge_type: z
      .string()
      .min(1)
      .optional()
      .describe('knowledge pieces of this kind: fact, instruction, preference, procedure, note, episodic'),
  })
  .optional()
  .describe('narrow the search to chunks matching every given field');

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The six tools; descriptions name this deployment's defaults. */
export function mcpTools(config: Config): McpTool[] {
  const served = config.AGENTIC_RAG_MCP_WORKSPACES;
  const others = served.includes('*')
    ? 'any other workspace may be named'
    : served.length > 0
      ? `also served: ${served.join(', ')}`
      : 'no other workspace is served';
  const workspace = text('workspace', 64)
    .optional()
    .describe(`the workspace to read (default "${config.AGENTIC_RAG_WORKSPACE}"; ${others})`);
  const tool = <Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>) =>
    defineTool(definition, workspace);
  const topK = integer('top_k', 1, 50).default(config.AGENTIC_RAG_TOPK);
  // Read-your-writes across API processes and replicas: the corpusVersion a write returned.
  const minCorpusVersion = integer('min_corpus_version', 0, Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('read at least this corpus version (the corpusVersion an ingest or delete returned)');

  const kbSearch = tool({
    name: 'kb_search',
    title: 'Search the knowledge base',
    description:
      'Hybrid search (keywords, embeddings and the knowledge graph) over the knowledge base. Returns ranked ' +
      'snippets, each with its sourceId (pass it to kb_get_doc), title, url, score and character offsets, ' +
      'and the graph entities that brought it in.',
    input: {
      query: text('query', MAX_QUERY_LENGTH).describe('what to look for, in plain words'),
      top_k: topK.describe('number of snippets'),
      filters,
      min_corpus_version: minCorpusVersion,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(
      { query, top_k, filters, min_corpus_version },
      { service, caller, workspaceId, signal, logger },
    ) {
      const result = await service.search(
        caller,
        { workspaceId, query, k: top_k, filters, minCorpusVersion: min_corpus_version },
        { signal, logger },
      );
      return {
        workspace: workspaceId,
        query: result.query,
        correctedQuery: result.correctedQuery,
        results: result.hits.map((hit, index) => ({
          index: index + 1,
          sourceId: hit.sourcePath,
          chunkId: hit.chunkId,
          title: hit.title,
          url: hit.url,
          score: round(hit.score),
          sectionPath: hit.sectionPath,
          startOffset: hit.startOffset,
          endOffset: hit.endOffset,
          snippet: hit.text,
          graphEntities: hit.graphEntities ?? [],
        })),
        warnings: result.stats.warnings,
      };
    },
  });

  const kbGetDoc = tool({
    name: 'kb_get_doc',
    title: 'Read a document',
    description:
      'One document of the knowledge base by its id (the sourceId of a kb_search result or citation): title, ' +
      'url, metadata and its full text, or a window of it for long documents.',
    input: {
      id: text('id', 2000).describe('the document id, e.g. "api/openapi.yaml#paths/locations/post"'),
      offset: integer('offset', 0, 1_000_000_000).default(0).describe('first character to return'),
      max_chars: integer('max_chars', 1, MAX_DOCUMENT_CHARS)
        .default(50_000)
        .describe('most characters to return'),
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run({ id, offset, max_chars }, { service, caller, workspaceId, signal, logger }) {
      const { document, content, window } = await service.documentContent(
        caller,
        { workspaceId, id, offset, maxChars: max_chars },
        { signal, logger },
      );
      return {
        workspace: workspaceId,
        id: document.sourcePath,
        title: document.title,
        url: document.url,
        kind: document.kind,
        metadata: document.metadata,
        tokenCount: document.tokenCount,
        chunkCount: document.chunkCount,
        updatedAt: document.updatedAt,
        totalChars: content.length,
        startOffset: offset,
        endOffset: offset + window.length,
        truncated: offset + window.length < content.length,
        text: window,
      };
    },
  });

  const graphFindEndpoints = tool({
    name: 'graph_find_endpoints',
    title: 'Find API endpoints',
    description:
      'The API endpoints of a resource from the knowledge graph, optionally only those of one operation type: ' +
      'resource "location" with operation "create" finds POST /locations. Each endpoint has its method, path, ' +
      'summary (also as title), operation type, the sourceId of the document that defines it, and the doc pages ' +
      'that describe it (docPages, most first; doc_url is docPages[0].url, an id for kb_get_doc). "via" is ' +
      '"search" when the graph knows no endpoint of the resource and a search over API operations answered instead.',
    input: {
      resource: text('resource', 200).describe('the resource, singular or plural: "location", "shipments"'),
      operation: z
        .enum(OPERATION_TYPES, { error: `operation must be one of ${OPERATION_TYPES.join(', ')}` })
        .optional()
        .describe('only endpoints of this operation type'),
      limit: integer('limit', 1, 50).default(20).describe('most endpoints returned'),
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run({ resource, operation, limit }, { service, caller, workspaceId, signal, logger }) {
      const found = await service.findEndpoints(
        caller,
        { workspaceId, resource, limit, ...(operation ? { operation } : {}) },
        { signal, logger },
      );
      return {
        workspace: workspaceId,
        resource: found.resourceId,
        operation: operation ?? null,
        via: found.via,
        // Endpoint{method, path, title, doc_url} as docs/graph.md has it, with what else we know of it.
        endpoints: found.endpoints.map(({ docUrl, ...endpoint }) => ({ ...endpoint, doc_url: docUrl })),
      };
    },
  });

  const graphExpand = tool({
    name: 'graph_expand',
    title: 'Expand the knowledge graph',
    description:
      'The knowledge-graph neighbourhood of entities (ids such as "Resource:location", "Endpoint:POST /locations", ' +
      '"Algorithm:3.2", as kb_search, get_entity and graph_find_endpoints return them): the entities within ' +
      '`depth` hops, nearest and most strongly related first, and the edges between them.',
    input: {
      ids: z
        .array(text('each id', 300), { error: 'ids must be a list of entity ids' })
        .min(1, { error: `ids must hold 1 to ${MAX_EXPAND_IDS} entity ids` })
        .max(MAX_EXPAND_IDS, { error: `ids must hold 1 to ${MAX_EXPAND_IDS} entity ids` })
        .describe('entity ids to start from'),
      relation_types: z
        .array(z.enum(RELATION_TYPES, { error: `relation_types may hold ${RELATION_TYPES.join(', ')}` }))
        .optional()
        .describe('follow only these relations (all when absent)'),
      depth: integer('depth', 0, MAX_HOPS).default(1).describe('hops from the given entities'),
      limit: integer('limit', 1, 100).default(50).describe('most entities returned besides the given ones'),
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run({ ids, relation_types, depth, limit }, { service, caller, workspaceId, signal, logger }) {
      const neighbourhood = await service.expandGraph(
        caller,
        { workspaceId, ids, depth, limit, ...(relation_types ? { relationTypes: relation_types } : {}) },
        { signal, logger },
      );
      return {
        workspace: workspaceId,
        entities: neighbourhood.entities.map((entity) => ({
          id: entity.id,
          type: entity.type,
          name: entity.name,
          hop: entity.hop,
          strength: round(entity.strength),
          definedBy: entity.definedBy,
        })),
        edges: neighbourhood.edges,
      };
    },
  });

  const getEntity = tool({
    name: 'get_entity',
    title: 'Get a knowledge-graph entity',
    description:
      'One entity of the knowledge graph with its properties, aliases, the document that defines it and the ' +
      'chunks that mention it. Give `type` and `number` for a numbered textbook entity (type "algorithm", ' +
      'number "3.2"; its defining passage is included), or the `id` of any entity ("Endpoint:POST /locations").',
    input: {
      id: text('id', 300).optional().describe('an entity id, "Type:name"'),
      type: z
        .string()
        .transform((type) => type.trim().toLowerCase())
        .pipe(z.enum(NUMBERED, { error: `type must be one of ${NUMBERED.join(', ')}` }))
        .optional()
        .describe(`a numbered entity type: ${NUMBERED.join(', ')}`),
      number: z
        .string()
        .trim()
        .regex(/^([A-Z]|\d+)(\.\d+)*$/i, { error: 'number must look like 3.2, 16.4 or A.1' })
        .optional()
        .describe('the entity number, e.g. "3.2" or "A.1"'),
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(input, { service, caller, workspaceId, signal, logger }) {
      const found = await service.entity(caller, { workspaceId, ...input }, { signal, logger });
      if (!found) {
        const asked = input.id ?? `${input.type ?? ''} ${input.number ?? ''}`.trim();
        throw new RagError(
          ErrorCode.NOT_FOUND,
          `entity "${asked}" does not exist in workspace "${workspaceId}"`,
        );
      }
      const { entity, mentions, definition } = found;
      return {
        workspace: workspaceId,
        id: entity.id,
        type: entity.type,
        name: entity.name,
        aliases: entity.aliases,
        properties: entity.properties,
        definedBy: entity.definedBy,
        definition,
        mentionCount: mentions.length,
        mentions: mentions.slice(0, MAX_MENTIONS).map((mention) => ({
          sourceId: mention.sourcePath,
          chunkId: mention.chunkId,
          count: mention.count,
        })),
      };
    },
  });

  const ragAnswer = tool({
    name: 'rag_answer',
    title: 'Answer from the knowledge base',
    description:
      'A grounded answer to a question, written only from the knowledge base, with numbered citations [n] ' +
      'pointing at the cited passages (sourceId, title, url, snippet, offsets) and a self-check. When nothing ' +
      'covers the question the answer says so ("refused": true) instead of guessing.',
    input: {
      query: text('query', MAX_QUERY_LENGTH).describe('the question'),
      top_k: topK.describe('passages retrieved'),
      use_hyde: z
        .boolean()
        .optional()
        .describe(`also search with a hypothetical answer (default ${config.AGENTIC_RAG_USE_HYDE})`),
      use_tools: z
        .boolean()
        .optional()
        .describe(`let the answer use calc and lookup (default ${config.AGENTIC_RAG_USE_TOOLS})`),
      filters,
      min_corpus_version: minCorpusVersion,
      conversation_id: z
        .string()
        .max(64)
        .optional()
        .describe(
          'continue a conversation: the conversation.id of an earlier answer; a follow-up ("and how do I delete it?") is rewritten against its turns',
        ),
      start_conversation: z
        .boolean()
        .optional()
        .describe('begin a conversation with this question (the answer carries conversation.id)'),
    },
    annotations: {
      readOnlyHint: true,
      // A conversation records each turn, so the same call twice is two turns.
      idempotentHint: false,
      openWorldHint: config.AGENTIC_RAG_ENABLE_HTTP_FETCH,
    },
    async run(
      { query, top_k, use_hyde, use_tools, filters, min_corpus_version, conversation_id, start_conversation },
      { service, caller, workspaceId, signal, logger },
    ) {
      const answer = await service.answer(
        caller,
        {
          query,
          workspaceId,
          topK: top_k,
          filters,
          minCorpusVersion: min_corpus_version,
          ...(use_hyde !== undefined ? { useHyde: use_hyde } : {}),
          ...(use_tools !== undefined ? { useTools: use_tools } : {}),
          ...(conversation_id !== undefined ? { conversationId: conversation_id } : {}),
          ...(start_conversation !== undefined ? { startConversation: start_conversation } : {}),
        },
        { signal, logger },
      );
      return {
        workspace: workspaceId,
        answer: answer.answer,
        citations: answer.citations.map((citation) => ({ ...citation, score: round(citation.score) })),
        selfCheck: answer.selfCheck,
        refused: answer.refused,
        cached: answer.cached,
        runId: answer.runId,
        traceId: answer.traceId,
        corpusVersion: answer.corpusVersion,
        ...(answer.conversation ? { conversation: answer.conversation } : {}),
      };
    },
  });

  return [kbSearch, kbGetDoc, graphFindEndpoints, graphExpand, getEntity, ragAnswer];
}

/** A tool whose arguments are `input` plus the optional workspace, checked before `run` sees them. */
function defineTool<Shape extends z.ZodRawShape>(
  definition: ToolDefinition<Shape>,
  workspace: z.ZodOptional<z.ZodString>,
): McpTool {
  const input = z.strictObject({ ...definition.input, workspace });
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    annotations: definition.annotations,
    input,
    async call(args, { resolveWorkspace, ...context }) {
      const parsed = input.safeParse(args ?? {});
      if (!parsed.success) {
        throw new RagError(ErrorCode.INVALID_INPUT, parsed.error.issues.map(describeIssue).join('; '));
      }
      // `input` is the definition's fields plus workspace; TypeScript cannot split the generic output.
      const { workspace: requested, ...rest } = parsed.data as z.output<z.ZodObject<Shape>> & {
        workspace?: string;
      };
      const workspaceId = resolveWorkspace(requested);
      return definition.run(rest as z.output<z.ZodObject<Shape>>, { ...context, workspaceId });
    },
  };
}
