import type { Sql } from '../db/index.js';
import { nameWords } from '../graph/index.js';

/**
 * The API operations of a workspace and the words its specs use for each, read from the
 * operation documents the OpenAPI loader wrote (their metadata: path, resource, tags, summary,
 * the descriptions of their tags, the lead of their description, the request body's schema).
 * Nothing here knows a domain: "warehouse" reaches `POST /locations` only because the spec's
 * Locations tag says "Warehouses, stores, drop-off points ...".
 */

/** Where a word of an operation comes from, and how much it says about what the operation is for. */
export const FIELD_WEIGHTS = {
  /** Path segments: `/locations/{locationId}/cancel` → location, cancel. */
  path: 1,
  summary: 0.9,
  operationId: 0.8,
  tag: 0.8,
  bodySchema: 0.6,
  tagDescription: 0.6,
  descriptionLead: 0.5,
  /** The request body's field names: "change the timezone" is a change of the `timezone` field. */
  requestField: 0.5,
} as const;

export type VocabularyField = keyof typeof FIELD_WEIGHTS;

export interface ApiOperation {
  /** The operation document: `spec.yaml#paths/locations/post`. */
  sourcePath: string;
  method: string;
  path: string;
  /** create, read, update, delete, list or action, as the loader classified it. */
  operationType: string;
  /** The verb segment of an action (`cancel`), when the operation is one. */
  action: string | null;
  /** Whether the path takes many at once (`/bulk`, `/batch`, a summary saying so). */
  bulk: boolean;
  /** Whether the path ends in a parameter: one item rather than a collection. */
  item: boolean;
  /** Stemmed word → the weight of the strongest field it appears in. */
  terms: Map<string, number>;
  /**
   * The words of what this operation itself does (its path, summary and description lead, not
   * its tag's): "Cancels a shipment and voids its label" lets "void" name the cancel operation,
   * while a tag's "Create, retrieve, cancel and track shipments" names none of them.
   */
  ownWords: Set<string>;
  /** The stemmed words of its path's static segments. */
  pathWords: Set<string>;
}

const BULK_WORDS = new Set(['bulk', 'batch']);

/**
 * A light stem both sides share, so "voids" meets "void", "cancelled" meets "cancel",
 * "warehouses" meets "warehouse" and "creating" meets "create". Not a linguist's stemmer: it only
 * has to map a question's word and a spec's word to the same key.
 */
export function stem(word: string): string {
  let stemmed = word.toLowerCase();
  if (stemmed.length <= 3) return stemmed;
  if (/ies$/.test(stemmed) && stemmed.length > 4) stemmed = `${stemmed.slice(0, -3)}y`;
  else if (/(?:ss|us|is)$/.test(stemmed)) return stemmed;
  else if (/(?:sses|shes|ches|xes|zes)$/.test(stemmed)) stemmed = stemmed.slice(0, -2);
  else if (/s$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  if (/ing$/.test(stemmed) && stemmed.length > 5) stemmed = stemmed.slice(0, -3);
  else if (/ed$/.test(stemmed) && stemmed.length > 4) stemmed = stemmed.slice(0, -2);
  if (/([bdfglmnprt])\1$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  return stemmed.replace(/e$/, '');
}

/** The stemmed words of any text or identifier (`listLocations`, "drop-off points"). */
export function stemmedWords(text: string): string[] {
  return nameWords(text).map(stem);
}

interface OperationRow {
  source_path: string;
  metadata: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const texts = (value: unknown) => (Array.isArray(value) ? value.map(text) : []);

/** One operation document's metadata as an `ApiOperation`; undefined when it is not one. */
export function toApiOperation(
  sourcePath: string,
  metadata: Record<string, unknown>,
): ApiOperation | undefined {
  const method = text(metadata.method);
  const path = text(metadata.path);
  if (!method || !path) return undefined;
  const terms = new Map<string, number>();
  const add = (field: VocabularyField, words: string[]) => {
    for (const word of words) {
      if (word.length < 2) continue;
      terms.set(word, Math.max(terms.get(word) ?? 0, FIELD_WEIGHTS[field]));
    }
  };
  const statics = path.split('/').filter((segment) => segment && !segment.startsWith('{'));
  add('path', statics.flatMap(stemmedWords));
  add('summary', stemmedWords(text(metadata.summary)));
  add('operationId', stemmedWords(text(metadata.operation_id)));
  add('tag', texts(metadata.tags).flatMap(stemmedWords));
  add('bodySchema', stemmedWords(text(metadata.body_schema)));
  add('tagDescription', texts(metadata.tag_descriptions).flatMap(stemmedWords));
  add('descriptionLead', stemmedWords(text(metadata.description_lead)));
  add('requestField', texts(metadata.request_fields).flatMap(stemmedWords));
  const summaryWords = stemmedWords(text(metadata.summary));
  const ownWords = new Set([
    ...statics.flatMap(stemmedWords),
    ...summaryWords,
    ...stemmedWords(text(metadata.description_lead)),
  ]);
  return {
    sourcePath,
    method: method.toUpperCase(),
    path,
    operationType: text(metadata.operation_type) || 'action',
    action: text(metadata.action) || null,
    bulk:
      statics.some((segment) => BULK_WORDS.has(segment.toLowerCase())) ||
      summaryWords.some((word) => BULK_WORDS.has(word)),
    item: /\}$/.test(path),
    terms,
    ownWords,
    pathWords: new Set(statics.flatMap(stemmedWords)),
  };
}

const LOAD_OPERATIONS = `
  SELECT source_path, metadata
    FROM rag_documents
   WHERE workspace_id = $1 AND metadata->>'chunk_type' = 'endpoint'`;
const CORPUS_VERSION = 'SELECT corpus_version FROM rag_workspaces WHERE id = $1';

interface Cached {
  version: string;
  operations: Promise<ApiOperation[]>;
}

// Per database and workspace, valid while the workspace's corpus version stands: one small query
// per question instead of reading every operation document again.
const cache = new WeakMap<Sql, Map<string, Cached>>();

/** The workspace's API operations (none when it holds no spec). */
export async function apiOperations(sql: Sql, workspaceId: string): Promise<ApiOperation[]> {
  const version = await sql.query<{ corpus_version: string | number | null }>(CORPUS_VERSION, [workspaceId]);
  const key = String(version.rows[0]?.corpus_version ?? 'none');
  const byWorkspace = cache.get(sql) ?? new Map<string, Cached>();
  cache.set(sql, byWorkspace);
  const cached = byWorkspace.get(workspaceId);
  if (cached && cached.version === key) return cached.operations;
  const operations = sql
    .query<OperationRow & Record<string, unknown>>(LOAD_OPERATIONS, [workspaceId])
    .then((result) =>
      result.rows
        .map((row) => toApiOperation(row.source_path, row.metadata))
        .filter((operation): operation is ApiOperation => operation !== undefined),
    );
  byWorkspace.set(workspaceId, { version: key, operations });
  operations.catch(() => byWorkspace.delete(workspaceId));
  return operations;
}
