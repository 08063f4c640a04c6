import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../errors/index.js';
import { filterConditions, PAGE_RANGE_MESSAGE, parseFilters, type RetrievalFilters } from './filters.js';

const SUPPORTED =
  'sourcePrefix, kind, chapter, section, page_number, entity_type, chunk_type, operation_type, entity_id, info_type, knowledge_type';

const PAGE_FIRST =
  "(CASE WHEN coalesce(c.metadata ->> 'page_number', d.metadata ->> 'page_number') ~ '^-?[0-9]{1,9}$' " +
  "THEN (coalesce(c.metadata ->> 'page_number', d.metadata ->> 'page_number'))::int END)";
const PAGE_LAST =
  "(CASE WHEN c.metadata ->> 'page_end' ~ '^-?[0-9]{1,9}$' THEN (c.metadata ->> 'page_end')::int END)";

function parseError(input: unknown): RagError {
  try {
    parseFilters(input);
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error(`parseFilters accepted ${JSON.stringify(input)}`);
}

describe('parseFilters', () => {
  it.each<[string, unknown, RetrievalFilters]>([
    ['undefined', undefined, {}],
    ['null', null, {}],
    ['an empty object', {}, {}],
    [
      'every supported key',
      {
        sourcePrefix: 'simulated_ingestion/textbook/',
        kind: 'markdown',
        chapter: '3',
        section: '3.2',
        page_number: 41,
        entity_type: 'algorithm',
      },
      {
        sourcePrefix: 'simulated_ingestion/textbook/',
        kind: 'markdown',
        chapter: '3',
        section: '3.2',
        page_number: 41,
        entity_type: 'algorithm',
      },
    ],
    ['page_number 0', { page_number: 0 }, { page_number: 0 }],
    ['the largest Postgres int page', { page_number: 2 ** 31 - 1 }, { page_number: 2 ** 31 - 1 }],
    ['the smallest Postgres int page', { page_number: -(2 ** 31) }, { page_number: -(2 ** 31) }],
    ['a negative page_number (an integer, so accepted)', { page_number: -2 }, { page_number: -2 }],
    ['null and undefined values skipped', { kind: null, chapter: undefined, section: '1' }, { section: '1' }],
    ['a null page_number skipped', { page_number: null }, {}],
  ])('accepts %s', (_name, input, expected) => {
    expect(parseFilters(input)).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['x', { x: 1 }, `filter 'x' is not supported (supported: ${SUPPORTED})`],
    [
      'source_prefix',
      { source_prefix: 'a/' },
      `filter 'source_prefix' is not supported (supported: ${SUPPORTED})`,
    ],
    ['pageNumber', { pageNumber: 3 }, `filter 'pageNumber' is not supported (supported: ${SUPPORTED})`],
    // The key is checked before the value, so null does not smuggle an unknown key through.
    [
      'null under an unknown key',
      { workspace: null },
      `filter 'workspace' is not supported (supported: ${SUPPORTED})`,
    ],
  ])('rejects the unknown key %s', (_name, input, message) => {
    const error = parseError(input);
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ filter: Object.keys(input as object)[0] });
  });

  it.each<[string, unknown, string]>([
    ['a fractional page', { page_number: 4.5 }, "filter 'page_number' must be an integer"],
    ['a page as a string', { page_number: '4' }, "filter 'page_number' must be an integer"],
    ['a NaN page', { page_number: Number.NaN }, "filter 'page_number' must be an integer"],
    [
      'an infinite page',
      { page_number: Number.POSITIVE_INFINITY },
      "filter 'page_number' must be an integer",
    ],
    ['a page past Postgres int', { page_number: 2 ** 62 }, PAGE_RANGE_MESSAGE],
    ['a page one past Postgres int', { page_number: 2 ** 31 }, PAGE_RANGE_MESSAGE],
    ['a page one below Postgres int', { page_number: -(2 ** 31) - 1 }, PAGE_RANGE_MESSAGE],
    ['an empty kind', { kind: '' }, "filter 'kind' must be a non-empty string"],
    ['an empty sourcePrefix', { sourcePrefix: '' }, "filter 'sourcePrefix' must be a non-empty string"],
    ['a numeric chapter', { chapter: 3 }, "filter 'chapter' must be a non-empty string"],
    ['a list as section', { section: ['1'] }, "filter 'section' must be a non-empty string"],
    ['a string filter input', 'kind=markdown', 'filters must be an object'],
    ['a number filter input', 5, 'filters must be an object'],
    ['a boolean filter input', true, 'filters must be an object'],
    ['an array filter input', [{ kind: 'markdown' }], 'filters must be an object'],
  ])('rejects %s as INVALID_INPUT', (_name, input, message) => {
    const error = parseError(input);
    expect(error.code).toBe(ErrorCode.INVALID_INPUT);
    expect(error.message).toBe(message);
  });
});

describe('filterConditions', () => {
  it('is empty without filters', () => {
    expect(filterConditions({}, 4)).toEqual({ sql: '', params: [] });
  });

  it.each<[string, RetrievalFilters, string, unknown[]]>([
    ['sourcePrefix', { sourcePrefix: 'docs/' }, ' AND starts_with(d.source_path, $3)', ['docs/']],
    ['kind', { kind: 'yaml' }, ' AND d.source_kind = $3', ['yaml']],
    [
      'chapter',
      { chapter: '16' },
      " AND coalesce(c.metadata ->> 'chapter', d.metadata ->> 'chapter') = $3",
      ['16'],
    ],
    [
      'section',
      { section: '16.4' },
      " AND coalesce(c.metadata ->> 'section', d.metadata ->> 'section') = $3",
      ['16.4'],
    ],
    [
      'page_number, as the page range page_number..page_end covering it',
      { page_number: 12 },
      ` AND ${PAGE_FIRST} <= $3::int AND coalesce(${PAGE_LAST}, ${PAGE_FIRST}) >= $3::int`,
      [12],
    ],
    [
      'entity_type',
      { entity_type: 'table' },
      " AND coalesce(c.metadata ->> 'entity_type', d.metadata ->> 'entity_type') = $3",
      ['table'],
    ],
  ])('%s', (_name, filters, sql, params) => {
    expect(filterConditions(filters, 3)).toEqual({ sql, params });
  });

  it('numbers parameters from firstParameter in a fixed key order', () => {
    const filters = parseFilters({
      entity_type: 'algorithm',
      page_number: 7,
      kind: 'markdown',
      sourcePrefix: 'book/',
    });
    expect(filterConditions(filters, 5)).toEqual({
      sql:
        ' AND starts_with(d.source_path, $5)' +
        ' AND d.source_kind = $6' +
        ` AND ${PAGE_FIRST} <= $7::int AND coalesce(${PAGE_LAST}, ${PAGE_FIRST}) >= $7::int` +
        " AND coalesce(c.metadata ->> 'entity_type', d.metadata ->> 'entity_type') = $8",
      params: ['book/', 'markdown', 7, 'algorithm'],
    });
    expect(filterConditions(filters, 1).sql).toContain('starts_with(d.source_path, $1)');
    expect(filterConditions(filters, 1).sql).toContain("d.metadata ->> 'entity_type') = $4");
  });

  it('binds hostile values as parameters and never splices them into the SQL', () => {
    const hostile = "x'); DROP TABLE rag_chunks; --";
    const filters = parseFilters({ sourcePrefix: hostile, kind: hostile, chapter: hostile, section: '$1' });
    const { sql, params } = filterConditions(filters, 2);
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain("x'");
    expect(sql.match(/\$\d+/g)).toEqual(['$2', '$3', '$4', '$5']);
    expect(params).toEqual([hostile, hostile, hostile, '$1']);
  });
});
