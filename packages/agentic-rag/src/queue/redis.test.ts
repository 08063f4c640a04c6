import { describe, expect, it } from 'vitest';
import { ingestMode, loadConfig } from '../config/index.js';
import { queuePrefix, queueTarget } from './redis.js';

const CLUSTER = '10.0.0.1:7000,10.0.0.2:7000';

describe('where the job queue lives', () => {
  it.each([
    [{}, undefined, null],
    [{ REDIS_URL: 'redis://queue:6379' }, undefined, { url: 'redis://queue:6379' }],
    [{ REDIS_CLUSTER_NODES: CLUSTER }, undefined, { clusterNodes: ['10.0.0.1:7000', '10.0.0.2:7000'] }],
    // The Cluster replaces REDIS_URL's single server for the queue (REDIS_URL may still serve the cache).
    [
      { REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: CLUSTER },
      undefined,
      { clusterNodes: ['10.0.0.1:7000', '10.0.0.2:7000'] },
    ],
    // An explicit URL (tests, benches) wins over both.
    [{ REDIS_CLUSTER_NODES: CLUSTER }, 'redis://127.0.0.1:6390', { url: 'redis://127.0.0.1:6390' }],
  ])('%j with url %s is %j', (env, url, expected) => {
    expect(queueTarget(loadConfig(env), url)).toEqual(expected);
  });

  it.each([
    [{ url: 'redis://queue:6379' }, 'bull'],
    [{ clusterNodes: ['10.0.0.1:7000'] }, '{ingest}'],
  ])('keys of %j are prefixed %s', (target, prefix) => {
    expect(queuePrefix(target, 'ingest')).toBe(prefix);
  });

  it.each([
    [{}, 'inline'],
    [{ REDIS_URL: 'redis://queue:6379' }, 'queue'],
    [{ REDIS_CLUSTER_NODES: CLUSTER }, 'queue'],
  ])('AGENTIC_RAG_INGEST_MODE=auto with %j ingests %s', (env, mode) => {
    expect(ingestMode(loadConfig(env))).toBe(mode);
  });
});
