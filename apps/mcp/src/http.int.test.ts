import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJsonLogger, loadConfig, type RagRuntime, type Sql } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createMcpHttpServer } from './http.js';
import { createToolbox } from './server.js';
import { ingestOtherWorkspace, ingestTestCorpus, SPEC } from './test-corpus.js';

// Tool results are JSON whose shape each test asserts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * The streamable-HTTP transport in-process on port 0, on the real Postgres (PGlite without
 * TEST_DATABASE_URL), driven by the SDK's own Client. This deployment allowlists five tools
 * (no rag_answer) and one workspace besides its default.
 */
describe('MCP server over streamable HTTP', () => {
  const ws = uniqueWorkspace('mcp-http');
  const served = uniqueWorkspace('mcp-served');
  const other = uniqueWorkspace('mcp-other');
  let sql: Sql;
  let runtime: RagRuntime;
  let server: Server;
  let url: URL;
  let client: Client;
  let authorization: string;

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      LOG_LEVEL: 'silent',
      AGENTIC_RAG_WORKSPACE: ws,
      AGENTIC_RAG_MCP_TOOLS: 'kb_search,kb_get_doc,graph_find_endpoints,graph_expand,get_entity',
      AGENTIC_RAG_MCP_WORKSPACES: served,
      AGENTIC_RAG_MCP_ALLOWED_ORIGINS: 'https://agent.example.com',
    });
    const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
    runtime = await createRuntime({ config, sql, logger });
    await ingestTestCorpus(runtime, ws);
    await ingestOtherWorkspace(runtime, served);
    await ingestOtherWorkspace(runtime, other);
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    server = createMcpHttpServer(createToolbox(access.service, logger), access.service, {
      allowedOrigins: config.AGENTIC_RAG_MCP_ALLOWED_ORIGINS,
      logger,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    client = new Client({ name: 'agentic-rag-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization } } }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await new Promise((resolve) => server?.close(resolve));
    for (const workspace of [ws, served, other]) await dropWorkspace(sql, workspace);
    await runtime?.close();
    await sql?.close();
  });

  it('lists only the allowlisted tools; one off the list is absent and cannot be called', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'kb_search',
      'kb_get_doc',
      'graph_find_endpoints',
      'graph_expand',
      'get_entity',
    ]);
    expect(tools.every((tool) => tool.inputSchema.type === 'object')).toBe(true);

    const refused = await call('rag_answer', { query: 'What endpoints can I use to create a location?' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe('TOOL_NOT_ALLOWED: tool "rag_answer" is not allowed');
    expect(refused.structuredContent).toEqual({
      error: { code: 'TOOL_NOT_ALLOWED', message: 'tool "rag_answer" is not allowed', retryable: false },
    });
  });

  it('searches and finds endpoints over HTTP as over stdio', async () => {
    // min_corpus_version: a client holding a write's version reads at least that version.
    const search = await call('kb_search', { query: 'create a location', top_k: 2, min_corpus_version: 1 });
    expect(search.isError ?? false).toBe(false);
    expect((search.structuredContent as Json).results[0]).toMatchObject({
      sourceId: `${SPEC}#paths/locations/post`,
      title: 'POST /locations — Create a location',
    });

    const found = await call('graph_find_endpoints', { resource: 'location', operation: 'create' });
    expect((found.structuredContent as Json).endpoints[0]).toMatchObject({
      method: 'POST',
      path: '/locations',
    });
  });

  it('falls back to a search over API operations for a resource the graph does not know', async () => {
    const result = await call('graph_find_endpoints', { resource: 'warehouse', operation: 'create' });
    const found = result.structuredContent as Json;
    expect(found).toMatchObject({ resource: 'Resource:warehouse', via: 'search' });
    expect(found.endpoints.length).toBeGreaterThan(0);
    expect(found.endpoints.every((endpoint: Json) => endpoint.operationType === 'create')).toBe(true);
    expect(found.endpoints.map((endpoint: Json) => endpoint.path)).toContain('/locations');

    // A resource the graph knows never falls back: locations have no action endpoint, so none is found.
    const none = await call('graph_find_endpoints', { resource: 'location', operation: 'action' });
    expect(none.structuredContent).toMatchObject({ via: 'graph', endpoints: [] });
  });

  it('reads the default workspace and the listed one only', async () => {
    const listed = await call('kb_search', { query: 'Halcyon launch code word', workspace: served });
    expect((listed.structuredContent as Json).results[0].snippet).toContain('periwinkle');

    // Another workspace exists, but this server does not serve it: it answers as if it did not exist.
    const unlisted = await call('kb_search', { query: 'Halcyon launch code word', workspace: other });
    expect(unlisted.isError).toBe(true);
    expect(text(unlisted)).toBe(`WORKSPACE_NOT_FOUND: workspace "${other}" does not exist`);
    const fallback = await call('kb_search', { query: 'Halcyon launch code word', top_k: 5 });
    expect(JSON.stringify(fallback.structuredContent)).not.toContain('periwinkle');
  });

  it('refuses browser origins off the list and methods a stateless server has no use for', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization,
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const evil = await post({ origin: 'https://evil.example.net' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ error: { message: expect.stringContaining('not allowed') } });
    const allowed = await post({ origin: 'https://agent.example.com' });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ result: { serverInfo: { name: 'agentic-rag' } } });

    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(new URL('/healthz', url))).status).toBe(200);
    const missing = await fetch(new URL('/nope', url));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status_code: 404, error_code: 'NOT_FOUND' });
  });
});
