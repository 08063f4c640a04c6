import { describe, expect, it } from 'vitest';
import type { DocumentFacts, EntityFact } from './facts.js';
import { entityKey, mergeFacts, normalizeEntityName, singularize } from './resolve.js';

const entity = (type: string, name: string, ...mentions: Array<[number, number]>): EntityFact => ({
  type,
  name,
  mentions: mentions.map(([start, end]) => ({ start, end })),
});

describe('singularize', () => {
  it.each([
    ['locations', 'location'],
    ['policies', 'policy'],
    ['entries', 'entry'],
    ['addresses', 'address'],
    ['processes', 'process'],
    ['boxes', 'box'],
    ['branches', 'branch'],
    ['caches', 'cache'],
    ['hashes', 'hash'],
    ['statuses', 'status'],
    ['buses', 'bus'],
    ['causes', 'cause'],
    ['analyses', 'analysis'],
    ['hypotheses', 'hypothesis'],
    ['movies', 'movie'],
    ['ties', 'tie'],
    ['schemas', 'schema'],
    ['ratios', 'ratio'],
    // singular words that end in s stay as they are
    ['status', 'status'],
    ['analysis', 'analysis'],
    ['bus', 'bus'],
    ['class', 'class'],
    ['address', 'address'],
    ['series', 'series'],
    ['species', 'species'],
    ['alias', 'alias'],
    ['bias', 'bias'],
    ['atlas', 'atlas'],
    ['corpus', 'corpus'],
    ['physics', 'physics'],
    ['customs', 'customs'],
    ['gas', 'gas'],
    ['its', 'its'],
    // not plain lower-case words: untouched
    ['POMDPs', 'POMDPs'],
    ['v2s', 'v2s'],
  ])('%s → %s', (word, singular) => {
    expect(singularize(word)).toBe(singular);
  });
});

describe('normalizeEntityName', () => {
  it.each([
    // punctuation, case, whitespace
    ['Concept', 'Rate-Limit', 'rate limit'],
    ['Concept', 'rate limit', 'rate limit'],
    ['Concept', 'rate_limit', 'rate limit'],
    ['Concept', '  RATE   LIMITS ', 'rate limit'],
    ['Concept', 'Gauss–Seidel', 'gauss seidel'],
    // plurals, per word
    ['Concept', 'Return Policies', 'return policy'],
    ['Concept', 'Shipping Addresses', 'shipping address'],
    ['Concept', 'Order Status', 'order status'],
    ['Concept', 'Sensitivity Analysis', 'sensitivity analysis'],
    ['Concept', 'Aerothermal Methods Group', 'aerothermal method group'],
    // leading articles, apostrophes, NFKC
    ['Concept', 'The Northwind Freight', 'northwind freight'],
    ['Concept', 'a particle filter', 'particle filter'],
    ['Concept', 'The', 'the'],
    ['Concept', "Northwind's", 'northwind'],
    ['Concept', 'ﬁlter', 'filter'],
    ['Concept', 'ＡＰＩ Keys', 'api key'],
    // code types keep a dot as a separator of its own
    ['Identifier', 'carrier.suspended', 'carrier.suspended'],
    ['Identifier', 'CARRIER_SUSPENDED', 'carrier suspended'],
    ['ErrorCode', 'rate_limit_exceeded', 'rate limit exceeded'],
    ['Identifier', 'details[].field', 'detail.field'],
    ['Field', 'Location.parent_location', 'location.parent location'],
    ['Identifier', 'Retry-After', 'retry after'],
    // endpoints: method upper case, parameters and versions reduced
    ['Endpoint', 'POST /locations/{locationId}', 'POST /locations/{}'],
    ['Endpoint', 'post /locations/{id}', 'POST /locations/{}'],
    ['Endpoint', 'DELETE /locations/:id', 'DELETE /locations/{}'],
    ['Endpoint', 'GET /v2/shipments/{shipmentId}/events?limit=10', 'GET /shipments/{}/events'],
    ['Endpoint', 'GET /Shipments/', 'GET /shipments'],
    ['Endpoint', '/v2/locations', '/locations'],
    ['Endpoint', 'GET /v2', 'GET /v2'],
    // numbered types are their number
    ['Algorithm', 'Algorithm 3.2', '3.2'],
    ['Algorithm', 'Algorithm A.1', 'A.1'],
    ['Formula', 'Equation 7.5', '7.5'],
    ['Table', 'Table 19.1.', '19.1'],
    ['Figure', '9.3', '9.3'],
    ['Chapter', 'Chapter 7', '7'],
    ['Appendix', 'Appendix A', 'A'],
    ['Algorithm', 'value iteration', 'value iteration'],
    // acronyms: letters and digits, upper case, plural dropped
    ['Acronym', 'POMDPs', 'POMDP'],
    ['Acronym', 'pomdp', 'POMDP'],
    ['Acronym', 'R-MAX', 'RMAX'],
    ['Acronym', 'U.S.', 'US'],
    ['Acronym', 'UCB1', 'UCB1'],
    ['Acronym', 'SEV1', 'SEV1'],
  ])('%s %j → %j', (type, name, key) => {
    expect(normalizeEntityName(type, name)).toBe(key);
  });

  it('keeps versions of different things apart', () => {
    expect(normalizeEntityName('Acronym', 'SEV1')).not.toBe(normalizeEntityName('Acronym', 'SEV2'));
    expect(normalizeEntityName('Endpoint', 'GET /locations')).not.toBe(
      normalizeEntityName('Endpoint', 'POST /locations'),
    );
    expect(normalizeEntityName('Endpoint', 'GET /locations')).not.toBe(
      normalizeEntityName('Endpoint', 'GET /location'),
    );
  });

  it('prefixes the key with the type', () => {
    expect(entityKey('Endpoint', 'post /locations/{id}')).toBe('Endpoint:POST /locations/{}');
    expect(entityKey('Concept', 'Rate-Limits')).toBe('Concept:rate limit');
    expect(entityKey('Acronym', 'LES')).not.toBe(entityKey('Concept', 'LES'));
  });
});

describe('mergeFacts', () => {
  it('merges same-key entities: mentions unioned and sorted, the most used spelling wins', () => {
    const declared: DocumentFacts = {
      entities: [
        { ...entity('Concept', 'Rate Limit', [40, 50]), properties: { source: '', plan: 'growth' } },
      ],
      relations: [],
    };
    const extracted: DocumentFacts = {
      entities: [
        {
          ...entity('Concept', 'rate-limits', [0, 11], [40, 50]),
          properties: { source: 'docs', plan: 'starter' },
        },
        { ...entity('Concept', 'rate_limit', [20, 30]), aliases: ['throttle'] },
        entity('Concept', 'rate-limits', [60, 71]),
      ],
      relations: [],
    };
    expect(mergeFacts([declared, extracted])).toEqual({
      entities: [
        {
          type: 'Concept',
          name: 'rate-limits',
          aliases: ['Rate Limit', 'rate_limit', 'throttle'],
          properties: { source: 'docs', plan: 'growth' },
          mentions: [
            { start: 0, end: 11 },
            { start: 20, end: 30 },
            { start: 40, end: 50 },
            { start: 60, end: 71 },
          ],
        },
      ],
      relations: [],
    });
  });

  it('keeps entities of different types apart even when their names match', () => {
    const merged = mergeFacts([
      {
        entities: [entity('Schema', 'Location', [0, 8]), entity('Resource', 'location', [10, 18])],
        relations: [],
      },
    ]);
    expect(merged.entities.map(({ type, name }) => `${type}:${name}`)).toEqual([
      'Schema:Location',
      'Resource:location',
    ]);
  });

  it('maps declared alias spellings onto the canonical entity, across Concept and the canonical type', () => {
    const merged = mergeFacts(
      [
        {
          entities: [
            entity('Concept', 'Large Eddy Simulation', [0, 21]),
            entity('Acronym', 'LES', [23, 26]),
            entity('Concept', 'large-eddy simulations', [40, 62]),
          ],
          relations: [],
        },
      ],
      { LES: ['large eddy simulation'] },
    );
    expect(merged.entities).toEqual([
      {
        type: 'Acronym',
        name: 'LES',
        aliases: ['Large Eddy Simulation', 'large eddy simulation', 'large-eddy simulations'],
        mentions: [
          { start: 0, end: 21 },
          { start: 23, end: 26 },
          { start: 40, end: 62 },
        ],
      },
    ]);
  });

  it('uses aliases carried on entities, keeps the definition and prefers the canonical spelling', () => {
    const merged = mergeFacts([
      {
        entities: [
          entity('Concept', 'partially observable Markov decision process', [0, 44], [100, 144], [200, 244]),
          {
            ...entity('Acronym', 'POMDP', [46, 51]),
            aliases: ['partially observable Markov decision process'],
            definition: { start: 0, end: 52 },
          },
        ],
        relations: [],
      },
    ]);
    expect(merged.entities).toHaveLength(1);
    expect(merged.entities[0]).toMatchObject({
      type: 'Acronym',
      name: 'POMDP',
      aliases: ['partially observable Markov decision process'],
      definition: { start: 0, end: 52 },
    });
    expect(merged.entities[0]!.mentions).toHaveLength(4);
  });

  it('keeps the specific type when a Concept and an Acronym alias each other', () => {
    const merged = mergeFacts([
      {
        entities: [
          { ...entity('Concept', 'Large Eddy Simulation', [0, 21]), aliases: ['LES'] },
          { ...entity('Acronym', 'LES', [23, 26]), aliases: ['Large Eddy Simulation'] },
        ],
        relations: [],
      },
    ]);
    expect(merged.entities).toEqual([
      {
        type: 'Acronym',
        name: 'LES',
        aliases: ['Large Eddy Simulation'],
        mentions: [
          { start: 0, end: 21 },
          { start: 23, end: 26 },
        ],
      },
    ]);
  });

  it('does not let an alias pull in an entity of another specific type', () => {
    const merged = mergeFacts([
      {
        entities: [
          { ...entity('Acronym', 'LES', [0, 3]), aliases: ['large eddy simulation'] },
          entity('Schema', 'LargeEddySimulation', [5, 24]),
          entity('Identifier', 'large_eddy_simulation', [30, 51]),
        ],
        relations: [],
      },
    ]);
    expect(merged.entities.map(({ type }) => type)).toEqual(['Acronym', 'Schema', 'Identifier']);
  });

  it('re-points relations at merged entities, sums weights and drops self-relations', () => {
    const facts: DocumentFacts = {
      entities: [
        entity('Acronym', 'LES', [0, 3]),
        entity('Acronym', 'RANS', [10, 14]),
        entity('Acronym', 'LESs', [20, 24]),
        entity('Concept', 'Aerothermal Methods Group', [30, 55]),
      ],
      relations: [
        {
          from: { type: 'Acronym', name: 'LES' },
          to: { type: 'Acronym', name: 'RANS' },
          type: 'RELATED',
          weight: 2,
        },
        // the same pair written the other way round and with another spelling: RELATED is symmetric
        { from: { type: 'Acronym', name: 'RANS' }, to: { type: 'Acronym', name: 'LESs' }, type: 'RELATED' },
        // a directed type keeps its direction
        {
          from: { type: 'Acronym', name: 'LES' },
          to: { type: 'Acronym', name: 'RANS' },
          type: 'DERIVED_FROM',
        },
        {
          from: { type: 'Acronym', name: 'RANS' },
          to: { type: 'Acronym', name: 'LES' },
          type: 'DERIVED_FROM',
        },
        // LES and LESs are one entity now
        {
          from: { type: 'Acronym', name: 'LES' },
          to: { type: 'Acronym', name: 'LESs' },
          type: 'RELATED',
          weight: 5,
        },
        {
          from: { type: 'Concept', name: 'aerothermal methods groups' },
          to: { type: 'Acronym', name: 'les' },
          type: 'RELATED',
          weight: 1,
          properties: { note: 'x' },
        },
      ],
    };
    const merged = mergeFacts([facts]);
    expect(merged.entities.map(({ name }) => name)).toEqual(['LES', 'RANS', 'Aerothermal Methods Group']);
    expect(merged.relations).toEqual([
      {
        from: { type: 'Acronym', name: 'LES' },
        to: { type: 'Acronym', name: 'RANS' },
        type: 'RELATED',
        weight: 3,
      },
      {
        from: { type: 'Acronym', name: 'LES' },
        to: { type: 'Acronym', name: 'RANS' },
        type: 'DERIVED_FROM',
        weight: 1,
      },
      {
        from: { type: 'Acronym', name: 'RANS' },
        to: { type: 'Acronym', name: 'LES' },
        type: 'DERIVED_FROM',
        weight: 1,
      },
      {
        from: { type: 'Acronym', name: 'LES' },
        to: { type: 'Concept', name: 'Aerothermal Methods Group' },
        type: 'RELATED',
        weight: 1,
        properties: { note: 'x' },
      },
    ]);
  });

  it('resolves a relation that names an entity only by an alias spelling', () => {
    const merged = mergeFacts([
      {
        entities: [
          { ...entity('Acronym', 'MDP', [0, 3]), aliases: ['Markov decision process'] },
          entity('Concept', 'value iteration', [10, 25]),
        ],
        relations: [
          {
            from: { type: 'Concept', name: 'value iteration' },
            to: { type: 'Concept', name: 'Markov decision processes' },
            type: 'RELATED',
          },
        ],
      },
    ]);
    expect(merged.relations).toEqual([
      {
        from: { type: 'Acronym', name: 'MDP' },
        to: { type: 'Concept', name: 'value iteration' },
        type: 'RELATED',
        weight: 1,
      },
    ]);
  });

  it('returns empty facts for no input', () => {
    expect(mergeFacts([])).toEqual({ entities: [], relations: [] });
  });
});
