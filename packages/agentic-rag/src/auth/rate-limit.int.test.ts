import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('Redis rate limiter (token bucket in a Lua script)', () => {
  const prefix = `test:ratelimit:${randomUUID().slice(0, 8)}:`;
  const limiters: RateLimiter[] = [];
  const limiter = (perSecond: number, burst: number) => {
    const created = createRateLimiter({ perSecond, burst, redisUrl: REDIS_URL, prefix });
    limiters.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(limiters.map((created) => created.close()));
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('allows a burst, refuses the next request, and allows again after refill', async () => {
    const rateLimiter = limiter(4, 5);
    const decisions = [];
    for (let call = 0; call < 5; call++) decisions.push(await rateLimiter.take('k1'));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(await rateLimiter.take('k1')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300)); // 4 per second: one token back
    expect((await rateLimiter.take('k1')).allowed).toBe(true);
    expect((await rateLimiter.take('k1')).allowed).toBe(false);
  });

  it('shares one bucket between processes and never double-spends a token', async () => {
    // Two limiters are two connections, as two API processes would have.
    const first = limiter(1, 20);
    const second = limiter(1, 20);
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, call) => (call % 2 === 0 ? first : second).take('shared')),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
    const refused = decisions.find((decision) => !decision.allowed);
    expect(refused?.retryAfterSeconds).toBe(1);
  });

  it('says how long to wait at a slow rate, and lets the bucket expire', async () => {
    const rateLimiter = limiter(0.1, 1);
    expect((await rateLimiter.take('slow')).allowed).toBe(true);
    expect(await rateLimiter.take('slow')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    const redis = new Redis(REDIS_URL);
    const ttl = await redis.pttl(`${prefix}slow`);
    await redis.quit();
    expect(ttl).toBeGreaterThan(9_000);
    expect(ttl).toBeLessThanOrEqual(11_000);
  });

  it('fails with STORE_UNAVAILABLE, not a silent allow, when Redis is away', async () => {
    const away = createRateLimiter({ perSecond: 1, burst: 1, redisUrl: 'redis://127.0.0.1:1', prefix });
    await expect(away.take('k')).rejects.toMatchObject({ code: ErrorCode.STORE_UNAVAILABLE });
    await away.close();
  });
});
