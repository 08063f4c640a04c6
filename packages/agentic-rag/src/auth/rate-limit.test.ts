import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { createRateLimiter } from './rate-limit.js';

function manualClock() {
  let now = 1_000;
  return { now: () => now, advance: (milliseconds: number) => (now += milliseconds) };
}

async function takeMany(limiter: ReturnType<typeof createRateLimiter>, keyId: string, count: number) {
  const decisions = [];
  for (let call = 0; call < count; call++) decisions.push(await limiter.take(keyId));
  return decisions;
}

describe('memory rate limiter (token bucket)', () => {
  it('allows a burst, refuses the next request, and allows again after refill', async () => {
    const clock = manualClock();
    const limiter = createRateLimiter({ perSecond: 2, burst: 5, now: clock.now });
    const burst = await takeMany(limiter, 'k1', 5);
    expect(burst.every((decision) => decision.allowed && decision.retryAfterSeconds === 0)).toBe(true);
    expect(await limiter.take('k1')).toEqual({ allowed: false, retryAfterSeconds: 1 });

    clock.advance(499);
    expect((await limiter.take('k1')).allowed).toBe(false);
    clock.advance(1); // 500 ms at 2 per second: one token
    expect(await limiter.take('k1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect((await limiter.take('k1')).allowed).toBe(false);
  });

  it('keeps one bucket per key', async () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, now: manualClock().now });
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
  });

  it('refills no further than the burst', async () => {
    const clock = manualClock();
    const limiter = createRateLimiter({ perSecond: 10, burst: 3, now: clock.now });
    await takeMany(limiter, 'k', 3);
    clock.advance(60_000);
    const decisions = await takeMany(limiter, 'k', 4);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
  });

  it.each([
    [0.1, 10],
    [0.5, 2],
    [1, 1],
    [50, 1],
  ])('at %s per second says to come back in %s s', async (perSecond, seconds) => {
    const limiter = createRateLimiter({ perSecond, burst: 1, now: manualClock().now });
    await limiter.take('k');
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: seconds });
  });

  it('does not limit at all when perSecond is 0', async () => {
    const limiter = createRateLimiter({ perSecond: 0, burst: 1, redisUrl: 'redis://127.0.0.1:1' });
    const decisions = await takeMany(limiter, 'k', 100);
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    await limiter.close();
  });

  it.each([
    { perSecond: -1, burst: 1 },
    { perSecond: Number.NaN, burst: 1 },
    { perSecond: 1, burst: 0 },
  ])('refuses %j as configuration', (options) => {
    expect(() => createRateLimiter(options)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_CONFIG }),
    );
  });
});
