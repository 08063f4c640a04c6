import { describe, expect, it } from 'vitest';
import { contentStems, overlap, splitSentences, splitUnits } from './text.js';

describe('contentStems', () => {
  it.each([
    ['How do I createLocation for the rate_card services?', ['creat', 'location', 'rate', 'card', 'servic']],
    ['What is Algorithm 3.2 in the POMDP chapter?', ['algorithm', '3.2', 'pomdp', 'chapter']],
    ['Can you please tell me which carriers were suspended?', ['carrier', 'suspend']],
    ['Is there a way to list all updated shipments?', ['updat', 'shipment']],
    ['Résumé of X and y', ['resum']],
  ])('stems %j to %j', (text, expected) => {
    expect(contentStems(text)).toEqual(expected);
  });

  it('keeps repeated words (callers deduplicate)', () => {
    expect(contentStems('location locations LOCATION')).toEqual(['location', 'location', 'location']);
  });

  it('returns nothing for a question made only of question and stop words', () => {
    expect(contentStems('What is it, and why would we do that?')).toEqual([]);
  });
});

describe('splitSentences', () => {
  it.each([
    ['Creates a location. Returns its id.', ['Creates a location.', 'Returns its id.']],
    ['Is it idempotent? Yes! `PUT` replaces it.', ['Is it idempotent?', 'Yes!', '`PUT` replaces it.']],
    [
      'Section 3.2 shows value iteration. It converges.',
      ['Section 3.2 shows value iteration.', 'It converges.'],
    ],
    ['Use a short cap, e.g. the default of 3 retries.', ['Use a short cap, e.g. the default of 3 retries.']],
    [
      'Use a short cap, e.g. The Default Cap. It is 3.',
      ['Use a short cap, e.g. The Default Cap.', 'It is 3.'],
    ],
    ['We compare PPO vs. DQN here. Both learn.', ['We compare PPO vs. DQN here.', 'Both learn.']],
    ['See Fig. A for the layout. It has two docks.', ['See Fig. A for the layout.', 'It has two docks.']],
    ['The value is 0.9. (It is the default.)', ['The value is 0.9.', '(It is the default.)']],
    ['Retry later. [1] explains why.', ['Retry later.', '[1] explains why.']],
    ['lower case after a dot. stays whole', ['lower case after a dot. stays whole']],
    ['  padded sentence.   ', ['padded sentence.']],
    ['', []],
  ])('splits %j', (paragraph, expected) => {
    expect(splitSentences(paragraph)).toEqual(expected);
  });
});

describe('splitUnits', () => {
  const chunk = [
    '# Locations API',
    '',
    'Creates a location. The location name must be unique,',
    'e.g. a warehouse code.',
    '',
    '## Fields',
    '- `name`: the display name. It must be unique.',
    '* `timezone` — an IANA zone.',
    '1. Create the location first.',
    '2) Then create shipments.',
    '',
    '| field | type |',
    '|-------|------|',
    '| name  | text |',
    '',
    '$$ V(s) = \\max_a Q(s, a) $$ (3.2)',
    '',
    '$$',
    'Q(s, a) = R(s, a) + \\gamma V(s)',
    '$$',
    'After the math.',
    '',
    '```json',
    '{ "name": "Rotterdam depot" }',
    '```',
    'Trailing sentence.',
  ].join('\n');

  it('cuts Markdown into headings, items, sentences and whole code blocks, rows of tables with their header, skipping math', () => {
    expect(splitUnits(chunk)).toEqual([
      { kind: 'heading', text: 'Locations API', position: 0, block: 0 },
      { kind: 'sentence', text: 'Creates a location.', position: 1, block: 1 },
      {
        kind: 'sentence',
        text: 'The location name must be unique, e.g. a warehouse code.',
        position: 2,
        block: 1,
      },
      { kind: 'heading', text: 'Fields', position: 3, block: 2 },
      { kind: 'item', text: '`name`: the display name.', position: 4, block: 3 },
      { kind: 'item', text: 'It must be unique.', position: 5, block: 3 },
      { kind: 'item', text: '`timezone` — an IANA zone.', position: 6, block: 4 },
      { kind: 'item', text: 'Create the location first.', position: 7, block: 5 },
      { kind: 'item', text: 'Then create shipments.', position: 8, block: 6 },
      { kind: 'row', text: 'field: name; type: text', position: 9, block: 7 },
      { kind: 'sentence', text: 'After the math.', position: 10, block: 8 },
      { kind: 'code', text: '```json\n{ "name": "Rotterdam depot" }\n```', position: 11, block: 9 },
      { kind: 'sentence', text: 'Trailing sentence.', position: 12, block: 10 },
    ]);
  });

  it('keeps a list item that wraps onto the next lines whole', () => {
    const notes = [
      '- Hannah: merchants asked whether events were lost. Answer for support macro: no events were dropped; all were',
      '  delivered, some up to 47 minutes late.',
      '- Per-endpoint bulkhead (max 50 in-flight)',
      'ships Dec 16.',
      '',
      'A paragraph after the list.',
    ].join('\n');
    expect(splitUnits(notes)).toEqual([
      { kind: 'item', text: 'Hannah: merchants asked whether events were lost.', position: 0, block: 0 },
      {
        kind: 'item',
        text: 'Answer for support macro: no events were dropped; all were delivered, some up to 47 minutes late.',
        position: 1,
        block: 0,
      },
      {
        kind: 'item',
        text: 'Per-endpoint bulkhead (max 50 in-flight) ships Dec 16.',
        position: 2,
        block: 1,
      },
      { kind: 'sentence', text: 'A paragraph after the list.', position: 3, block: 2 },
    ]);
  });

  it('keeps indentation inside a code block and the rest of the text after an unclosed fence', () => {
    expect(splitUnits('Intro text here.\n```python\ndef f():\n    return 1\n')).toEqual([
      { kind: 'sentence', text: 'Intro text here.', position: 0, block: 0 },
      { kind: 'code', text: '```python\ndef f():\n    return 1', position: 1, block: 1 },
    ]);
  });

  it('skips an unclosed display-math block to the end of the chunk', () => {
    expect(splitUnits('Before.\n$$\nx = y\nstill math')).toEqual([
      { kind: 'sentence', text: 'Before.', position: 0, block: 0 },
    ]);
  });

  it('keeps a table without a header row, row by row, and skips an empty row', () => {
    expect(splitUnits('| Starter | 60 |\n|  |  |\n| Growth | 300 |')).toEqual([
      { kind: 'row', text: 'Starter | 60', position: 0, block: 0 },
      { kind: 'row', text: 'Growth | 300', position: 1, block: 1 },
    ]);
  });

  it('returns nothing for blank text', () => {
    expect(splitUnits('\n  \n\t\n')).toEqual([]);
  });
});

describe('overlap', () => {
  it.each([
    [[], [], 1],
    [['a'], [], 0],
    [['a', 'b'], ['a', 'b'], 1],
    [['a', 'b'], ['b', 'c'], 1 / 3],
    [['a', 'b', 'c', 'd'], ['a', 'b', 'c'], 3 / 4],
    [['x'], ['y'], 0],
  ])('of %j and %j is %d', (left, right, expected) => {
    expect(overlap(new Set(left), new Set(right))).toBeCloseTo(expected, 10);
  });

  it('is symmetric', () => {
    const left = new Set(['location', 'creat', 'carrier']);
    const right = new Set(['location', 'carrier', 'shipment', 'label']);
    expect(overlap(left, right)).toBe(overlap(right, left));
    expect(overlap(left, right)).toBe(0.4);
  });
});
