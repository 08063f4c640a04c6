import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { Config } from '../config/index.js';

export interface TracingOptions {
  config: Config;
  /** Used when OTEL_SERVICE_NAME is unset: each process names itself (agentic-rag-api, -worker). */
  serviceName: string;
  /** Replaces the exporter OTEL_TRACES_EXPORTER names: tests read spans from an in-memory one. */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Where spans go: `otlp`, `console`, `none` (no SDK started), or `custom` (an injected exporter). */
  exporter: 'otlp' | 'console' | 'none' | 'custom';
  /** Exports every finished span now. */
  flush(): Promise<void>;
  /** Flushes and stops; spans started afterwards are not recorded. */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry NodeSDK for this process, so the spans the core opens through
 * `@opentelemetry/api` (ragAnswer, its stages, queue jobs) are recorded and exported. It also
 * installs the W3C trace-context propagator that carries a trace from an HTTP request into a
 * job's payload and on into the worker. With no exporter (the default) no SDK is started and
 * every span stays a no-op.
 */
export function startTracing(options: TracingOptions): Tracing {
  const { config } = options;
  const kind = options.exporter ? 'custom' : tracesExporter(config);
  if (kind === 'none') return { exporter: kind, flush: async () => {}, shutdown: async () => {} };
  const exporter =
    options.exporter ?? (kind === 'console' ? new ConsoleSpanExporter() : otlpExporter(config));
  const processor = new BatchSpanProcessor({ exporter });
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME ?? options.serviceName,
    spanProcessors: [processor],
    // Spans are ours alone: auto-instrumenting http, pg and ioredis would multiply them by ten.
    instrumentations: [],
  });
  sdk.start();
  return { exporter: kind, flush: () => processor.forceFlush(), shutdown: () => sdk.shutdown() };
}

/** The OTel default is otlp; here an endpoint has to be given first, so a bare start exports nothing. */
function tracesExporter(config: Config): 'otlp' | 'console' | 'none' {
  return config.OTEL_TRACES_EXPORTER ?? (config.OTEL_EXPORTER_OTLP_ENDPOINT ? 'otlp' : 'none');
}

/** OTLP over HTTP/protobuf; the endpoint is the collector's base URL, as in the OTel spec. */
function otlpExporter(config: Config): OTLPTraceExporter {
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  return new OTLPTraceExporter({
    url: `${base.replace(/\/+$/, '')}/v1/traces`,
    headers: config.OTEL_EXPORTER_OTLP_HEADERS,
  });
}
