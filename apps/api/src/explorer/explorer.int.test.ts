import { existsSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createJsonLogger, loadConfig } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { getIntrospectionQuery } from 'graphql';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { serviceWithAdmin } from '../../../../test/api.js';
import { createApi } from '../server.js';
import { EXAMPLE_QUESTION } from './example-query.js';

// Debian's build, installed by .ci/provision-services.sh; Playwright's own browser download is not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const LOCATIONS_PAGE = [
  '# Locations',
  '',
  'To create a location, use the endpoint POST /v1/locations with a name and an address.',
  '',
].join('\n');

/** The real API (PGlite, or Postgres with TEST_DATABASE_URL), explorer mounted as in production. */
async function startApiWithExplorer() {
  const sql = await testBackends().at(-1)!.open();
  // The default workspace is this test's own, holding one page that answers the example question.
  const workspaceId = uniqueWorkspace('explorer');
  const config = loadConfig({
    ...process.env,
    REDIS_URL: undefined,
    AGENTIC_RAG_INGEST_MODE: 'inline',
    AGENTIC_RAG_WORKSPACE: workspaceId,
    AGENTIC_RAG_INGEST_ON_START: 'false',
    LOG_LEVEL: 'silent',
  });
  const logger = createJsonLogger({ level: 'error', write: (line) => process.stderr.write(line) });
  const runtime = await createRuntime({ config, sql, logger });
  const { service, authorization } = await serviceWithAdmin(runtime);
  await service.ingest(await service.authenticate(authorization), {
    workspaceId,
    documents: [{ id: 'guides/locations.md', content: LOCATIONS_PAGE }],
  });
  const api = await createApi(service);
  const server: Server = api.server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.stop();
    await dropWorkspace(sql, workspaceId);
    await runtime.close();
    await sql.close();
  };
  return { origin, close, authorization };
}

/** A GET sent byte for byte: fetch() would resolve `..` segments before they reach the server. */
function rawGet(origin: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}/`, { path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The /explorer/assets/... paths the page loads, in page order. */
function assetPaths(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="(\/explorer\/assets\/[^"]+)"/g)].map((match) => match[1]!);
}

describe('GraphQL explorer', () => {
  let api: Awaited<ReturnType<typeof startApiWithExplorer>>;

  beforeAll(async () => {
    api = await startApiWithExplorer();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('serves a page that loads only same-origin assets, under a self-only CSP', async () => {
    const response = await fetch(`${api.origin}/explorer`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(html).toContain(EXAMPLE_QUESTION);
    expect(assetPaths(html).map((path) => path.replace(/-[0-9a-f]{12}\./, '-<hash>.'))).toEqual([
      '/explorer/assets/graphiql-4.1.2.min.css',
      '/explorer/assets/explorer-<hash>.css',
      '/explorer/assets/react-18.3.1.production.min.js',
      '/explorer/assets/react-dom-18.3.1.production.min.js',
      '/explorer/assets/graphiql-4.1.2.min.js',
      '/explorer/assets/explorer-<hash>.js',
    ]);
  });

  it('serves every asset with its content type and a long-lived cache header', async () => {
    const html = await (await fetch(`${api.origin}/explorer`)).text();
    for (const path of assetPaths(html)) {
      const response = await fetch(`${api.origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(
        path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect((await response.arrayBuffer()).byteLength, path).toBeGreaterThan(100);
    }
  });

  it.each([
    '/explorer/assets/graphiql.min.js',
    '/explorer/assets/react-17.0.0.production.min.js',
    '/explorer/assets/explorer.int.test.ts',
    '/explorer/assets/',
    '/explorer/assets/../../../package.json',
    '/explorer/assets/../assets.ts',
    '/explorer/assets/%2e%2e/%2e%2e/package.json',
    '/explorer/assets/..%2f..%2fpackage.json',
    '/explorer/assets/..%5c..%5cpackage.json',
    '/explorer/other',
  ])('answers 404 for %s', async (path) => {
    const { status, body } = await rawGet(api.origin, path);
    expect(status).toBe(404);
    expect(JSON.parse(body)).toMatchObject({ status_code: 404, error_code: 'NOT_FOUND' });
  });

  it('leaves other methods and routes to the API', async () => {
    expect((await fetch(`${api.origin}/explorer`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${api.origin}/healthz`)).status).toBe(200);
  });

  // Introspection nests 15 levels: the depth limit leaves __schema/__type to graphql-js's own rule.
  it("lets GraphiQL's introspection query through the API's query limits", async () => {
    const response = await fetch(`${api.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: api.authorization },
      body: JSON.stringify({
        query: getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true }),
        operationName: 'IntrospectionQuery',
      }),
    });
    const body = (await response.json()) as { data?: { __schema: { queryType: { name: string } } } };
    expect(response.status).toBe(200);
    expect(body.data?.__schema.queryType.name).toBe('Query');
  });

  describe('in headless Chromium', () => {
    let browser: Browser;

    beforeAll(async () => {
      if (!existsSync(CHROMIUM)) {
        throw new Error(
          `Chromium not found at ${CHROMIUM}: run .ci/provision-services.sh as root (it installs Debian's ` +
            'chromium) or set CHROMIUM_PATH',
        );
      }
      browser = await chromium.launch({ executablePath: CHROMIUM });
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('loads GraphiQL from this origin only and runs its example search against /graphql', async () => {
      const page = await browser.newPage();
      const requests: Array<{ method: string; url: string; contentType: string | undefined }> = [];
      page.on('request', (request) =>
        requests.push({
          method: request.method(),
          url: request.url(),
          contentType: request.headers()['content-type'],
        }),
      );
      const answers: Array<{ operation: string; status: number }> = [];
      page.on('response', (response) => {
        if (response.url() !== `${api.origin}/graphql`) return;
        const body = JSON.parse(response.request().postData() ?? '{}') as { operationName?: string };
        answers.push({ operation: body.operationName ?? '(anonymous)', status: response.status() });
      });
      // Page errors, CSP violations and anything else the page logs as an error or warning. Failed
      // loads are logged too; their statuses are checked through `answers` instead.
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error' && message.type() !== 'warning') return;
        if (!message.text().startsWith('Failed to load resource')) {
          problems.push(`console ${message.type()}: ${message.text()}`);
        }
      });

      // The tab signed in already: the explorer sends this key with every operation.
      await page.addInitScript(
        (key) =>
          (
            globalThis as unknown as { sessionStorage: { setItem(name: string, value: string): void } }
          ).sessionStorage.setItem('agentic-rag.apiKey', key),
        api.authorization.slice('Bearer '.length),
      );
      await page.goto(`${api.origin}/explorer`);
      const editor = page.locator('.graphiql-query-editor .CodeMirror');
      await editor.waitFor({ timeout: 20_000 });
      // It opens with the example search (example-query.ts) over the API's default workspace.
      const opening = await editor.evaluate((element) =>
        (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
      );
      expect(opening).toContain('query ExampleSearch');
      expect(opening).toContain(`query: "${EXAMPLE_QUESTION}"`);
      // The example runs as it is and finds the page that answers it.
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.graphiql-response .CodeMirror-code');
      try {
        await result.filter({ hasText: '"sourceId": "guides/locations.md"' }).waitFor({ timeout: 20_000 });
      } catch (error) {
        const shown = await result.innerText().catch(() => '(no result pane)');
        throw new Error(`GraphiQL's result pane never showed the example's hit; it shows: ${shown}`, {
          cause: error,
        });
      }

      // data: URIs are the fonts and icons inlined in GraphiQL's stylesheet; they never leave the page.
      const offOrigin = requests.filter(
        ({ url }) => !url.startsWith(`${api.origin}/`) && !url.startsWith('data:'),
      );
      expect(offOrigin).toEqual([]);
      const queries = requests.filter(({ url }) => url === `${api.origin}/graphql`);
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) {
        expect(query).toMatchObject({ method: 'POST', contentType: 'application/json' });
      }
      expect(problems).toEqual([]);
      expect(answers.filter(({ status }) => status !== 200)).toEqual([]);
      expect(answers).toContainEqual({ operation: 'IntrospectionQuery', status: 200 });
      expect(answers).toContainEqual({ operation: 'ExampleSearch', status: 200 });
      await page.close();
    });
  });
});
