import { loadConfig, localOperator, RagService, silentLogger, type RagRuntime } from '@agentic-rag/core';
import { describe, expect, it } from 'vitest';
import { createToolbox } from './server.js';

/**
 * Argument validation and error mapping without a database: every call below fails before the
 * core is reached, so a runtime that only carries the config is enough.
 */
function toolbox(env: Record<string, string> = {}) {
  const config = loadConfig({ AGENTIC_RAG_WORKSPACE: 'docs', ...env });
  const store = { corpusVersion: async () => 1 };
  return createToolbox(
    new RagService({ config, store } as unknown as RagRuntime, { limiter: null }),
    silentLogger,
  );
}

const signal = new AbortController().signal;
/** Who calls: the tests here are about arguments, so an unscoped admin. */
const identify = async () => localOperator('test');

describe('MCP tool arguments', () => {
  it.each([
    ['kb_search', {}, 'query is required'],
    ['kb_search', { query: '   ' }, 'query must not be empty'],
    ['kb_search', { query: 42 }, 'query must be a string'],
    ['kb_search', { query: 'x', top_k: 0 }, 'top_k must be an integer from 1 to 50'],
    ['kb_search', { query: 'x', top_k: 2.5 }, 'top_k must be an integer from 1 to 50'],
    ['kb_search', { query: 'x', top_k: '5' }, 'top_k must be an integer from 1 to 50'],
    ['kb_search', { query: 'x', k: 5 }, 'unknown argument "k"'],
    ['kb_search', { query: 'x', filters: { color: 'red' } }, 'unknown argument "color" in filters'],
    ['kb_search', { query: 'x', filters: { operation_type: 'mutate' } }, 'filters.operation_type: '],
    ['kb_get_doc', { id: 'a.md', max_chars: 0 }, 'max_chars must be an integer from 1 to 200000'],
    ['graph_find_endpoints', { resource: 'location', operation: 'make' }, 'operation must be one of create,'],
    ['graph_expand', { ids: [] }, 'ids must hold 1 to 50 entity ids'],
    ['graph_expand', { ids: ['Resource:location'], depth: 4 }, 'depth must be an integer from 0 to 3'],
    ['graph_expand', { ids: ['Resource:location'], relation_types: ['LIKES'] }, 'relation_types may hold'],
    ['get_entity', { type: 'algorithm', number: 'three' }, 'number must look like 3.2, 16.4 or A.1'],
    ['get_entity', { type: 'theorem', number: '3.2' }, 'type must be one of formula, algorithm,'],
    ['get_entity', { type: 'algorithm' }, 'give either id, or type and number'],
    [
      'get_entity',
      { id: 'Algorithm:3.2', type: 'algorithm', number: '3.2' },
      'give either id, or type and number',
    ],
    ['get_entity', { id: 'no-colon' }, 'entity id "no-colon" is not of the form Type:name'],
    ['rag_answer', { query: 'x', use_hyde: 'yes' }, 'use_hyde: '],
    ['kb_search', { query: 'x', min_corpus_version: -1 }, 'min_corpus_version must be an integer from 0'],
    ['rag_answer', { query: 'x', min_corpus_version: 1.5 }, 'min_corpus_version must be an integer from 0'],
    ['kb_search', { query: 'x', workspace: 'white space' }, 'workspaceId must be letters, digits'],
  ])('%s %j is INVALID_INPUT: %s', async (name, args, message) => {
    const result = await toolbox().call(name, args, signal, identify);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'INVALID_INPUT', retryable: false } });
    expect((result.content[0] as { text: string }).text).toContain(`INVALID_INPUT: ${message}`);
  });

  it('names the default workspace and the served ones in every schema', () => {
    const [search] = toolbox({ AGENTIC_RAG_MCP_WORKSPACES: 'handbook,api-v2' }).listing;
    expect(search!.inputSchema.properties!.workspace).toMatchObject({
      type: 'string',
      description: 'the workspace to read (default "docs"; also served: handbook, api-v2)',
    });
  });

  it('refuses another workspace unless AGENTIC_RAG_MCP_WORKSPACES serves it', async () => {
    const strict = await toolbox().call('kb_search', { query: 'x', workspace: 'handbook' }, signal, identify);
    expect(strict.structuredContent).toMatchObject({ error: { code: 'WORKSPACE_NOT_FOUND' } });
  });

  it('answers RAG_DISABLED for every tool when the deployment switched RAG off', async () => {
    const off = toolbox({ AGENTIC_RAG_ENABLED: 'false' });
    const result = await off.call('kb_search', { query: 'x' }, signal, identify);
    expect((result.content[0] as { text: string }).text).toBe(
      'RAG_DISABLED: RAG is disabled on this deployment (AGENTIC_RAG_ENABLED=false)',
    );
  });

  it('masks unexpected errors: a generic INTERNAL, no message from the inside', async () => {
    const config = loadConfig({});
    const store = {
      corpusVersion: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (password=hunter2)');
      },
    };
    const broken = createToolbox(
      new RagService({ config, store } as unknown as RagRuntime, { limiter: null }),
      silentLogger,
    );
    const result = await broken.call('kb_search', { query: 'x' }, signal, identify);
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'INTERNAL: internal error' }],
    });
  });
});

describe('MCP configuration', () => {
  it.each([
    [{}, ['kb_search', 'kb_get_doc', 'graph_find_endpoints', 'graph_expand', 'get_entity', 'rag_answer']],
    [{ AGENTIC_RAG_MCP_TOOLS: ' kb_search , rag_answer,kb_search' }, ['kb_search', 'rag_answer']],
  ])('AGENTIC_RAG_MCP_TOOLS %j lists %j', (env, tools) => {
    expect(loadConfig(env).AGENTIC_RAG_MCP_TOOLS).toEqual(tools);
    expect(toolbox(env as Record<string, string>).listing.map((tool) => tool.name)).toEqual(tools);
  });

  it.each([
    [
      { AGENTIC_RAG_MCP_TOOLS: 'kb_search,kb_delete' },
      'AGENTIC_RAG_MCP_TOOLS="kb_search,kb_delete" is invalid',
    ],
    [{ AGENTIC_RAG_MCP_WORKSPACES: 'docs,bad id' }, 'AGENTIC_RAG_MCP_WORKSPACES="docs,bad id" is invalid'],
    [{ AGENTIC_RAG_MCP_ALLOWED_ORIGINS: 'https://a.example.com/app' }, 'AGENTIC_RAG_MCP_ALLOWED_ORIGINS='],
    [{ AGENTIC_RAG_MCP_PORT: '70000' }, 'AGENTIC_RAG_MCP_PORT="70000" is invalid'],
  ])('refuses %j at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads served workspaces and allowed origins as lists', () => {
    const config = loadConfig({
      AGENTIC_RAG_MCP_WORKSPACES: 'docs, *',
      AGENTIC_RAG_MCP_ALLOWED_ORIGINS: 'https://agent.example.com/,http://localhost:6274',
    });
    expect(config.AGENTIC_RAG_MCP_WORKSPACES).toEqual(['docs', '*']);
    expect(config.AGENTIC_RAG_MCP_ALLOWED_ORIGINS).toEqual([
      'https://agent.example.com',
      'http://localhost:6274',
    ]);
  });
});
