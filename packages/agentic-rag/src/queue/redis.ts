import { Redis } from 'ioredis';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Logger } from '../telemetry/index.js';

/** BullMQ needs commands to wait for a reconnect rather than fail: no per-request retry limit. */
export function queueConnection(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  redis.on('error', () => {});
  return redis;
}

/**
 * A queue's Redis must never evict keys: an evicted job or lock is work silently lost. Checked at
 * start; a server that refuses CONFIG (managed Redis) is warned about, not trusted.
 */
export async function assertNoEviction(redis: Redis, logger: Logger): Promise<void> {
  let policy: string | undefined;
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    policy = reply[1];
  } catch (error) {
    logger.warn('cannot read maxmemory-policy; make sure it is noeviction', {
      event: 'redis-policy-unknown',
      error: error instanceof Error ? error : new Error(String(error)),
    });
    return;
  }
  if (policy !== 'noeviction') {
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      `the queue's Redis has maxmemory-policy ${policy}; BullMQ needs noeviction (CONFIG SET maxmemory-policy noeviction), and the answer cache can use its own Redis (CACHE_REDIS_URL)`,
    );
  }
}
