import type { Sql } from '../db/index.js';
import { nameWords, VERSION_SEGMENT } from '../graph/index.js';
import { compoundParts } from '../lexicon/index.js';
import { readCorpusVersion } from '../store/index.js';

/**
 * The API operations of a workspace as the OpenAPI loader described them (each operation
 * document's metadata), with the words of each field kept apart so retrieval can weigh where a
 * word comes from. Nothing here knows a domain: "warehouse" reaches `POST /locations` only because
 * the spec's Locations tag says "Warehouses, stores, drop-off points ...".
 */

/** The fields of an operation a question's words are matched against. */
export const OPERATION_FIELDS = [
  'summary',
  'operationId',
  /** The static segments of the path. */
  'path',
  /** The resource the operation acts on: the path's last static segment that is not its action. */
  'target',
  'tags',
  'description',
  'parameters',
  'requestFields',
  'tagDescriptions',
] as const;

export type OperationField = (typeof OPERATION_FIELDS)[number];

export type OperationType = 'create' | 'read' | 'update' | 'delete' | 'list' | 'action';

export interface ApiOperation {
  /** The operation document: `spec.yaml#paths/locations/post`. */
  sourcePath: string;
  /** `POST /locations`. */
  name: string;
  method: string;
  path: string;
  operationId: string | null;
  summary: string | null;
  /** What the loader classified it as. */
  operationType: OperationType;
  /** The verb segment of an action (`cancel`), when the operation is one. */
  action: string | null;
  /** Whether it takes many at once (`/bulk`, `/batch`, a summary saying so). */
  bulk: boolean;
  /** Whether the path ends in a parameter: one item rather than a collection. */
  item: boolean;
  deprecated: boolean;
  /** The path's static segments, version segments left out, in order. */
  segments: string[];
  tags: string[];
  /** The raw text of each field (words of identifiers split: `listLocations` → "list locations"). */
  fields: Record<OperationField, string>;
}

const BULK_WORDS = new Set(['bulk', 'batch']);
const VERSION = VERSION_SEGMENT;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const texts = (value: unknown) => (Array.isArray(value) ? value.map(text).filter(Boolean) : []);
/** A name's words, run-together ones also in their parts: `worklog` → "worklog work log". */
const words = (value: string) =>
  nameWords(value)
    .flatMap((word) => [word, ...compoundParts(word)])
    .join(' ');

/** One operation document's metadata as an operation; undefined when it is not one. */
export function toOperation(sourcePath: string, metadata: Record<string, unknown>): ApiOperation | undefined {
  const method = text(metadata.method).toUpperCase();
  const path = text(metadata.path);
  if (!method || !path) return undefined;
  // The loader's segments leave the spec's base path out (`/rest/api/3`); older documents lack them.
  const segments = Array.isArray(metadata.path_segments)
    ? texts(metadata.path_segments)
    : path.split('/').filter((segment) => segment && !segment.startsWith('{') && !VERSION.test(segment));
  const action = text(metadata.action) || null;
  const operationType = (text(metadata.operation_type) || 'action') as OperationType;
  // The resource acted on: an action's verb segment names what is done, not to what …
  // … nor a bulk segment (`/locations/bulk` creates locations).
  const targets = (action && segments.at(-1) === action ? segments.slice(0, -1) : segments).filter(
    (segment) => !BULK_WORDS.has(segment.toLowerCase()),
  );
  const summary = text(metadata.summary) || null;
  const operationId = text(metadata.operation_id) || null;
  const description = text(metadata.description) || text(metadata.description_lead);
  return {
    sourcePath,
    name: `${method} ${path}`,
    method,
    path,
    operationId,
    summary,
    operationType,
    action,
    bulk:
      segments.some((segment) => BULK_WORDS.has(segment.toLowerCase())) ||
      nameWords(summary ?? '').some((word) => BULK_WORDS.has(word)),
    item: /\}$/.test(path),
    deprecated: metadata.deprecated === true,
    segments,
    tags: texts(metadata.tags),
    fields: {
      summary: summary ?? '',
      operationId: words(operationId ?? ''),
      path: segments.map(words).join(' '),
      target: words(targets.at(-1) ?? ''),
      tags: texts(metadata.tags).map(words).join(' '),
      description,
      parameters: texts(metadata.parameters).map(words).join(' '),
      requestFields: [text(metadata.body_schema), ...texts(metadata.request_fields)].map(words).join(' '),
      tagDescriptions: texts(metadata.tag_descriptions).join(' '),
    },
  };
}

const LOAD_OPERATIONS = `
  SELECT source_path, metadata
    FROM rag_documents
   WHERE workspace_id = $1 AND metadata->>'chunk_type' = 'endpoint'
   ORDER BY source_path`;
// What share of the workspace is API description (operations, schemas, error sets, overviews):
// in a workspace that holds only a spec, every question is about the API.
const SPEC_SHARE = `
  SELECT count(*) FILTER (WHERE metadata->>'chunk_type' IN ('endpoint', 'schema', 'errors', 'overview'))::float8
         / greatest(count(*), 1) AS share
    FROM rag_documents WHERE workspace_id = $1`;

/** A workspace's operations as read for one corpus version. */
export interface Catalogue {
  operations: ApiOperation[];
  /** Share of the workspace's documents that describe an API (0 to 1). */
  specShare: number;
}

interface Cached {
  version: string;
  value: Promise<unknown>;
}

// Per database, workspace and derivation, valid while the workspace's corpus version stands: one
// small query per question instead of reading every operation document again.
const cache = new WeakMap<Sql, Map<string, Cached>>();

/**
 * What `derive` builds from the workspace's catalogue (an index, say), built once per corpus
 * version and shared by every question until the corpus changes. `name` tells derivations apart.
 * `corpusVersion` is the version the caller already read on this `sql`; absent, it is read here.
 */
export async function fromCatalogue<T>(
  sql: Sql,
  workspaceId: string,
  name: string,
  derive: (catalogue: Catalogue) => T,
  corpusVersion?: number,
): Promise<T> {
  const key = String(corpusVersion ?? (await readCorpusVersion(sql, workspaceId)) ?? 'none');
  const byWorkspace = cache.get(sql) ?? new Map<string, Cached>();
  cache.set(sql, byWorkspace);
  const slot = `${workspaceId}\u0000${name}`;
  const cached = byWorkspace.get(slot);
  if (cached && cached.version === key) return cached.value as Promise<T>;
  const value = Promise.all([
    sql.query<{ source_path: string; metadata: Record<string, unknown> }>(LOAD_OPERATIONS, [workspaceId]),
    sql.query<{ share: number | null }>(SPEC_SHARE, [workspaceId]),
  ]).then(([rows, share]) =>
    derive({
      operations: rows.rows
        .map((row) => toOperation(row.source_path, row.metadata))
        .filter((operation): operation is ApiOperation => operation !== undefined),
      specShare: Number(share.rows[0]?.share ?? 0),
    }),
  );
  byWorkspace.set(slot, { version: key, value });
  value.catch(() => byWorkspace.delete(slot));
  return value;
}
