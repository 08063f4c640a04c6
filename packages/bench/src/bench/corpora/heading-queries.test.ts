import { describe, expect, it } from 'vitest';
import { cleanQuery, sampleHeadingQueries } from './heading-queries.js';

describe('cleanQuery', () => {
  it.each([
    ['Restoring the Dump (copy 3)', 'Restoring the Dump'],
    ['26.1.1. Restoring the Dump', 'Restoring the Dump'],
    ['json — JSON encoder and decoder¶', 'json — JSON encoder and decoder'],
    ['What is the magic SysRq key?', 'What is the magic SysRq key?'],
    ['  Command   keys:  ', 'Command keys'],
  ])('%j becomes %j', (heading, query) => {
    expect(cleanQuery(heading)).toBe(query);
  });
});

describe('sampleHeadingQueries', () => {
  const headings = [
    'SQL Dump',
    'Restoring the Dump',
    'Restoring the Dump (copy 2)',
    'Using pg_dumpall',
    'Notes',
    'Examples',
    '42',
    'Architectural Fundamentals',
  ];

  it('draws the same queries for the same seed, without generic or duplicate headings', () => {
    const first = sampleHeadingQueries(headings, 4, 7);
    expect(sampleHeadingQueries(headings, 4, 7)).toEqual(first);
    expect([...first].sort()).toEqual([
      'Architectural Fundamentals',
      'Restoring the Dump',
      'SQL Dump',
      'Using pg_dumpall',
    ]);
  });

  it('orders them differently for another seed', () => {
    const seeds = [1, 2, 3, 4, 5].map((seed) => sampleHeadingQueries(headings, 4, seed).join('|'));
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });

  it('repeats the usable headings when asked for more', () => {
    const queries = sampleHeadingQueries(headings, 10, 7);
    expect(queries).toHaveLength(10);
    expect(queries.slice(4, 8)).toEqual(queries.slice(0, 4));
  });

  it('returns nothing when no heading is usable', () => {
    expect(sampleHeadingQueries(['Notes', '1.2', ''], 5)).toEqual([]);
  });
});
