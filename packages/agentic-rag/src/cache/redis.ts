import { Redis } from 'ioredis';
import { cacheKey, type AnswerCache, type AnswerKey } from './answer-cache.js';

/**
 * Answers in Redis with a TTL. Meant for its own Redis (CACHE_REDIS_URL) with an LRU eviction
 * policy: BullMQ's Redis must never evict, a cache should.
 */
export class RedisAnswerCache implements AnswerCache {
  readonly backend = 'redis' as const;
  private readonly redis: Redis;

  constructor(url: string) {
    // Commands give up after half a second while Redis is away: a cache miss beats a stall.
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 500 });
    this.redis.on('error', () => {});
  }

  async get<T>(key: AnswerKey): Promise<T | null> {
    const value = await this.redis.get(cacheKey(key));
    return value === null ? null : (JSON.parse(value) as T);
  }

  async set(key: AnswerKey, value: unknown, ttlSeconds: number): Promise<void> {
    await this.redis.set(cacheKey(key), JSON.stringify(value), 'EX', ttlSeconds);
  }

  async clear(workspaceId: string): Promise<number> {
    // Keys are `rag:answer:<workspace>:<version>:<hash>`; SCAN walks them without blocking Redis.
    let cursor = '0';
    let removed = 0;
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `rag:answer:${workspaceId}:*`,
        'COUNT',
        500,
      );
      cursor = next;
      if (keys.length > 0) removed += await this.redis.unlink(...keys);
    } while (cursor !== '0');
    return removed;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
