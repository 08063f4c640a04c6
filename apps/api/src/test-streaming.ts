import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createJsonLogger, loadConfig, type RagRuntime, type RagService } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

/** The sample API docs: locations can be created and deleted (api/openapi.yaml). */
export const NORTHWIND = fileURLToPath(
  new URL('../../../simulated_ingestion/northwind-logistics', import.meta.url),
);

// The assertions are what check each event's shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Event = { type: string; [field: string]: any };

export interface StreamingApi {
  runtime: RagRuntime;
  service: RagService;
  base: string;
  authorization: string;
  workspaces: string[];
  /** POST /answer/stream with the admin key (or `headers`' own). */
  stream: (
    body: unknown,
    init?: { headers?: Record<string, string>; signal?: AbortSignal },
  ) => Promise<Response>;
  /** A GraphQL operation on /graphql. */
  graphql: (
    query: string,
    variables?: unknown,
    headers?: Record<string, string>,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ) => Promise<{ data: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }>;
  close: () => Promise<void>;
}

/**
 * A running API on the real database (Postgres with TEST_DATABASE_URL, else PGlite) with the
 * sample API docs ingested into fresh workspaces. The answer cache is off, so two runs of one
 * question are two runs, not a run and a cache hit.
 */
export async function startStreamingApi(
  options: { env?: Record<string, string>; workspaces?: number } = {},
): Promise<StreamingApi> {
  const sql = await testBackends().at(-1)!.open();
  const config = loadConfig({
    ...process.env,
    AGENTIC_RAG_INGEST_ON_START: 'false',
    AGENTIC_RAG_INGEST_MODE: 'inline',
    AGENTIC_RAG_CACHE: 'false',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
  const runtime = await createRuntime({ config, sql, logger });
  const workspaces = Array.from({ length: options.workspaces ?? 1 }, () => uniqueWorkspace('stream'));
  for (const workspaceId of workspaces)
    await runtime.pipeline.ingestSources({ workspaceId, sources: [NORTHWIND] });
  const { service, authorization } = await serviceWithAdmin(runtime);
  const api = await createApi(service);
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  return {
    runtime,
    service,
    base,
    authorization,
    workspaces,
    stream: (body, init = {}) =>
      fetch(`${base}/answer/stream`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          authorization,
          ...init.headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        ...(init.signal ? { signal: init.signal } : {}),
      }),
    graphql: async (query, variables, headers = {}) => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization, ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as never;
    },
    close: async () => {
      api.server.closeAllConnections();
      await new Promise((resolve) => api.server.close(resolve));
      await api.stop();
      for (const workspaceId of workspaces) await dropWorkspace(runtime.sql, workspaceId);
      await runtime.close();
      await sql.close();
    },
  };
}

/**
 * Server-Sent Events off a response body, parsed by hand (the wire format is what is under test):
 * frames end with a blank line; `event:` names it, `data:` holds JSON. `onEvent` may return true
 * to stop reading (the caller then aborts the request).
 */
export async function readSse(
  response: Response,
  onEvent: (event: Event, name: string) => boolean | void = () => {},
): Promise<Event[]> {
  const events: Event[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = frame.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const name = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? 'message';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      const event = JSON.parse(data) as Event;
      events.push(event);
      if (onEvent(event, name) === true) {
        await reader.cancel();
        return events;
      }
    }
  }
}

/** An answer without what differs between two runs of the same question (its ids). */
export function withoutRunIds<T extends { runId?: unknown; traceId?: unknown }>(answer: T) {
  const rest: Partial<T> = { ...answer };
  delete rest.runId;
  delete rest.traceId;
  return rest;
}
