import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheKey, normalizeQuery, type AnswerKey } from './answer-cache.js';

const base: AnswerKey = {
  workspaceId: 'ws-northwind',
  corpusVersion: 7,
  query: 'Which endpoint creates a location?',
  options: { topK: 8, useHyde: false, useTools: true, filters: { sourceType: 'openapi', tags: ['api'] } },
};
const tail = (key: string) => key.slice(-64);

describe('normalizeQuery', () => {
  it.each([
    ['Which endpoint creates a location?', 'which endpoint creates a location?'],
    ['  Which   ENDPOINT\tcreates\na location?  ', 'which endpoint creates a location?'],
    ['ＰＯＳＴ /locations', 'post /locations'],
    ['What does the ﬁle loader do?', 'what does the file loader do?'],
    ['', ''],
  ])('normalises %j to %j', (query, expected) => {
    expect(normalizeQuery(query)).toBe(expected);
  });
});

describe('cacheKey', () => {
  it('is the workspace, the corpus version and the sha256 of the query and options', () => {
    const digest = createHash('sha256')
      .update(
        '{"options":{"filters":{"sourceType":"openapi","tags":["api"]},"topK":8,"useHyde":false,"useTools":true},' +
          '"query":"which endpoint creates a location?"}',
      )
      .digest('hex');
    expect(cacheKey(base)).toBe(`rag:answer:ws-northwind:7:${digest}`);
  });

  it('differs per workspace and per corpus version, for the same question', () => {
    const keys = [
      cacheKey(base),
      cacheKey({ ...base, workspaceId: 'ws-other' }),
      cacheKey({ ...base, corpusVersion: 8 }),
    ];
    expect(new Set(keys).size).toBe(3);
    expect(keys[1]).toMatch(/^rag:answer:ws-other:7:[0-9a-f]{64}$/);
    expect(keys[2]).toMatch(/^rag:answer:ws-northwind:8:[0-9a-f]{64}$/);
    // Only the readable prefix tells them apart.
    expect(new Set(keys.map(tail)).size).toBe(1);
  });

  it('is stable under the order of option keys, nested ones included', () => {
    const reordered: AnswerKey = {
      ...base,
      options: { filters: { tags: ['api'], sourceType: 'openapi' }, useTools: true, useHyde: false, topK: 8 },
    };
    expect(cacheKey(reordered)).toBe(cacheKey(base));
  });

  it('is stable under the case and spacing of the query', () => {
    expect(cacheKey({ ...base, query: '  which ENDPOINT   creates\ta Location?\n' })).toBe(cacheKey(base));
  });

  it('treats an option left undefined as an option not given', () => {
    const options = { topK: 8, useHyde: false, useTools: true, filters: undefined };
    expect(cacheKey({ ...base, options })).toBe(
      cacheKey({ ...base, options: { topK: 8, useHyde: false, useTools: true } }),
    );
  });

  it.each<[string, Partial<AnswerKey>]>([
    ['another question', { query: 'Which endpoint deletes a location?' }],
    ['another topK', { options: { ...base.options, topK: 9 } }],
    ['HyDE on', { options: { ...base.options, useHyde: true } }],
    ['another filter', { options: { ...base.options, filters: { sourceType: 'markdown', tags: ['api'] } } }],
    ['no filter tags', { options: { ...base.options, filters: { sourceType: 'openapi', tags: [] } } }],
    ['a string instead of a number', { options: { ...base.options, topK: '8' } }],
  ])('differs for %s', (_, change) => {
    expect(cacheKey({ ...base, ...change })).not.toBe(cacheKey(base));
  });
});
