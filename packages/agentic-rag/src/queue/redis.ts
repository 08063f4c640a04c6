import { Cluster, Redis } from 'ioredis';
import type { Config } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Logger } from '../telemetry/index.js';

/** Where the job queue lives: one Redis server, or a Redis Cluster known by its seed nodes. */
export type QueueTarget = { url: string } | { clusterNodes: readonly string[] };

/** A connection to either: BullMQ takes both, and both route a key's commands to its server. */
export type QueueConnection = Redis | Cluster;

/**
 * The queue's Redis for a config: an explicit URL (tests, benches) first, then the Cluster of
 * REDIS_CLUSTER_NODES (which replaces REDIS_URL's single server for the queue), then REDIS_URL;
 * null when the deployment has no queue.
 */
export function queueTarget(config: Config, url?: string): QueueTarget | null {
  if (url !== undefined) return { url };
  if (config.REDIS_CLUSTER_NODES) return { clusterNodes: config.REDIS_CLUSTER_NODES };
  if (config.REDIS_URL) return { url: config.REDIS_URL };
  return null;
}

/**
 * The keys' prefix. BullMQ's scripts touch several keys of a queue at once, which a Cluster only
 * allows within one hash slot: on a Cluster the prefix is a hash tag of the queue's name, so a
 * queue (and its dead-letter queue, same prefix) lives on one node and other queues spread over
 * the others. A single server keeps BullMQ's default, so queued jobs survive an upgrade.
 */
export function queuePrefix(target: QueueTarget, queueName: string): string {
  return 'clusterNodes' in target ? `{${queueName}}` : 'bull';
}

/** BullMQ needs commands to wait for a reconnect rather than fail: no per-request retry limit. */
export function queueConnection(target: string | { url: string }): Redis;
export function queueConnection(target: QueueTarget): QueueConnection;
export function queueConnection(target: string | QueueTarget): QueueConnection {
  const resolved = typeof target === 'string' ? { url: target } : target;
  const connection =
    'clusterNodes' in resolved
      ? new Cluster(
          resolved.clusterNodes.map((node) => {
            const separator = node.lastIndexOf(':');
            return { host: node.slice(0, separator), port: Number(node.slice(separator + 1)) };
          }),
          { enableReadyCheck: true, redisOptions: { maxRetriesPerRequest: null } },
        )
      : new Redis(resolved.url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  connection.on('error', () => {});
  return connection;
}

/**
 * A queue's Redis must never evict keys: an evicted job or lock is work silently lost. Checked at
 * start, on every master of a Cluster; a server that refuses CONFIG (managed Redis) is warned
 * about, not trusted.
 */
export async function assertNoEviction(redis: QueueConnection, logger: Logger): Promise<void> {
  let servers: Array<{ name: string; redis: Redis }>;
  if (redis instanceof Cluster) {
    // The masters are known once the slots have been read: the first command waits for that.
    await redis.cluster('INFO');
    servers = redis
      .nodes('master')
      .map((node) => ({ name: `${node.options.host}:${node.options.port}`, redis: node }));
  } else {
    servers = [{ name: '', redis }];
  }
  for (const server of servers) {
    let policy: string | undefined;
    try {
      const reply = (await server.redis.config('GET', 'maxmemory-policy')) as string[];
      policy = reply[1];
    } catch (error) {
      logger.warn('cannot read maxmemory-policy; make sure it is noeviction', {
        event: 'redis-policy-unknown',
        ...(server.name ? { node: server.name } : {}),
        error: error instanceof Error ? error : new Error(String(error)),
      });
      continue;
    }
    if (policy !== 'noeviction') {
      const where = server.name ? ` (node ${server.name})` : '';
      throw new RagError(
        ErrorCode.INVALID_CONFIG,
        `the queue's Redis${where} has maxmemory-policy ${policy}; BullMQ needs noeviction (CONFIG SET maxmemory-policy noeviction), and the answer cache can use its own Redis (CACHE_REDIS_URL)`,
      );
    }
  }
}
