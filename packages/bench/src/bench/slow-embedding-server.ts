import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeterministicEmbedder } from '@agentic-rag/core';

export interface SlowEmbeddingServer {
  /** `http://127.0.0.1:<port>/v1` */
  url: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible `/v1/embeddings` server on loopback that answers every request after
 * `latencyMs`, with the deterministic embedder's vectors: what a remote embedding model costs
 * per call, for benchmarks, without a model.
 */
export async function startSlowEmbeddingServer(options: {
  latencyMs: number;
  dimensions: number;
}): Promise<SlowEmbeddingServer> {
  const embedder = new DeterministicEmbedder({ dimensions: options.dimensions });
  let requests = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      requests++;
      const body = JSON.parse(raw) as { input: string[] | string; model: string };
      const texts = Array.isArray(body.input) ? body.input : [body.input];
      setTimeout(() => {
        void embedder.embed({ texts, purpose: 'document' }).then(({ embeddings }) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              object: 'list',
              model: body.model,
              data: embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding })),
              usage: { prompt_tokens: 0, total_tokens: 0 },
            }),
          );
        });
      }, options.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
