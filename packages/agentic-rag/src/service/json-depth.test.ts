import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('nestsDeeperThan', () => {
  it('counts arrays and objects alike, up to the limit and past it', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(`${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}`)).toBe(true);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ q: '[[[[[[[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ q: 'say \\"[[[[" and "{{{{"' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ q: '\\' }) + '[[', 1)).toBe(true);
  });

  it('measures siblings by their own depth, not their sum', () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 500 }, () => [[1]])), 3)).toBe(false);
  });
});
