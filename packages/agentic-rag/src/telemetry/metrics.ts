import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per process, served on /metrics. Metric names follow Prometheus
 * conventions (base units, `_total` counters); labels stay low-cardinality (no queries, no ids).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'agentic_rag_' });

export const stageDuration = new Histogram({
  name: 'agentic_rag_stage_duration_seconds',
  help: 'Duration of each ragAnswer stage',
  labelNames: ['stage'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const answersTotal = new Counter({
  name: 'agentic_rag_answers_total',
  help: 'ragAnswer outcomes: answered, refused, cached, failed',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const cacheLookups = new Counter({
  name: 'agentic_rag_answer_cache_lookups_total',
  help: 'Answer cache lookups by result: hit, miss, error',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
