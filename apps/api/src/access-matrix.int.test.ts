import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from './server.js';
import { typeDefs } from './graphql/apollo.js';
import { REST_ROUTES } from './rest/router.js';
import { createMcpHttpServer } from '../../mcp/src/http.js';
import { createToolbox } from '../../mcp/src/server.js';
import { ingestOtherWorkspace, ingestTestCorpus } from '../../mcp/src/test-corpus.js';
import {
  createJsonLogger,
  loadConfig,
  MCP_TOOL_NAMES,
  OPERATION_NAMES,
  RagService,
  roleAllows,
  type Operation,
  type RagRuntime,
  type Role,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';

/**
 * Every GraphQL field, REST route and MCP tool, called with no key, a bad key, a revoked key and
 * a reader, writer and admin key, each made for the workspace asked about ("own"), for another
 * workspace ("other") or for every workspace ("all"). Each cell's outcome is derived from the
 * service's permission table and asserted: a refusal has its exact code, and no refused write
 * leaves a trace. A field, route or tool added without a row here fails the completeness test.
 */

type Identity = 'none' | 'bad' | 'revoked' | Role;
type Scope = 'own' | 'other' | 'all';
const IDENTITIES: Identity[] = ['none', 'bad', 'revoked', 'reader', 'writer', 'admin'];
const SCOPES: Scope[] = ['own', 'other', 'all'];

/** What a call came back with: an error code, or null for an answer. */
interface Outcome {
  status: number;
  code: string | null;
  /** True when the answer is empty (a hidden job reads as none). */
  empty: boolean;
}

interface Cell {
  identity: Identity;
  scope: Scope;
  /** Distinct per cell, for writes whose effect is checked afterwards. */
  label: string;
  authorization: string | undefined;
}

interface Surface {
  transport: 'graphql' | 'rest' | 'mcp' | 'http';
  name: string;
  operation: Operation;
  /**
   * The weakest role the issue's policy allows, written here and not read from the service's
   * table: a permission loosened there is a failure here.
   */
  needs: Role;
  /** Codes an allowed call may still end with on this deployment (no queue, a missing document). */
  allowedCodes?: string[];
  /** Expected outcome for an allowed role in this scope, when it differs from the default. */
  scoped?: (scope: Scope) => 'ok' | 'hidden' | string;
  call(cell: Cell): Promise<Outcome>;
}

const ACCESS_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'WORKSPACE_NOT_FOUND']);

describe('access matrix: every operation on every transport for every key', () => {
  let runtime: RagRuntime;
  let service: RagService;
  let api: { server: Server; stop: () => Promise<void> };
  let mcp: Server;
  let base: string;
  let mcpUrl: string;
  // The other workspace's id is a prefix of this one's: a scope check by `startsWith` lets
  // its keys in here, and fails this matrix.
  const elsewhere = uniqueWorkspace('matrix');
  const ws = `${elsewhere}-own`;
  const keys = new Map<string, string>();
  let jobId: string;
  const surfaces: Surface[] = [];

  const graphql = async (cell: Cell, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(cell.authorization ? { authorization: cell.authorization } : {}),
      },
      body: JSON.stringify({ query, variables: { w: ws, ...variables } }),
    });
    const body = (await response.json()) as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ extensions?: { code?: string } }>;
    };
    const code = body.errors?.[0]?.extensions?.code ?? null;
    const value = body.data ? Object.values(body.data)[0] : null;
    return { status: response.status, code, empty: value === null || value === undefined };
  };

  const rest = async (cell: Cell, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}workspace=${ws}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'content-type': 'application/json',
        ...(cell.authorization ? { authorization: cell.authorization } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const reply = (await response.json()) as { error_code?: string };
    return { status: response.status, code: reply.error_code ?? null, empty: false };
  };

  /**
   * A streaming route: a request refused before the stream starts is answered with a JSON error
   * body; after that the stream's events say how it ended (an error event, or a final one).
   */
  const streamed = async (
    cell: Cell,
    path: string,
    body: unknown,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    codeOf: (payload: any) => { code: string | null; final: boolean },
  ) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(cell.authorization ? { authorization: cell.authorization } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const reply = JSON.parse(text) as {
        error_code?: string;
        errors?: Array<{ extensions?: { code?: string } }>;
      };
      const code = reply.error_code ?? reply.errors?.[0]?.extensions?.code ?? 'NOT_A_STREAM';
      return { status: response.status, code, empty: true };
    }
    const outcomes = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
      .map((line) => codeOf(JSON.parse(line.slice('data: '.length))));
    const code = outcomes.find((outcome) => outcome.code !== null)?.code ?? null;
    // A stream that ends without an error must have ended with its answer.
    const ended = code !== null || outcomes.some((outcome) => outcome.final);
    return { status: response.status, code: ended ? code : 'NO_FINAL_EVENT', empty: !ended };
  };

  let rpcId = 0;
  const mcpCall = async (cell: Cell, name: string, args: Record<string, unknown>) => {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(cell.authorization ? { authorization: cell.authorization } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++rpcId,
        method: 'tools/call',
        params: { name, arguments: { workspace: ws, ...args } },
      }),
    });
    const reply = (await response.json()) as {
      error?: { message: string };
      result?: { isError?: boolean; structuredContent?: { error?: { code: string } } };
    };
    if (reply.error) {
      return {
        status: response.status,
        code: /^([A-Z_]+):/.exec(reply.error.message)?.[1] ?? 'RPC',
        empty: true,
      };
    }
    return {
      status: response.status,
      code: reply.result?.structuredContent?.error?.code ?? null,
      empty: false,
    };
  };

  beforeAll(async () => {
    const sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      AGENTIC_RAG_WORKSPACE: ws,
      LOG_LEVEL: 'silent',
    });
    const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
    runtime = await createRuntime({ config, sql, logger });
    await ingestTestCorpus(runtime, ws);
    await ingestOtherWorkspace(runtime, elsewhere);
    service = new RagService(runtime, { limiter: null });
    for (const role of ['reader', 'writer', 'admin'] as const) {
      for (const [scope, workspaceId] of [
        ['own', ws],
        ['other', elsewhere],
        ['all', '*'],
      ] as const) {
        keys.set(`${role}/${scope}`, (await service.keys.create({ workspaceId, role, label: 'matrix' })).key);
      }
    }
    const revoked = await service.keys.create({ workspaceId: '*', role: 'admin', label: 'matrix revoked' });
    await service.keys.revoke(revoked.id);
    keys.set('revoked', revoked.key);
    jobId = await runtime.jobs.start({ kind: 'matrix', workspaceId: ws, payload: {} });

    api = await createApi(service);
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    mcp = createMcpHttpServer(createToolbox(service, logger), service, { allowedOrigins: [], logger });
    await new Promise<void>((resolve) => mcp.listen(0, '127.0.0.1', resolve));
    mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => mcp?.close(resolve));
    await new Promise((resolve) => api?.server.close(resolve));
    await api?.stop();
    for (const workspace of [ws, elsewhere]) await dropWorkspace(runtime.sql, workspace);
    await runtime?.close();
  });

  // A victim key per cell, so each allowed revocation has one of its own.
  const victims = new Map<string, string>();
  const gql = (
    name: string,
    operation: Operation,
    needs: Role,
    query: string,
    extra: Partial<Surface> = {},
    variables?: (cell: Cell) => Record<string, unknown>,
  ) =>
    surfaces.push({
      transport: 'graphql',
      name,
      operation,
      needs,
      ...extra,
      call: (cell) => graphql(cell, query, variables?.(cell)),
    });

  gql(
    'search',
    'search',
    'reader',
    'query($w: ID!) { search(input: {query: "create a location", workspaceId: $w}) { hits { chunkId } } }',
  );
  gql(
    'document',
    'getDocument',
    'reader',
    'query($w: ID!) { document(workspaceId: $w, id: "northwind/api/openapi.yaml") { id chunks(first: 1) { text } } }',
  );
  gql('documents', 'listDocuments', 'reader', 'query($w: ID!) { documents(workspaceId: $w) { totalCount } }');
  gql('corpus', 'corpus', 'reader', 'query($w: ID!) { corpus(workspaceId: $w) { documents } }');
  gql(
    'entity',
    'entity',
    'reader',
    'query($w: ID!) { entity(workspaceId: $w, type: "algorithm", number: "3.2") { id } }',
  );
  gql(
    'expandGraph',
    'expandGraph',
    'reader',
    'query($w: ID!) { expandGraph(workspaceId: $w, ids: ["Resource:location"]) { entities { id } } }',
  );
  gql(
    'job',
    'job',
    'reader',
    'query($id: ID!) { job(id: $id) { id } }',
    { scoped: (scope) => (scope === 'other' ? 'hidden' : 'ok') },
    () => ({ id: jobId }),
  );
  gql('jobs', 'listJobs', 'reader', 'query($w: ID!) { jobs(workspaceId: $w) { queue jobs { id } } }');
  // Not a workspace's read: a key scoped elsewhere gets its own list, never a refusal.
  gql('workspaces', 'listWorkspaces', 'reader', '{ workspaces { id } }', { scoped: () => 'ok' });
  gql('deadLetters', 'deadLetters', 'admin', '{ deadLetters { id } }', { allowedCodes: ['BAD_USER_INPUT'] });
  gql('apiKeys', 'listApiKeys', 'admin', '{ apiKeys { id } }');
  gql('auditLog', 'auditLog', 'admin', 'query($w: ID) { auditLog(workspaceId: $w) { id } }', {
    scoped: (scope) => (scope === 'other' ? 'WORKSPACE_NOT_FOUND' : 'ok'),
  });
  // Runs read from disk; a scoped admin sees its workspace's (none here), never an error.
  gql('evalRuns', 'evalRuns', 'admin', '{ evalRuns { id } }', { scoped: () => 'ok' });
  gql('evalRun', 'evalRun', 'admin', '{ evalRun(id: "golden-none") { id } }', { scoped: () => 'ok' });
  gql(
    'ragAnswer',
    'answer',
    'reader',
    'mutation($w: ID!) { ragAnswer(input: {query: "How do I create a location?", workspaceId: $w}) { answer } }',
  );
  gql(
    'ingestDocuments',
    'ingest',
    'writer',
    'mutation($w: ID!, $id: ID!) { ingestDocuments(input: {workspaceId: $w, documents: [{id: $id, content: "# Matrix\\n\\nA cell wrote this."}]}) { mode } }',
    {},
    (cell) => ({ id: `matrix/${cell.label}.md` }),
  );
  gql(
    'crawlSite',
    'ingest',
    'writer',
    'mutation($w: ID!) { crawlSite(input: {workspaceId: $w, url: "http://169.254.169.254/latest/meta-data/"}) { mode } }',
    // An allowed cell reaches the crawl, whose address policy refuses the metadata address.
    { allowedCodes: ['FETCH_BLOCKED'] },
  );
  gql(
    'deleteDocument',
    'deleteDocument',
    'writer',
    'mutation($w: ID!) { deleteDocument(workspaceId: $w, id: "matrix/none.md") { deleted } }',
  );
  gql(
    'refreshDocument',
    'refreshDocument',
    'writer',
    'mutation($w: ID!) { refreshDocument(workspaceId: $w, id: "matrix/none.md") { mode } }',
    {
      allowedCodes: ['NOT_FOUND'],
    },
  );
  gql(
    'resumeIngest',
    'resumeIngest',
    'writer',
    'mutation($w: ID!) { resumeIngest(workspaceId: $w) { retried } }',
    { allowedCodes: ['BAD_USER_INPUT'] },
  );
  gql('retryDeadLetters', 'retryDeadLetters', 'admin', 'mutation { retryDeadLetters }', {
    allowedCodes: ['BAD_USER_INPUT'],
  });
  gql('purgeDeadLetters', 'purgeDeadLetters', 'admin', 'mutation { purgeDeadLetters }', {
    allowedCodes: ['BAD_USER_INPUT'],
    scoped: (scope) => (scope === 'all' ? 'ok' : 'FORBIDDEN'),
  });
  gql(
    'createApiKey',
    'createApiKey',
    'admin',
    'mutation($w: ID!) { createApiKey(input: {workspaceId: $w, role: "reader"}) { id } }',
    {
      scoped: (scope) => (scope === 'other' ? 'WORKSPACE_NOT_FOUND' : 'ok'),
    },
  );
  gql(
    'revokeApiKey',
    'revokeApiKey',
    'admin',
    'mutation($id: ID!) { revokeApiKey(id: $id) }',
    {
      scoped: (scope) => (scope === 'other' ? 'NOT_FOUND' : 'ok'),
    },
    (cell) => ({ id: victims.get(cell.label) }),
  );

  const restSurface = (name: string, operation: Operation, path: string, body?: unknown) =>
    surfaces.push({
      transport: 'rest',
      name,
      operation,
      needs: 'reader',
      call: (cell) => rest(cell, path, body),
    });
  restSurface('/search/semantic', 'search', '/search/semantic', { query: 'posterior inference' });
  restSurface('/search/expand-graph', 'expandGraph', '/search/expand-graph', {
    document_ids: ['algorithm:3.2'],
  });
  restSurface('/entity/{entity_type}/{number}', 'entity', '/entity/algorithm/3.2', undefined);
  surfaces.push({
    transport: 'rest',
    name: '/admin/kb/refresh',
    operation: 'refreshUrl',
    needs: 'admin',
    // An allowed cell reaches the refresh, whose address policy refuses the metadata address.
    allowedCodes: ['FETCH_BLOCKED'],
    call: (cell) =>
      rest(
        cell,
        `/admin/kb/refresh?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
        {},
      ),
  });
  surfaces.push({
    transport: 'rest',
    name: '/answer/stream',
    operation: 'answer',
    needs: 'reader',
    call: (cell) =>
      streamed(
        cell,
        `/answer/stream?workspace=${ws}`,
        { query: 'How do I create a location?' },
        (event: { type: string; code?: string }) => ({
          code: event.type === 'error' ? event.code! : null,
          final: event.type === 'final',
        }),
      ),
  });
  surfaces.push({
    transport: 'graphql',
    name: 'ragAnswerStream',
    operation: 'answer',
    needs: 'reader',
    call: (cell) =>
      streamed(
        cell,
        '/graphql/stream',
        {
          query:
            'subscription($w: ID!) { ragAnswerStream(input: {query: "How do I create a location?", workspaceId: $w}) { type error { code } } }',
          variables: { w: ws },
        },
        (payload: {
          data?: { ragAnswerStream: { type: string; error: { code: string } | null } };
          errors?: Array<{ extensions?: { code?: string } }>;
        }) => ({
          code:
            payload.errors?.[0]?.extensions?.code ??
            (payload.data?.ragAnswerStream.type === 'error'
              ? payload.data.ragAnswerStream.error!.code
              : null),
          final: payload.data?.ragAnswerStream.type === 'final',
        }),
      ),
  });

  const tool = (
    name: string,
    operation: Operation,
    args: Record<string, unknown>,
    extra: Partial<Surface> = {},
  ) =>
    surfaces.push({
      transport: 'mcp',
      name,
      operation,
      needs: 'reader',
      ...extra,
      call: (cell) => mcpCall(cell, name, args),
    });
  tool('kb_search', 'search', { query: 'create a location' });
  tool(
    'kb_get_doc',
    'getDocument',
    { id: 'northwind/api/openapi.yaml#paths/locations/post' },
    { allowedCodes: ['NOT_FOUND'] },
  );
  tool('graph_find_endpoints', 'findEndpoints', { resource: 'location' });
  tool('graph_expand', 'expandGraph', { ids: ['Resource:location'] });
  tool('get_entity', 'entity', { type: 'algorithm', number: '3.2' }, { allowedCodes: ['NOT_FOUND'] });
  tool('rag_answer', 'answer', { query: 'How do I create a location?' });

  surfaces.push({
    transport: 'http',
    name: 'GET /metrics',
    operation: 'metrics',
    needs: 'admin',
    // The process's figures cover every workspace: only a key for all of them reads them.
    scoped: (scope) => (scope === 'all' ? 'ok' : 'FORBIDDEN'),
    async call(cell) {
      const response = await fetch(`${base}/metrics`, {
        headers: cell.authorization ? { authorization: cell.authorization } : {},
      });
      if (response.ok) return { status: response.status, code: null, empty: false };
      return {
        status: response.status,
        code: ((await response.json()) as { error_code: string }).error_code,
        empty: true,
      };
    },
  });

  /** The outcome the permission table promises for a cell. */
  function expected(surface: Surface, cell: Cell): 'ok' | 'hidden' | string {
    if (cell.identity === 'none' || cell.identity === 'bad' || cell.identity === 'revoked')
      return 'UNAUTHENTICATED';
    if (!roleAllows(cell.identity, surface.needs)) return 'FORBIDDEN';
    if (surface.scoped) return surface.scoped(cell.scope);
    const workspaceBound = !['deadLetters', 'retryDeadLetters', 'listApiKeys', 'metrics'].includes(
      surface.operation,
    );
    return workspaceBound && cell.scope === 'other' ? 'WORKSPACE_NOT_FOUND' : 'ok';
  }

  it('has a row for every GraphQL field (subscriptions too), REST route, MCP tool and service operation', () => {
    const schema = buildSchema(typeDefs);
    const fields = [
      ...Object.keys(schema.getQueryType()!.getFields()),
      ...Object.keys(schema.getMutationType()!.getFields()),
      ...Object.keys(schema.getSubscriptionType()!.getFields()),
    ].sort();
    const covered = (transport: Surface['transport']) =>
      surfaces
        .filter((surface) => surface.transport === transport)
        .map((surface) => surface.name)
        .sort();
    expect(covered('graphql')).toEqual(fields);
    expect(covered('rest')).toEqual(REST_ROUTES.filter((route) => route !== '/openapi.json').sort());
    expect(covered('mcp')).toEqual([...MCP_TOOL_NAMES].sort());
    const operations = new Set(surfaces.map((surface) => surface.operation));
    expect(OPERATION_NAMES.filter((operation) => !operations.has(operation))).toEqual(['documentChunks']);
  });

  it('answers every cell as the permission table says, with zero successes where it says no', async () => {
    const mismatches: string[] = [];
    let cells = 0;
    let refused = 0;
    for (const surface of surfaces) {
      for (const identity of IDENTITIES) {
        // Without a valid key the scope is moot: one cell.
        for (const scope of identity === 'none' || identity === 'bad' || identity === 'revoked'
          ? (['all'] as Scope[])
          : SCOPES) {
          const label = `${surface.transport}-${surface.name.replace(/\W+/g, '')}-${identity}-${scope}`;
          const authorization =
            identity === 'none'
              ? undefined
              : identity === 'bad'
                ? 'Bearer ar_0123456789abcdef_notthesecretnotthesecretnotthesecret1234'
                : identity === 'revoked'
                  ? `Bearer ${keys.get('revoked')}`
                  : `Bearer ${keys.get(`${identity}/${scope}`)}`;
          if (surface.operation === 'revokeApiKey') {
            victims.set(
              label,
              (await service.keys.create({ workspaceId: ws, role: 'reader', label: 'victim' })).id,
            );
          }
          const cell: Cell = { identity, scope, label, authorization };
          const want = expected(surface, cell);
          const got = await surface.call(cell);
          cells++;
          const graphqlCode = (code: string) => (code === 'INVALID_INPUT' ? 'BAD_USER_INPUT' : code);
          const ok =
            want === 'ok'
              ? got.code === null || (surface.allowedCodes ?? []).includes(got.code)
              : want === 'hidden'
                ? got.code === null && got.empty
                : got.code === graphqlCode(want) || got.code === want;
          if (want !== 'ok' && want !== 'hidden') refused++;
          if (!ok)
            mismatches.push(
              `${label}: expected ${want}, got ${got.code ?? 'an answer'} (HTTP ${got.status})`,
            );
          if (want === 'UNAUTHENTICATED' && surface.transport !== 'mcp' && got.status !== 401)
            mismatches.push(`${label}: UNAUTHENTICATED answered HTTP ${got.status}, not 401`);
          if (want === 'FORBIDDEN' && surface.transport !== 'mcp' && got.status !== 403)
            mismatches.push(`${label}: FORBIDDEN answered HTTP ${got.status}, not 403`);
          if (ACCESS_CODES.has(got.code ?? '') && want === 'ok')
            mismatches.push(`${label}: an allowed call was refused with ${got.code}`);
        }
      }
    }
    console.log(`access matrix: ${cells} cells, ${refused} refusals expected and checked`);
    expect(mismatches).toEqual([]);

    // Writes: exactly the allowed cells' documents exist; the other workspace is untouched.
    const written = (
      await runtime.store.documents(ws, { first: 100, after: null, sourcePrefix: 'matrix/' })
    ).documents
      .map((document) => document.sourcePath.replace(/^matrix\//, '').replace(/\.md$/, ''))
      .sort();
    const allowed = IDENTITIES.flatMap((identity) =>
      (['reader', 'writer', 'admin'].includes(identity) ? SCOPES : [])
        .filter((scope) => roleAllows(identity as Role, 'writer') && scope !== 'other')
        .map((scope) => `graphql-ingestDocuments-${identity}-${scope}`),
    ).sort();
    expect(written).toEqual(allowed);
    expect((await runtime.store.stats(elsewhere)).documents).toBe(1);
  });

  it('records every write attempt, allowed or refused, in an append-only audit log', async () => {
    const records = await service.audit.list({ workspaceId: ws, first: 1000 });
    const refusedIngests = records.filter(
      (record) => record.operation === 'ingest' && record.outcome === 'FORBIDDEN',
    );
    expect(refusedIngests.length).toBeGreaterThanOrEqual(3);
    expect(refusedIngests.every((record) => record.keyId !== null && record.actor.startsWith('key:'))).toBe(
      true,
    );
    expect(records.some((record) => record.operation === 'ingest' && record.outcome === 'ok')).toBe(true);
    await expect(runtime.sql.query('UPDATE rag_audit SET outcome = $1', ['ok'])).rejects.toThrow();
    await expect(runtime.sql.query('DELETE FROM rag_audit')).rejects.toThrow();
  });
});
