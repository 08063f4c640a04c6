import { describe, expect, it } from 'vitest';
import { identifierParts, stem, STOPWORDS, wordsOf } from './text-features.js';

describe('stem', () => {
  it.each([
    ['locations', 'location'],
    ['location', 'location'],
    ['carriers', 'carrier'],
    ['queries', 'query'],
    ['policies', 'policy'],
    ['classes', 'class'],
    ['boxes', 'box'],
    ['matches', 'match'],
    ['wishes', 'wish'],
    ['mapped', 'map'],
    ['stopped', 'stop'],
    ['modelling', 'model'],
    ['running', 'run'],
    ['shipping', 'ship'],
    ['updating', 'updat'],
    ['updated', 'updat'],
    ['update', 'updat'],
    ['creates', 'creat'],
    ['created', 'creat'],
    ['services', 'servic'],
    ['location', 'location'],
  ])('stems %j to %j', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it.each([
    ['status'],
    ['analysis'],
    ['address'],
    ['bus'],
    ['is'],
    ['was'],
    ['red'],
    ['used'],
    ['sing'],
    ['going'],
    ['v2'],
    ['2024s'],
  ])('leaves %j alone (short, numeric, or not an inflection)', (word) => {
    expect(stem(word)).toBe(word);
  });

  it.each([
    ['updating', 'update'],
    ['updated', 'update'],
    ['creating', 'create'],
  ])('stems %j and %j to the same stem', (inflected, base) => {
    expect(stem(inflected)).toBe(stem(base));
  });
});

describe('wordsOf', () => {
  it.each([
    ['POST /locations', ['post', 'locations']],
    ['Café naïve RÉSUMÉ', ['cafe', 'naive', 'resume']],
    ['create_location kebab-case', ['create', 'location', 'kebab', 'case']],
    ['v2.4.1 costs 3.14 USD', ['v', '2.4.1', 'costs', '3.14', 'usd']],
    ['HTTP2 over TLS1.3', ['http', '2', 'over', 'tls', '1.3']],
    ['!!! ... ???', []],
    ['', []],
  ])('splits %j into %j', (text, words) => {
    expect(wordsOf(text)).toEqual(words);
  });

  it('only splits camelCase after identifierParts (wordsOf lower-cases first)', () => {
    expect(wordsOf('createLocation')).toEqual(['createlocation']);
    expect(wordsOf(identifierParts('createLocation'))).toEqual(['create', 'location']);
  });
});

describe('identifierParts', () => {
  it.each([
    ['createLocation', 'create Location'],
    ['getShipmentById', 'get Shipment By Id'],
    ['XMLHttpRequest', 'XMLHttp Request'],
    ['snake_case__name', 'snake case name'],
    ['kebab-case', 'kebab case'],
    ['plain words', 'plain words'],
  ])('%j -> %j', (text, expected) => {
    expect(identifierParts(text)).toBe(expected);
  });
});

describe('STOPWORDS', () => {
  it.each(['a', 'the', 'and', 'of', 'to', 'is', 'not', 'no', 'with', 'your'])('contains %j', (word) => {
    expect(STOPWORDS.has(word)).toBe(true);
  });

  it.each(['location', 'post', 'get', 'delete', 'api', 'carrier', 'rate', 'update'])(
    'does not contain the domain word %j',
    (word) => {
      expect(STOPWORDS.has(word)).toBe(false);
    },
  );

  it('holds lower-case single words only', () => {
    expect(STOPWORDS.size).toBe(118);
    expect([...STOPWORDS].every((word) => /^[a-z]+$/.test(word))).toBe(true);
  });
});
