import { describe, expect, it } from 'vitest';
import { count, relationLabel, splitEntityId, splitIdList } from './graph-names.js';
import { mentionedEntities } from './graph-search.js';

describe('mentionedEntities', () => {
  it('counts the passages that mention each entity, most first, ties by the best hit', () => {
    const hits = [
      { mentions: ['Product:zephyr widget', 'Concept:warranty'] },
      { mentions: ['Concept:warranty', 'Concept:warranty', 'Endpoint:POST /claims'] },
      { mentions: [] },
      { mentions: ['Product:zephyr widget', 'Concept:warranty', 'Schema:Claim'] },
      { mentions: ['Endpoint:POST /claims'] },
    ];
    expect(mentionedEntities(hits)).toEqual([
      { id: 'Concept:warranty', type: 'Concept', name: 'warranty', passages: 3, bestRank: 1, named: false },
      {
        id: 'Product:zephyr widget',
        type: 'Product',
        name: 'zephyr widget',
        passages: 2,
        bestRank: 1,
        named: false,
      },
      {
        id: 'Endpoint:POST /claims',
        type: 'Endpoint',
        name: 'POST /claims',
        passages: 2,
        bestRank: 2,
        named: false,
      },
      { id: 'Schema:Claim', type: 'Schema', name: 'Claim', passages: 1, bestRank: 4, named: false },
    ]);
  });

  it('puts the entities the query names first, however often the others are mentioned', () => {
    const hits = [
      { mentions: ['Schema:ApiKeyAuth', 'Resource:location'] },
      { mentions: ['Schema:ApiKeyAuth', 'Endpoint:POST /locations'] },
      { mentions: ['Schema:ApiKeyAuth'] },
    ];
    expect(mentionedEntities(hits, 'How do I create a Location?').map((entity) => entity.id)).toEqual([
      'Resource:location',
      'Endpoint:POST /locations',
      'Schema:ApiKeyAuth',
    ]);
  });

  it('finds nothing in no hits, or in hits that mention nothing', () => {
    expect(mentionedEntities([])).toEqual([]);
    expect(mentionedEntities([{ mentions: [] }])).toEqual([]);
  });
});

describe('entity and relation names', () => {
  it.each([
    ['Endpoint:POST /locations', { type: 'Endpoint', name: 'POST /locations' }],
    ['Time:12:30', { type: 'Time', name: '12:30' }],
    ['no type', { type: '', name: 'no type' }],
  ])('splits %s into type and name', (id, parts) => {
    expect(splitEntityId(id)).toEqual(parts);
  });

  it('reads relation types and counts as words', () => {
    expect(relationLabel('RESOURCE_HAS_ENDPOINT')).toBe('resource has endpoint');
    expect(count(1, 'passage')).toBe('1 passage');
    expect(count(3, 'passage')).toBe('3 passages');
    expect(count(2, 'entity', 'entities')).toBe('2 entities');
  });
});

describe('splitIdList', () => {
  it.each([
    ['Thing:nothing at all', ['Thing:nothing at all']],
    ['A:a,B:b , C:c,', ['A:a', 'B:b', 'C:c']],
    // A comma not followed by a type is part of the name.
    ['Person:Smith, J., Concept:warranty', ['Person:Smith, J.', 'Concept:warranty']],
    [' , ', []],
  ])('splits %j', (text, ids) => {
    expect(splitIdList(text)).toEqual(ids);
  });
});
