import { createServer, type ServerResponse } from 'node:http';
import { metricsRegistry } from '@agentic-rag/core';
import { listen } from '@agentic-rag/core/runtime';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's only HTTP surface: `GET /metrics` for Prometheus (with METRICS_TOKEN or an admin
 * key, like the API's) and `GET /healthz`, which answers 503 once the worker is shutting down. Port 0 picks a free port (the `worker-ready`
 * log line says which), so several workers can share a host.
 */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  /** False once SIGTERM arrived: the worker takes no more jobs. */
  running: () => boolean;
  /** Whether an Authorization header may read the metrics. */
  entitled: (authorization: string | undefined) => Promise<boolean>;
}): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const key = `${request.method ?? 'GET'} ${new URL(request.url ?? '/', 'http://localhost').pathname}`;
    if (key === 'GET /metrics') {
      options
        .entitled(request.headers.authorization)
        .then(async (entitled) => {
          if (!entitled) {
            response.setHeader('www-authenticate', 'Bearer');
            json(response, 401, {
              detail: 'metrics need METRICS_TOKEN or an admin API key: send Authorization: Bearer <token>',
              status_code: 401,
              error_code: 'UNAUTHENTICATED',
              timestamp: new Date().toISOString(),
            });
            return;
          }
          return metricsRegistry.metrics().then((body) => {
            response.writeHead(200, { 'content-type': metricsRegistry.contentType });
            response.end(body);
          });
        })
        .catch(() => json(response, 500, { status: 'error' }));
      return;
    }
    if (key === 'GET /healthz') {
      const running = options.running();
      json(response, running ? 200 : 503, { status: running ? 'ok' : 'stopped' });
      return;
    }
    json(response, 404, {
      detail: `no route for ${key}`,
      status_code: 404,
      error_code: 'NOT_FOUND',
      timestamp: new Date().toISOString(),
    });
  });
  const { port } = await listen(server, {
    port: options.port,
    host: options.host,
    what: 'metrics port',
    variable: 'AGENTIC_RAG_WORKER_METRICS_PORT; 0 picks a free one',
  });
  return {
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
