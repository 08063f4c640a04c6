import { describe, expect, it } from 'vitest';
import { isTypoOf } from './spelling.js';

describe('isTypoOf', () => {
  // Left: the query's stemmed word; right: a lexeme of the workspace.
  it.each([
    ['pomp', 'pomdp', true], // one letter dropped
    ['shipmnet', 'shipment', true], // neighbours swapped
    ['webhok', 'webhook', true],
    ['dimenson', 'dimension', true], // "dimensonal" as Postgres stems it
    ['comision', 'commiss', false], // three edits: too far even for a long word
    ['capit', 'cap', false], // "capital" is a word, not a misspelt "cap"
    ['smagorinski', 'smooth', false],
    ['rout', 'route', true],
  ])('%s → %s: %s', (word, lexeme, expected) => {
    expect(isTypoOf(word, lexeme)).toBe(expected);
  });
});
