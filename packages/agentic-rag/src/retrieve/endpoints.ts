import { entityKey, splitEntityId, type GraphEntity, type GraphStore } from '../graph/index.js';
import type { CorpusStore } from '../store/index.js';
import type { HybridRetriever } from './retriever.js';

/** What an API operation does, as the OpenAPI loader classifies it (`OperationType` entities). */
export const OPERATION_TYPES = ['create', 'read', 'update', 'delete', 'list', 'action'] as const;

export type OperationTypeName = (typeof OPERATION_TYPES)[number];

/** Endpoints read from one resource; far more than any real API has under one resource. */
const MAX_RESOURCE_ENDPOINTS = 500;
/** Pages read per answer: a handful per endpoint is plenty to cite. */
const MAX_DESCRIBING_PAGES = 200;

export interface FindEndpointsOptions {
  workspaceId: string;
  /** A resource as an API names it: `location`, `locations` and `Location` are one resource. */
  resource: string;
  /** Only operations of this type (all when absent). */
  operation?: OperationTypeName;
  /** Most endpoints returned (default 20). */
  limit?: number;
  signal?: AbortSignal;
  /** The workspace's corpus version, when the caller has read it where the retriever reads. */
  corpusVersion?: number;
}

export interface FoundEndpoint {
  /** The graph entity, `Endpoint:POST /locations`. */
  id: string;
  method: string | null;
  path: string;
  summary: string | null;
  operationId: string | null;
  operationType: string | null;
  /** The document that defines the operation (an OpenAPI operation), when one does. */
  sourceId: string | null;
  /** `title` (docs/graph.md): the operation's summary. */
  title: string | null;
  /** `doc_url` (docs/graph.md): the page that describes the endpoint most (docPages[0]), when one does. */
  docUrl: string | null;
  /** The doc pages that describe it (`(Endpoint)-[:DOC_DESCRIBES]->(DocPage)`), most first. */
  docPages: DescribingPage[];
}

export interface DescribingPage {
  /** The graph entity, `DocPage:guides/rate-shopping.md`. */
  id: string;
  /** The page's document id, which kb_get_doc takes. */
  url: string;
  title: string | null;
  /** How strongly the page describes the endpoint: its mentions, a heading counting more. */
  weight: number;
}

export interface FoundEndpoints {
  /**
   * `graph`: the resource's RESOURCE_HAS_ENDPOINT edges. `search`: the graph knows no endpoint of
   * the resource, so these are the best API operations a hybrid search found for the words.
   */
  via: 'graph' | 'search';
  /** The resource entity the graph was asked about. */
  resourceId: string;
  endpoints: FoundEndpoint[];
}

export interface EndpointSources {
  graph: GraphStore;
  retriever: HybridRetriever;
  store: CorpusStore;
}

/**
 * The endpoints of a resource, optionally of one operation type ("create a location" →
 * `POST /locations`, `POST /locations/bulk`): the resource's endpoints in the knowledge graph,
 * each with its OPERATION_TYPE, operations a spec defines before ones only prose mentions, a
 * resource's own path before its sub-paths. When the graph has no endpoint of the resource at all
 * (a word the spec does not use), a hybrid search over API operations answers instead, and says so.
 */
export async function findEndpoints(
  sources: EndpointSources,
  options: FindEndpointsOptions,
): Promise<FoundEndpoints> {
  const { graph } = sources;
  const { workspaceId, operation, signal } = options;
  const limit = options.limit ?? 20;
  const resourceId = entityKey('Resource', options.resource);

  const reached = await graph.neighbourhood({
    workspaceId,
    seeds: [resourceId],
    hops: 1,
    relationTypes: ['RESOURCE_HAS_ENDPOINT'],
    direction: 'out',
    limit: MAX_RESOURCE_ENDPOINTS,
    signal,
  });
  const endpoints = reached.entities.filter((entity) => entity.type === 'Endpoint');
  if (endpoints.length === 0) return { via: 'search', resourceId, endpoints: await search(sources, options) };
  options.signal?.throwIfAborted();

  const typed = await graph.neighbourhood({
    workspaceId,
    seeds: endpoints.map((endpoint) => endpoint.id),
    hops: 1,
    relationTypes: ['OPERATION_TYPE'],
    direction: 'out',
    limit: OPERATION_TYPES.length * 2,
    signal,
  });
  const operationOf = new Map<string, string>();
  for (const edge of typed.edges) {
    if (!operationOf.has(edge.from)) operationOf.set(edge.from, splitEntityId(edge.to).normalized);
  }
  const strength = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.strength]));
  const found = endpoints
    .map((endpoint) => describe(endpoint, operationOf.get(endpoint.id) ?? null))
    .filter((endpoint) => operation === undefined || endpoint.operationType === operation)
    .sort(
      (left, right) =>
        Number(right.sourceId !== null) - Number(left.sourceId !== null) ||
        segments(left.path) - segments(right.path) ||
        strength.get(right.id)! - strength.get(left.id)! ||
        (left.id < right.id ? -1 : 1),
    );
  const page = found.slice(0, limit);
  await addDescribingPages(graph, workspaceId, page, signal);
  return { via: 'graph', resourceId, endpoints: page };
}

/**
 * The doc pages each endpoint is described by, as the design's query reads them (docs/graph.md):
 * `OPTIONAL MATCH (e)-[:DOC_DESCRIBES]->(d:DocPage)`. Sets docPages and docUrl in place.
 */
async function addDescribingPages(
  graph: GraphStore,
  workspaceId: string,
  endpoints: FoundEndpoint[],
  signal: AbortSignal | undefined,
): Promise<void> {
  if (endpoints.length === 0) return;
  const reached = await graph.neighbourhood({
    workspaceId,
    seeds: endpoints.map((endpoint) => endpoint.id),
    hops: 1,
    relationTypes: ['DOC_DESCRIBES'],
    direction: 'out',
    limit: MAX_DESCRIBING_PAGES,
    signal,
  });
  const pages = new Map(
    reached.entities.filter((entity) => entity.type === 'DocPage').map((entity) => [entity.id, entity]),
  );
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  for (const endpoint of endpoints) {
    endpoint.docPages = reached.edges
      .filter((edge) => edge.from === endpoint.id && pages.has(edge.to))
      .map((edge) => {
        const entity = pages.get(edge.to)!;
        return {
          id: entity.id,
          url: text(entity.properties.url) ?? entity.name,
          title: text(entity.properties.title),
          weight: edge.weight,
        };
      })
      .sort((left, right) => right.weight - left.weight || (left.url < right.url ? -1 : 1));
    endpoint.docUrl = endpoint.docPages[0]?.url ?? null;
  }
}

const segments = (path: string) => path.split('/').filter(Boolean).length;

function describe(entity: GraphEntity, operationType: string | null): FoundEndpoint {
  const { properties } = entity;
  const named = /^([A-Z]+)\s+(\/\S*)$/.exec(entity.name);
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
  return {
    id: entity.id,
    method: text(properties.method) ?? named?.[1] ?? null,
    path: text(properties.path) ?? named?.[2] ?? entity.name,
    summary: text(properties.summary),
    operationId: text(properties.operation_id),
    operationType,
    sourceId: entity.definedBy,
    title: text(properties.summary),
    docUrl: null,
    docPages: [],
  };
}

/** API operation documents a hybrid search finds for "<operation> <resource>", best first. */
async function search(sources: EndpointSources, options: FindEndpointsOptions): Promise<FoundEndpoint[]> {
  const { workspaceId, operation } = options;
  const limit = options.limit ?? 20;
  const result = await sources.retriever.retrieve({
    workspaceId,
    query: [operation, options.resource].filter(Boolean).join(' '),
    k: Math.min(50, limit * 3),
    filters: { chunk_type: 'endpoint', ...(operation ? { operation_type: operation } : {}) },
    intent: false,
    ...(options.signal ? { signal: options.signal } : {}),
    corpusVersion: options.corpusVersion,
  });
  const found: FoundEndpoint[] = [];
  for (const sourcePath of [...new Set(result.hits.map((hit) => hit.sourcePath))].slice(0, limit)) {
    const metadata = (await sources.store.getDocument(workspaceId, sourcePath))?.metadata ?? {};
    if (typeof metadata.method !== 'string' || typeof metadata.path !== 'string') continue;
    found.push({
      id: entityKey('Endpoint', `${metadata.method} ${metadata.path}`),
      method: metadata.method,
      path: metadata.path,
      summary: null,
      operationId: typeof metadata.operation_id === 'string' ? metadata.operation_id : null,
      operationType: typeof metadata.operation_type === 'string' ? metadata.operation_type : null,
      sourceId: sourcePath,
      title: null,
      docUrl: null,
      docPages: [],
    });
  }
  // The summary is the Endpoint entity's, when the graph has the operation at all.
  const entities = await sources.graph.getEntities({
    workspaceId,
    ids: found.map((endpoint) => endpoint.id),
    signal: options.signal,
  });
  const summaries = new Map(entities.map((entity) => [entity.id, describe(entity, null).summary]));
  for (const endpoint of found) {
    endpoint.summary = summaries.get(endpoint.id) ?? null;
    endpoint.title = endpoint.summary;
  }
  await addDescribingPages(sources.graph, workspaceId, found, options.signal);
  return found;
}
