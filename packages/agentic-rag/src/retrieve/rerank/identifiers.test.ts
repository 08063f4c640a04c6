import { describe, expect, it } from 'vitest';
import { extractIdentifiers, identifierMatch, type Identifier } from './identifiers.js';

const kinds = (query: string): Array<Identifier['kind']> =>
  extractIdentifiers(query).map((identifier) => identifier.kind);
const match = (query: string, text: string): number => identifierMatch(extractIdentifiers(query), text);

const POST_LOCATIONS = 'What does POST /locations do?';
const GET_RATE_CARD = 'What does GET /rate-cards/{rateCardId} return?';
const ALGORITHM = 'Explain Algorithm 3.2';
const OPENAPI_POST = 'paths:\n  /locations:\n    post:\n      operationId: createLocation\n';
const OPENAPI_GET_ONE = 'paths:\n  /locations/{locationId}:\n    get:\n      operationId: getLocation\n';
const OPENAPI_LIST = 'paths:\n  /locations:\n    get:\n      operationId: listLocations\n';

describe('extractIdentifiers', () => {
  it.each<[string, Array<Identifier['kind']>]>([
    [POST_LOCATIONS, ['operation']],
    ['post /locations', ['operation']],
    ['Delete /locations/{locationId} please', ['operation']],
    [GET_RATE_CARD, ['operation']],
    [ALGORITHM, ['entity']],
    ['what is in table 16.4?', ['entity']],
    ['Chapter 12 summary', ['entity']],
    ['Why do I get CARRIER_SUSPENDED?', ['code']],
    ['What caused INC-2291?', ['code']],
    ['Who calls /carriers/{carrierId}/suspend?', ['path']],
    ['GET /locations then /carriers', ['operation', 'path']],
    ['POST /locations, Algorithm 3.2 and CARRIER_SUSPENDED', ['operation', 'entity', 'code']],
  ])('%s → %j', (query, expected) => {
    expect(kinds(query)).toEqual(expected);
  });

  it.each([
    'How do I create a location?',
    'GET requests are cached',
    'Algorithm overview',
    'Algorithm3.2 without a space',
    'release version 3.2',
    'HTTP status codes',
    'Carrier_Suspended in mixed case',
    'and/or 1/2',
    'see https://example.com/locations',
    '',
  ])('finds nothing in %j', (query) => {
    expect(extractIdentifiers(query)).toEqual([]);
  });

  it('keeps the whole templated path, braces included', () => {
    const [operation] = extractIdentifiers(GET_RATE_CARD);
    expect(operation!.strong.test('GET /rate-cards/{rateCardId} returns one card')).toBe(true);
    expect(operation!.strong.test('GET /rate-cards/ returns all cards')).toBe(false);
  });

  it('extracts Equation A.3 as an entity', () => {
    expect(kinds('Show Equation A.3')).toEqual(['entity']);
  });
});

describe('identifierMatch', () => {
  it.each<[string, string, string, number]>([
    ['OpenAPI path key then its method', POST_LOCATIONS, OPENAPI_POST, 1],
    ['a different path under it', POST_LOCATIONS, OPENAPI_GET_ONE, 0],
    ['the operation in prose', POST_LOCATIONS, 'POST /locations creates a location.', 1],
    ['the method in lower case', POST_LOCATIONS, 'post /locations creates a location.', 1],
    ['the path with another method only', POST_LOCATIONS, OPENAPI_LIST, 0.25],
    ['a longer path in prose', POST_LOCATIONS, 'POST /locations/{locationId}/archive archives it.', 0],
    ['the path inside another path', POST_LOCATIONS, 'See /v2/locations for details.', 0],
    ['a templated path in prose', GET_RATE_CARD, 'GET /rate-cards/{rateCardId} returns one card.', 1],
    ['a templated OpenAPI key', GET_RATE_CARD, 'paths:\n  /rate-cards/{rateCardId}:\n    get:\n', 1],
    ['a longer templated key', GET_RATE_CARD, '/rate-cards/{rateCardId}/history:\n    get:\n', 0],
    ['the parent collection', GET_RATE_CARD, '/rate-cards:\n    get:\n', 0],
    ['a bold definition', ALGORITHM, '**Algorithm 3.2.** Variable elimination', 1],
    ['a heading definition', ALGORITHM, 'Inference\n### Algorithm 3.2: Variable elimination', 1],
    ['a mention', ALGORITHM, 'as in Algorithm 3.2, we sum out one variable', 0.25],
    ['a sub-numbered entity', ALGORITHM, 'see Algorithm 3.2.1', 0],
    ['a three-digit minor number', ALGORITHM, 'see Algorithm 3.215', 0],
    ['a lower-case query', 'algorithm 3.2', '**Algorithm 3.2.** Variable elimination', 1],
    ['a numbered section heading', 'What is Section 3.2 about?', 'Chapter 3\n3.2 Variable elimination', 1],
    ['a bold table caption', 'What is in Table 16.4?', '**Table 16.4** Rates by zone', 1],
    ['a plain table caption', 'What is in Table 16.4?', 'Table 16.4: Rates by zone', 0.25],
    ['another table', 'What is in Table 16.4?', '**Table 16.5** Rates by weight', 0],
    ['an error code', 'Why CARRIER_SUSPENDED?', 'error CARRIER_SUSPENDED: the carrier is paused', 1],
    ['an error code in lower case', 'Why CARRIER_SUSPENDED?', 'carrier_suspended', 0],
    ['a longer error code', 'Why CARRIER_SUSPENDED?', 'CARRIER_SUSPENDED_TEMPORARILY', 0],
    ['an incident id', 'What caused INC-2291?', 'Postmortem for INC-2291.', 1],
    ['a longer incident id', 'What caused INC-2291?', 'Postmortem for INC-22910.', 0],
    ['a shorter incident id', 'What caused INC-2291?', 'Postmortem for INC-229.', 0],
    ['a bare path', 'Who calls /carriers/{carrierId}/suspend?', 'POST /carriers/{carrierId}/suspend', 1],
    ['a longer bare path', 'Who calls /carriers/{carrierId}/suspend?', '/carriers/{carrierId}/suspend/x', 0],
    ['no identifier in the query', 'How do I create a location?', 'POST /locations creates one.', 0],
    ['a weak then a strong identifier', 'Algorithm 3.2 or INC-2291', 'Algorithm 3.2 caused INC-2291', 1],
  ])('%s: %j in %j → %d', (_name, query, text, expected) => {
    expect(match(query, text)).toBe(expected);
  });

  it('is 0 for an empty identifier list', () => {
    expect(identifierMatch([], 'POST /locations')).toBe(0);
  });

  it('does not take a mention of Algorithm 3.21 for Algorithm 3.2', () => {
    expect(match(ALGORITHM, 'see Algorithm 3.21 for details')).toBe(0);
  });
  it('does not take the definition of Algorithm 3.21 for Algorithm 3.2', () => {
    expect(match(ALGORITHM, '**Algorithm 3.21.** Junction trees')).toBe(0);
  });

  it('does not credit a method key that belongs to the next path', () => {
    expect(match(POST_LOCATIONS, `${OPENAPI_LIST}  /locations/{locationId}:\n    post:\n`)).toBe(0.25);
  });
});
