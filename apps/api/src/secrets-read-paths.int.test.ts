import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, silentLogger, type RagRuntime, type Sql } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceWithAdmin } from '../../../test/api.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { createMcpHttpServer } from '../../mcp/src/http.js';
import { createToolbox } from '../../mcp/src/server.js';
import { createApi } from './server.js';

/**
 * Fake credentials of many kinds, each in a document about its own topic, written the ways people
 * leave them in text (an assignment, prose, YAML, a wrapped line, base64). `secret` is what must
 * never be served; `topic` is what a question about the document asks.
 */
const B64 = (text: string) => Buffer.from(text).toString('base64');
const CASES = [
  {
    kind: 'openai',
    topic: 'forecasting assistant',
    secret: 'sk-proj-Hq7Tz2Lw9Rk4Vb8Nc3Xs6Hd1Fj5Gp0Ya7Ue2Io9Pl4Kj8Mn3Bv6Cx1Zq5Wr0Ts7',
    text: (s: string) => `The forecasting assistant calls the model with SECRET_KEY=${s} from the vault.`,
  },
  {
    kind: 'env password',
    topic: 'replica database',
    secret: 'hunter2-Rpl-8812',
    text: (s: string) => `# replica database\nREPLICA_HOST=db2.internal\nREPLICA_DB_PASSWORD=${s}\n`,
  },
  {
    kind: 'yaml password',
    topic: 'ledger service',
    secret: 'Lg7#pQ2!vX9mT4z',
    text: (s: string) => `# ledger service\n\nledger:\n  user: books\n  password: ${s}\n`,
  },
  {
    kind: 'aws in prose',
    topic: 'nightly archive',
    secret: 'Pz8Kx3Lm7Nq2Rw6Ty1Vb5Hc9Fd4Gs0Ja3Ue8Io2Q',
    text: (s: string) =>
      `The nightly archive uploads with key id AKIAZ4RT7Q2XWN8PLM3K and secret key ${s} every night.`,
  },
  {
    kind: 'github',
    topic: 'release robot',
    secret: 'ghp_Rb4Lq8Tz2Xk7Vb3Nc9Ws6Hd1Fj5Gp0Ya7Ue2',
    text: (s: string) => `The release robot pushes tags with the token ${s} on every release.`,
  },
  {
    kind: 'github wrapped',
    topic: 'mirror job',
    secret: 'ghp_Mw3Kp7Tz2Rk9Vb4Nc8Ws1Hd6Fj5Gp0Ya3Ue7',
    text: (s: string) => `The mirror job uses ${s.slice(0, 22)}\n${s.slice(22)} to fetch upstream.`,
    served: (s: string) => [s.slice(0, 22), s.slice(22)],
  },
  {
    kind: 'aws base64',
    topic: 'cold storage',
    secret: B64('AKIAZ9QW7E2RT4YU6IOP:Wq7Lz2Nx9Kv4Bt8Hm3Rj6Yc1Fs5Gd0Pa7Ue2Io9'),
    text: (s: string) => `Cold storage credentials, encoded: ${s}\n`,
  },
  {
    kind: 'stripe',
    topic: 'billing worker',
    secret: 'sk_live_51Hq7Tz2Lw9Rk4Vb8Nc3Xs6Hd1Fj5Gp0Ya7Ue2',
    text: (s: string) => `The billing worker charges cards with ${s} in production.`,
  },
  {
    kind: 'slack',
    topic: 'alerts channel',
    secret: 'xoxb-2048123456789-4096123456789-Rk4Vb8Nc3Xs6Hd1Fj5Gp0Ya7',
    text: (s: string) => `The alerts channel bot posts with ${s} when a depot goes offline.`,
  },
  {
    kind: 'postgres url',
    topic: 'inventory reports',
    secret: 'Vn8Qz3Lk7Wx2',
    text: (s: string) =>
      `Inventory reports read postgres://reporter:${s}@db.internal:5432/inventory each morning.`,
  },
  {
    kind: 'google api key',
    topic: 'map tiles',
    secret: 'AIzaSyB7Tz2Lw9Rk4Vb8Nc3Xs6Hd1Fj5Gp0Ya7U',
    text: (s: string) => `Map tiles are fetched with the key ${s} from the tile server.`,
  },
  {
    kind: 'anthropic',
    topic: 'summary writer',
    secret: 'sk-ant-api03-Tz2Lw9Rk4Vb8Nc3Xs6Hd1Fj5Gp0Ya7Ue2Io9Pl4Kj8Mn3Bv6',
    text: (s: string) => `The summary writer calls its model with ${s} at night.`,
  },
];

/** Every read path a client has, for a question about `topic` and the document `id`. */
describe('no secret is served on any read path', () => {
  const ws = uniqueWorkspace('secrets');
  let sql: Sql;
  let runtime: RagRuntime;
  let authorization: string;
  let api: { server: Server; stop: () => Promise<void> };
  let mcp: Server;
  let base: string;
  let mcpUrl: string;
  const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const post = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization, ...headers },
        body: JSON.stringify(body),
      })
    ).text();
  const graphql = (query: string, variables: Record<string, unknown>) =>
    post(`${base}/graphql`, { query, variables });
  const tool = (name: string, args: Record<string, unknown>) =>
    post(
      mcpUrl,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: { ...args, workspace: ws } },
      },
      { accept: 'application/json, text/event-stream' },
    );

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      AGENTIC_RAG_MCP_WORKSPACES: '*',
      INGEST_SECRETS: 'redact',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql, logger: silentLogger });
    const access = await serviceWithAdmin(runtime);
    authorization = access.authorization;
    api = await createApi(access.service);
    mcp = createMcpHttpServer(createToolbox(access.service, silentLogger), access.service, {
      allowedOrigins: [],
      logger: silentLogger,
    });
    await Promise.all([listen(api.server), listen(mcp)]);
    base = origin(api.server);
    mcpUrl = `${origin(mcp)}/mcp`;
    const documents = CASES.map((entry, index) => ({
      id: `notes/case-${index}.md`,
      content: `# The ${entry.topic}\n\n${entry.text(entry.secret)}\n`,
    }));
    const ingested = await graphql(
      'mutation($input: IngestInput!) { ingestDocuments(input: $input) { summary { documents { added } failures { code } redactions { rules } } } }',
      { input: { workspaceId: ws, documents } },
    );
    for (const entry of CASES) expect(ingested, entry.kind).not.toContain(entry.secret);
    expect(JSON.parse(ingested).data.ingestDocuments.summary.documents.added).toBe(CASES.length);
  });

  afterAll(async () => {
    await new Promise((resolve) => api?.server.close(resolve));
    await api?.stop();
    await new Promise((resolve) => mcp?.close(resolve));
    if (sql) await dropWorkspace(sql, ws);
    await runtime?.close();
  });

  it.each(CASES.map((entry, index) => [entry.kind, entry, index] as const))(
    '%s: not in search, answers, documents, chunks, REST or MCP',
    async (_kind, entry, index) => {
      const id = `notes/case-${index}.md`;
      const question = `What does the ${entry.topic} use?`;
      const answers = {
        'graphql search': await graphql(
          'query($input: SearchInput!) { search(input: $input) { hits { sourceId text } } }',
          { input: { workspaceId: ws, query: entry.topic } },
        ),
        'graphql ragAnswer': await graphql(
          'mutation($input: RagAnswerInput!) { ragAnswer(input: $input) { answer citations { sourceId snippet } } }',
          { input: { workspaceId: ws, query: question } },
        ),
        'graphql document': await graphql(
          'query($w: ID!, $id: ID!) { document(workspaceId: $w, id: $id) { id title metadata chunks { text } } }',
          { w: ws, id },
        ),
        'rest search': await post(`${base}/search/semantic?workspace=${ws}`, { query: entry.topic, k: 5 }),
        'mcp kb_search': await tool('kb_search', { query: entry.topic }),
        'mcp kb_get_doc': await tool('kb_get_doc', { id }),
        'mcp rag_answer': await tool('rag_answer', { query: question }),
      };
      // The document is there to be found on every path that lists documents: a path that finds
      // nothing proves nothing. (REST serves numbered entities: see the next test.)
      for (const [path, text] of Object.entries(answers))
        if (!['graphql ragAnswer', 'mcp rag_answer', 'rest search'].includes(path))
          expect(text, path).toContain(id);
      for (const [path, text] of Object.entries(answers))
        for (const part of entry.served?.(entry.secret) ?? [entry.secret])
          expect(text, `${path} serves the ${entry.kind} secret`).not.toContain(part);
    },
    60_000,
  );

  it("REST: not in a numbered entity's content, by search or by number", async () => {
    const secret = 'sk-proj-Nx4Kq8Tz2Rw7Vb3Lc9Ws6Hd1Fj5Gp0Ya7Ue2Io9Pl4Kj8Mn3';
    await graphql('mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode } }', {
      input: {
        workspaceId: ws,
        documents: [
          {
            id: 'book/ch09.md',
            content: `# Chapter 9 Exports\n\n**Algorithm 9.1** Nightly export. Call the exporter with OPENAI_API_KEY=${secret} and write the archive.\n`,
          },
        ],
      },
    });
    const byNumber = await (
      await fetch(`${base}/entity/algorithm/9.1?workspace=${ws}`, { headers: { authorization } })
    ).text();
    const bySearch = await post(`${base}/search/semantic?workspace=${ws}`, {
      query: 'nightly export archive',
      k: 5,
    });
    expect(byNumber).toContain('Nightly export');
    expect(bySearch).toContain('algorithm_9_1');
    for (const text of [byNumber, bySearch]) expect(text).not.toContain(secret);
  });

  it('refuses a document whose id holds a token, and names it redacted', async () => {
    const token = 'ghp_Id7Lq8Tz2Xk4Vb3Nc9Ws6Hd1Fj5Gp0Ya7Ue2';
    const reply = await graphql(
      'mutation($input: IngestInput!) { ingestDocuments(input: $input) { summary { documents { added } failures { sourceId code message } } } }',
      {
        input: {
          workspaceId: ws,
          documents: [{ id: `notes/${token}.md`, content: '# Note\n\nNothing here.\n' }],
        },
      },
    );
    expect(reply).not.toContain(token);
    expect(JSON.parse(reply).data.ingestDocuments.summary).toEqual({
      documents: { added: 0 },
      failures: [
        {
          sourceId: 'notes/[REDACTED:github].md',
          code: 'SECRET_REFUSED',
          message: expect.stringContaining('its id holds a secret (github)'),
        },
      ],
    });
  });
});
