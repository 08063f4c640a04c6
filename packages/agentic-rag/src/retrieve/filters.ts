import { ErrorCode, RagError } from '../errors/index.js';

/**
 * Pages are compared as Postgres int, so a page outside int's range is a bad request, not a database
 * error. Zero and negatives stay accepted: they are integers that simply match no page.
 */
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
export const PAGE_RANGE_MESSAGE = `filter 'page_number' must be from ${INT_MIN} to ${INT_MAX}`;

/** What a search may be narrowed to, besides the (mandatory) workspace. */
export interface RetrievalFilters {
  /** Source paths starting with this, e.g. `simulated_ingestion/textbook/`. */
  sourcePrefix?: string;
  /** Document kind: markdown, text, html, json-record, yaml, openapi, knowledge. */
  kind?: string;
  chapter?: string;
  section?: string;
  page_number?: number;
  entity_type?: string;
  /** API specs: endpoint, schema, errors, overview. */
  chunk_type?: string;
  /** API operations: create, read, update, delete, list, action. */
  operation_type?: string;
  /** Knowledge pieces: whose (`user:alice`), what for (`instructions`), what kind (`preference`). */
  entity_id?: string;
  info_type?: string;
  knowledge_type?: string;
}

/** Filter keys matched against chunk metadata first, then document metadata. */
const METADATA_KEYS = [
  'chapter',
  'section',
  'page_number',
  'entity_type',
  'chunk_type',
  'operation_type',
  'entity_id',
  'info_type',
  'knowledge_type',
] as const;
const KNOWN_KEYS = ['sourcePrefix', 'kind', ...METADATA_KEYS] as const;

/** Validates untrusted filter input: unknown keys and wrong types are INVALID_INPUT. */
export function parseFilters(input: unknown): RetrievalFilters {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new RagError(ErrorCode.INVALID_INPUT, 'filters must be an object');
  }
  const filters: RetrievalFilters = {};
  for (const [key, value] of Object.entries(input)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key)) {
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        `filter '${key}' is not supported (supported: ${KNOWN_KEYS.join(', ')})`,
        {
          details: { filter: key },
        },
      );
    }
    if (value === undefined || value === null) continue;
    if (key === 'page_number') {
      if (!Number.isInteger(value))
        throw new RagError(ErrorCode.INVALID_INPUT, "filter 'page_number' must be an integer");
      if ((value as number) < INT_MIN || (value as number) > INT_MAX)
        throw new RagError(ErrorCode.INVALID_INPUT, PAGE_RANGE_MESSAGE, { details: { filter: key } });
      filters.page_number = value as number;
    } else {
      if (typeof value !== 'string' || value.length === 0) {
        throw new RagError(ErrorCode.INVALID_INPUT, `filter '${key}' must be a non-empty string`);
      }
      (filters as Record<string, string>)[key] = value;
    }
  }
  return filters;
}

/**
 * SQL conditions over `c` (rag_chunks) and `d` (rag_documents) for the filters, with parameters
 * numbered from `firstParameter`. Values are always bound, never spliced into the text.
 */
export function filterConditions(
  filters: RetrievalFilters,
  firstParameter: number,
): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${firstParameter + params.length - 1}`;
  };
  if (filters.sourcePrefix !== undefined) {
    conditions.push(`starts_with(d.source_path, ${bind(filters.sourcePrefix)})`);
  }
  if (filters.kind !== undefined) conditions.push(`d.source_kind = ${bind(filters.kind)}`);
  for (const key of METADATA_KEYS) {
    const value = filters[key];
    if (value === undefined) continue;
    if (key === 'page_number') conditions.push(pageCovered(bind(value)));
    else
      conditions.push(`coalesce(c.metadata ->> '${key}', d.metadata ->> '${key}') = ${bind(String(value))}`);
  }
  return { sql: conditions.map((condition) => ` AND ${condition}`).join(''), params };
}

/**
 * A chunk is on a page when its range `page_number`..`page_end` covers it: a chunk that runs over a
 * page break is found from either page. No `page_end` means one page (it is only ever chunk
 * metadata: a chunk, not a document, ends on a page). Values are cast only when they are integers,
 * so a stray non-numeric value fails the match instead of the query.
 */
function pageCovered(page: string): string {
  const integer = (value: string) => `(CASE WHEN ${value} ~ '^-?[0-9]{1,9}$' THEN (${value})::int END)`;
  const first = integer(`coalesce(c.metadata ->> 'page_number', d.metadata ->> 'page_number')`);
  const last = integer(`c.metadata ->> 'page_end'`);
  return `${first} <= ${page}::int AND coalesce(${last}, ${first}) >= ${page}::int`;
}
