import type { Config } from './schema.js';

/**
 * Whether ingestion goes through the queue's workers or runs in the calling process, decided in
 * this one place for every caller (the runtime, the service, rag:ingest). `requested` is a
 * command's own flag (--queue, --inline).
 */
export function ingestMode(config: Config, requested?: 'inline' | 'queue'): 'inline' | 'queue' {
  const mode = requested ?? config.AGENTIC_RAG_INGEST_MODE;
  // A queue exists on REDIS_URL's server or on the Cluster of REDIS_CLUSTER_NODES.
  if (mode === 'auto')
    return config.REDIS_URL !== undefined || config.REDIS_CLUSTER_NODES !== undefined ? 'queue' : 'inline';
  return mode;
}
