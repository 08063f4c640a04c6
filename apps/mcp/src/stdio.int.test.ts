import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiKeyStore, loadConfig, PostgresSql, type Sql } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, uniqueWorkspace } from '../../../test/backends.js';
import { CHAPTER, ingestTestCorpus, SPEC } from './test-corpus.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');

// Tool results are JSON whose shape each test asserts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * The server as an MCP client runs it: a child process speaking JSON-RPC on stdin/stdout, driven
 * by the SDK's own Client. Its database is the test Postgres (TEST_DATABASE_URL), or without one a
 * file-backed PGlite the test fills first and hands over.
 */
describe('MCP server over stdio', () => {
  const ws = uniqueWorkspace('mcp-stdio');
  const postgresUrl = process.env.TEST_DATABASE_URL;
  let root: string;
  let client: Client;
  let serverLog = '';

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (name: string, args: Record<string, unknown>): Promise<Json> => {
    const result = await call(name, args);
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    // Structured content for programs, the same JSON as text for clients that only read text.
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    return result.structuredContent as Json;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-mcp-'));
    const database: Record<string, string> = postgresUrl
      ? { DATABASE_URL: postgresUrl }
      : { DATA_DIR: path.join(root, 'data') };
    const runtime = await createRuntime({ config: loadConfig({ ...database, LOG_LEVEL: 'silent' }) });
    let key: string;
    try {
      await ingestTestCorpus(runtime, ws);
      // The key the server acts with: a reader of this workspace only.
      ({ key } = await new ApiKeyStore(runtime.sql).create({
        workspaceId: ws,
        role: 'reader',
        label: 'mcp-stdio test',
      }));
    } finally {
      await runtime.close(); // an embedded database belongs to one process: hand it over
    }

    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !['DATABASE_URL', 'DATA_DIR'].includes(name)) env[name] = value;
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', TSX_LOADER, MAIN],
      cwd: root,
      env: { ...env, ...database, AGENTIC_RAG_WORKSPACE: ws, AGENTIC_RAG_API_KEY: key, LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    client = new Client({ name: 'agentic-rag-test', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    if (postgresUrl) {
      const sql: Sql = new PostgresSql({ connectionString: postgresUrl, maxConnections: 1 });
      await dropWorkspace(sql, ws);
      await sql.close();
    }
    await rm(root, { recursive: true, force: true });
  });

  it('introduces itself and lists the six tools, each with a JSON Schema of its arguments', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'agentic-rag', version: '0.1.0' });
    expect(client.getInstructions()).toContain(`workspace "${ws}"`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'kb_search',
      'kb_get_doc',
      'graph_find_endpoints',
      'graph_expand',
      'get_entity',
      'rag_answer',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(50);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.inputSchema.properties).toHaveProperty('workspace');
    }
    const search = tools.find((tool) => tool.name === 'kb_search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.inputSchema.properties).toMatchObject({
      query: { type: 'string', minLength: 1, maxLength: 2000 },
      top_k: { type: 'integer', minimum: 1, maximum: 50, default: 8 },
      filters: { type: 'object', additionalProperties: false },
    });
    const endpoints = tools.find((tool) => tool.name === 'graph_find_endpoints')!;
    expect(endpoints.inputSchema.required).toEqual(['resource']);
    expect(endpoints.inputSchema.properties!.operation).toMatchObject({
      enum: ['create', 'read', 'update', 'delete', 'list', 'action'],
    });
  });

  it('kb_search returns cited snippets: source id, title, score and offsets', async () => {
    const result = await ok('kb_search', { query: 'How do I create a location?', top_k: 3 });
    expect(result.workspace).toBe(ws);
    expect(result.results).toHaveLength(3);
    expect(result.results[0]).toMatchObject({
      index: 1,
      sourceId: `${SPEC}#paths/locations/post`,
      title: 'POST /locations — Create a location',
      url: null,
      startOffset: 0,
    });
    expect(result.results[0].snippet).toContain('Creates a single location.');
    expect(result.results[0].graphEntities).toContain('Endpoint:POST /locations');
    const scores = result.results.map((hit: Json) => hit.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
    expect(scores[0]).toBeGreaterThan(0);
  });

  it('kb_get_doc returns the full text of a document, or a window of a long one', async () => {
    const whole = await ok('kb_get_doc', { id: CHAPTER });
    expect(whole).toMatchObject({
      id: CHAPTER,
      title: 'Chapter 3: Inference',
      kind: 'markdown',
      truncated: false,
    });
    expect(whole.text.startsWith('# Chapter 3: Inference')).toBe(true);
    expect(whole.text).toContain('**Algorithm 3.2.** Variable elimination');
    expect(whole.text).toHaveLength(whole.totalChars);

    const window = await ok('kb_get_doc', { id: CHAPTER, offset: 2, max_chars: 7 });
    expect(window).toMatchObject({ text: 'Chapter', startOffset: 2, endOffset: 9, truncated: true });
  });

  it('graph_find_endpoints finds POST /locations for resource location, operation create', async () => {
    const result = await ok('graph_find_endpoints', { resource: 'location', operation: 'create' });
    expect(result).toMatchObject({ resource: 'Resource:location', operation: 'create', via: 'graph' });
    expect(result.endpoints.map((endpoint: Json) => `${endpoint.method} ${endpoint.path}`)).toEqual([
      'POST /locations',
      'POST /locations/bulk',
    ]);
    expect(result.endpoints[0]).toEqual({
      id: 'Endpoint:POST /locations',
      method: 'POST',
      path: '/locations',
      summary: 'Create a location',
      operationId: 'createLocation',
      operationType: 'create',
      sourceId: `${SPEC}#paths/locations/post`,
      title: 'Create a location',
      doc_url: null,
      docPages: [],
    });

    // Plural resource, no operation: every endpoint of the resource, typed.
    const all = await ok('graph_find_endpoints', { resource: 'Locations' });
    expect(all.endpoints.map((endpoint: Json) => endpoint.operationType).sort()).toEqual([
      'create',
      'create',
      'delete',
      'list',
      'read',
      'update',
    ]);
  });

  it('get_entity returns a numbered textbook entity with its defining passage and mentions', async () => {
    const result = await ok('get_entity', { type: 'Algorithm', number: '3.2' });
    expect(result).toMatchObject({
      id: 'Algorithm:3.2',
      type: 'Algorithm',
      name: 'Algorithm 3.2',
      properties: { title: 'Variable elimination', chapter: '3' },
      definedBy: CHAPTER,
    });
    expect(result.definition.sourceId).toBe(CHAPTER);
    expect(result.definition.text).toContain('**Algorithm 3.2.** Variable elimination');
    expect(result.mentionCount).toBeGreaterThan(0);
    expect(result.mentions[0]).toMatchObject({ sourceId: CHAPTER });

    // Any entity by id, in any spelling that resolves to it.
    const endpoint = await ok('get_entity', { id: 'Endpoint:GET /locations/{locationId}' });
    expect(endpoint).toMatchObject({ id: 'Endpoint:GET /locations/{}', definition: null });
  });

  it('graph_expand walks from a resource to its endpoints', async () => {
    const result = await ok('graph_expand', {
      ids: ['Resource:locations'],
      relation_types: ['RESOURCE_HAS_ENDPOINT'],
    });
    expect(result.entities[0]).toMatchObject({ id: 'Resource:location', hop: 0 });
    const reached = result.entities
      .filter((entity: Json) => entity.hop === 1)
      .map((entity: Json) => entity.id);
    expect(reached).toContain('Endpoint:POST /locations');
    expect(result.edges).toContainEqual(
      expect.objectContaining({ from: 'Resource:location', to: 'Endpoint:POST /locations' }),
    );
  });

  it('rag_answer answers with numbered citations that point at the spec', async () => {
    const result = await ok('rag_answer', { query: 'What endpoints can I use to create a location?' });
    expect(result.refused).toBe(false);
    expect(result.answer.startsWith('POST /locations — Create a location [1].')).toBe(true);
    expect(result.citations[0]).toMatchObject({ index: 1, sourceId: `${SPEC}#paths/locations/post` });
    expect(result.selfCheck).toMatchObject({ passed: true });
  });

  it('rag_answer continues a conversation: a follow-up is rewritten against the earlier question', async () => {
    const first = await ok('rag_answer', { query: 'How do I create a location?', start_conversation: true });
    expect(first.conversation).toMatchObject({ turn: 1, rewriter: 'none' });
    const followUp = await ok('rag_answer', {
      query: 'and how do I delete it?',
      conversation_id: first.conversation.id,
    });
    expect(followUp.conversation).toEqual({
      id: first.conversation.id,
      turn: 2,
      standaloneQuery: 'how do I delete a location?',
      rewritten: true,
      rewriter: 'rules',
    });
    expect(followUp.citations[0]).toMatchObject({ sourceId: `${SPEC}#paths/locations/{locationId}/delete` });
  });

  it.each([
    [
      'an unknown workspace',
      'kb_search',
      { query: 'x', workspace: 'no-such-workspace' },
      'WORKSPACE_NOT_FOUND',
    ],
    ['a malformed workspace', 'kb_search', { query: 'x', workspace: 'a b' }, 'INVALID_INPUT'],
    ['k out of range', 'kb_search', { query: 'locations', top_k: 99 }, 'INVALID_INPUT'],
    ['a malformed entity number', 'get_entity', { type: 'algorithm', number: '3.x' }, 'INVALID_INPUT'],
    ['a missing entity', 'get_entity', { type: 'algorithm', number: '12.3' }, 'NOT_FOUND'],
    ['a missing document', 'kb_get_doc', { id: 'nope.md' }, 'NOT_FOUND'],
    ['an unknown tool', 'kb_delete', {}, 'TOOL_NOT_ALLOWED'],
  ])('answers %s with isError and the code', async (_case, name, args, code) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text.startsWith(`${code}: `)).toBe(true);
    expect(text).not.toContain('    at ');
    expect(result.structuredContent).toMatchObject({ error: { code } });
  });

  it('names the argument and the rule in its validation errors', async () => {
    const result = await call('kb_search', { query: 'locations', top_k: 99, k: 3 });
    expect((result.content[0] as { text: string }).text).toBe(
      'INVALID_INPUT: top_k must be an integer from 1 to 50; unknown argument "k"',
    );
    expect(serverLog).not.toContain('"level":"error"');
  });
});

describe('MCP server over stdio without a key', () => {
  it('refuses to start with one line naming AGENTIC_RAG_API_KEY, and with a bad key', async () => {
    const run = async (key: string | undefined) => {
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(process.env)) {
        if (value !== undefined && name !== 'AGENTIC_RAG_API_KEY') env[name] = value;
      }
      const root = await mkdtemp(path.join(os.tmpdir(), 'rag-mcp-nokey-'));
      const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
        cwd: root,
        env: { ...env, DATA_DIR: path.join(root, 'data'), ...(key ? { AGENTIC_RAG_API_KEY: key } : {}) },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      await rm(root, { recursive: true, force: true });
      return {
        code,
        lines: stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('{')),
      };
    };
    const missing = await run(undefined);
    expect(missing.code).toBe(1);
    expect(missing.lines).toEqual([
      'mcp failed to start: [UNAUTHENTICATED] pnpm mcp on stdio needs AGENTIC_RAG_API_KEY: create a key with `pnpm rag:keys create --workspace <id> --role reader`',
    ]);
    const bad = await run('ar_0123456789abcdef_notarealsecretnotarealsecretnotarealsecret');
    expect(bad.code).toBe(1);
    expect(bad.lines).toEqual(['mcp failed to start: [UNAUTHENTICATED] the API key is not valid']);
  });
});
