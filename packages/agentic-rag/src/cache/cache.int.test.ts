import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import type { AnswerCache, AnswerKey } from './answer-cache.js';
import { PostgresAnswerCache } from './postgres.js';
import { RedisAnswerCache } from './redis.js';

/** One behaviour for both caches: Postgres always (PGlite too), Redis whenever REDIS_URL is set. */
function cacheContract(name: string, open: () => Promise<{ cache: AnswerCache; dispose(): Promise<void> }>) {
  describe(`AnswerCache contract: ${name}`, () => {
    let cache: AnswerCache;
    let dispose: () => Promise<void>;
    const ws = uniqueWorkspace('cache');
    const key = (overrides: Partial<AnswerKey> = {}): AnswerKey => ({
      workspaceId: ws,
      corpusVersion: 3,
      query: 'How do I create a location?',
      options: { topK: 8, filters: {} },
      ...overrides,
    });

    beforeAll(async () => {
      ({ cache, dispose } = await open());
    });
    afterAll(async () => {
      await dispose();
    });

    it('returns what was stored for the same question, however it is spaced or cased', async () => {
      await cache.set(key(), { answer: 'POST /locations [1].' }, 60);
      expect(await cache.get(key())).toEqual({ answer: 'POST /locations [1].' });
      expect(await cache.get(key({ query: '  how do I CREATE a location? ' }))).toEqual({
        answer: 'POST /locations [1].',
      });
    });

    it('never serves across workspaces, corpus versions or options', async () => {
      await cache.set(key(), { answer: 'mine' }, 60);
      expect(await cache.get(key({ workspaceId: `${ws}-other` }))).toBeNull();
      expect(await cache.get(key({ corpusVersion: 4 }))).toBeNull();
      expect(await cache.get(key({ options: { topK: 3, filters: {} } }))).toBeNull();
      expect(await cache.get(key({ options: { filters: {}, topK: 8 } }))).toEqual({ answer: 'mine' });
    });

    it('forgets an entry after its time to live', async () => {
      await cache.set(key({ query: 'short-lived' }), { answer: 'soon gone' }, 1);
      expect(await cache.get(key({ query: 'short-lived' }))).toEqual({ answer: 'soon gone' });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await cache.get(key({ query: 'short-lived' }))).toBeNull();
    });
  });
}

for (const backend of testBackends()) {
  cacheContract(`postgres (${backend.name})`, async () => {
    const sql: Sql = await backend.open();
    return {
      cache: new PostgresAnswerCache(sql),
      dispose: async () => {
        await sql.query("DELETE FROM rag_cache_entries WHERE workspace_id LIKE 'cache-%'");
        await sql.close();
      },
    };
  });
}

const redisUrl = process.env.REDIS_URL;
describe.runIf(redisUrl)('redis', () => {
  cacheContract('redis', async () => {
    const cache = new RedisAnswerCache(redisUrl!);
    return { cache, dispose: () => cache.close() };
  });
});
