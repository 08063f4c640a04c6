import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { ErrorCode, RagError } from '../errors/index.js';

/** A token bucket per API key: `burst` requests at once, refilled at `perSecond` per second. */
export interface RateLimiter {
  /** Spends one token of the key's bucket; refused calls spend nothing. */
  take(keyId: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** 0 when allowed; otherwise whole seconds until a token is back (at least 1). */
  retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  /** Tokens added per second; 0 turns limiting off. */
  perSecond: number;
  /** Bucket capacity: how many requests may arrive at once after a quiet spell. */
  burst: number;
  /** Buckets live in this Redis, shared by every process; in this process's memory without it. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys, one hash per API key: `<prefix>:<keyId>` (a ':' is added if missing). */
  prefix?: string;
  /** Milliseconds on a monotonic clock (memory buckets only; tests move it by hand). */
  now?: () => number;
}

export const DEFAULT_RATE_LIMIT_PREFIX = 'rag:ratelimit:';

// Memory buckets kept before full ones are dropped (a full bucket is the same as no bucket).
const MAX_MEMORY_BUCKETS = 10_000;

/**
 * No library offers a true token bucket on ioredis: rate-limiter-flexible (the usual choice)
 * counts fixed windows, which let 2 x burst through across a window boundary. So this is the
 * classic token bucket as one Lua script: Redis runs a script atomically, so processes sharing
 * the Redis never double-spend a token, and the clock is Redis's own (TIME), so their clocks
 * need not agree. The hash expires once the bucket would be full again.
 * KEYS[1] bucket; ARGV[1] tokens per second; ARGV[2] capacity. Returns {allowed, retry ms}.
 */
const TAKE_TOKEN_LUA = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * 1000 / rate) + 1000)
return {allowed, retry}
`;

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { perSecond, burst } = options;
  if (!Number.isFinite(perSecond) || perSecond < 0) {
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      `rate limit perSecond must be a number >= 0, got ${perSecond}`,
    );
  }
  if (perSecond === 0) return unlimited;
  if (!Number.isFinite(burst) || burst < 1) {
    throw new RagError(ErrorCode.INVALID_CONFIG, `rate limit burst must be a number >= 1, got ${burst}`);
  }
  const prefix = options.prefix ?? DEFAULT_RATE_LIMIT_PREFIX;
  return options.redisUrl
    ? new RedisRateLimiter(options.redisUrl, perSecond, burst, prefix.endsWith(':') ? prefix : `${prefix}:`)
    : new MemoryRateLimiter(perSecond, burst, options.now ?? (() => performance.now()));
}

const unlimited: RateLimiter = {
  take: async () => ({ allowed: true, retryAfterSeconds: 0 }),
  close: async () => {},
};

function decision(allowed: boolean, retryMilliseconds: number): RateLimitDecision {
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryMilliseconds / 1000)) };
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The same bucket as the Lua script, in this process: for a single API process without Redis. */
class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  async take(keyId: string): Promise<RateLimitDecision> {
    const now = this.now();
    let bucket = this.buckets.get(keyId);
    if (!bucket) {
      if (this.buckets.size >= MAX_MEMORY_BUCKETS) this.dropFullBuckets(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(keyId, bucket);
    }
    bucket.tokens = this.level(bucket, now);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return decision(true, 0);
    }
    return decision(false, ((1 - bucket.tokens) * 1000) / this.perSecond);
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  private level(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) * this.perSecond) / 1000);
  }

  private dropFullBuckets(now: number): void {
    for (const [keyId, bucket] of this.buckets)
      if (this.level(bucket, now) >= this.burst) this.buckets.delete(keyId);
  }
}

type TokenRedis = Redis & {
  ragTakeToken(key: string, perSecond: number, burst: number): Promise<[number, number]>;
};

/** Buckets in Redis, shared by every API process (see TAKE_TOKEN_LUA). */
class RedisRateLimiter implements RateLimiter {
  private readonly redis: TokenRedis;

  constructor(
    url: string,
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly prefix: string,
  ) {
    // A request waits at most half a second on a Redis that is away, then fails (not waved through).
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 500 }) as TokenRedis;
    this.redis.on('error', () => {});
    // defineCommand sends EVALSHA and falls back to EVAL when Redis does not know the script yet.
    this.redis.defineCommand('ragTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN_LUA });
  }

  async take(keyId: string): Promise<RateLimitDecision> {
    try {
      const [allowed, retryMilliseconds] = await this.redis.ragTakeToken(
        `${this.prefix}${keyId}`,
        this.perSecond,
        this.burst,
      );
      return decision(allowed === 1, retryMilliseconds);
    } catch (error) {
      throw new RagError(
        ErrorCode.STORE_UNAVAILABLE,
        `rate limiter: Redis did not answer: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
