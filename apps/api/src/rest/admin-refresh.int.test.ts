import type { AddressInfo } from 'node:net';
import {
  isBlockedAddress,
  loadConfig,
  silentLogger,
  type RagRuntime,
  type RagService,
  type Sql,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { fixturePage, serveFixtureSite, type FixtureSite } from '@agentic-rag/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { serviceWithAdmin } from '../../../../test/api.js';
import { createApi } from '../server.js';

/** Lets exactly the loopback fixture site through, as the crawl tests do. */
const allowTestServer = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POST /admin/kb/refresh on a real API server against a real local site crawled into the
 * workspace first: every outcome (unchanged by 304, updated, added, removed by 404 and by 410),
 * the forced refetch, and each refusal with its code — and, for the refusals that are about where
 * a request may go, that the site was not asked.
 */
describe('POST /admin/kb/refresh', () => {
  let sql: Sql;
  let runtime: RagRuntime;
  let service: RagService;
  let site: FixtureSite;
  let elsewhere: FixtureSite;
  let stop: () => Promise<void>;
  let base: string;
  let admin: string;
  const ws = uniqueWorkspace('refresh');

  const refresh = async (query: string, authorization = admin, method = 'POST'): Promise<Reply> => {
    const response = await fetch(`${base}/admin/kb/refresh?workspace=${ws}&${query}`, {
      method,
      headers: { authorization },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const page = (path: string) => `url=${encodeURIComponent(`${site.origin}${path}`)}`;
  const pageRequests = (path: string) => site.requests.filter((request) => request.path === path);

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql, logger: silentLogger });
    Object.assign(runtime, { crawlAddressPolicy: allowTestServer });
    ({ service, authorization: admin } = await serviceWithAdmin(runtime));
    const api = await createApi(service);
    stop = api.stop;
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    site = await serveFixtureSite({
      robots: 'User-agent: *\nDisallow: /private/\n',
      pages: {
        '/': fixturePage('Home', 'The carrier guide.', ['/carriers', '/depots', '/retired']),
        '/carriers': fixturePage('Carriers', 'A carrier is suspended after three failed pickups.'),
        '/depots': fixturePage('Depots', 'A depot opens at six.'),
        '/retired': fixturePage('Retired', 'This page will answer 410.'),
        '/private/keys': fixturePage('Keys', 'Never fetched.'),
      },
    });
    elsewhere = await serveFixtureSite({ pages: { '/': fixturePage('Elsewhere', 'Not crawled.') } });
    const crawled = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin },
      body: JSON.stringify({
        query: `mutation($input: CrawlSiteInput!) { crawlSite(input: $input) { summary { documents { added } } } }`,
        variables: { input: { workspaceId: ws, url: `${site.origin}/`, rate: 100 } },
      }),
    });
    const summary = (await crawled.json()) as {
      data: { crawlSite: { summary: { documents: { added: number } } } };
    };
    expect(summary.data.crawlSite.summary.documents.added).toBe(4);
  });

  beforeEach(() => {
    site.requests.length = 0;
    elsewhere.requests.length = 0;
  });

  afterAll(async () => {
    await site.close();
    await elsewhere.close();
    await stop();
    await sql.query('DELETE FROM rag_crawl_pages WHERE workspace_id = $1', [ws]);
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await runtime.close();
    await sql.close();
  });

  it('asks with the stored validators: an unchanged page is a 304 and the corpus version stays', async () => {
    const before = await runtime.store.corpusVersion(ws);
    const reply = await refresh(page('/carriers'));
    expect(reply).toEqual({
      status: 200,
      body: {
        url: `${site.origin}/carriers`,
        site: site.origin,
        outcome: 'unchanged',
        http_status: 304,
        conditional: true,
        chunks: 0,
        corpus_version: before,
      },
    });
    const [request] = pageRequests('/carriers');
    expect(request?.headers['if-none-match']).toMatch(/^"[0-9a-f]{16}"$/);
    // robots.txt first, then exactly the one page: links are not followed.
    expect(site.requests.map((entry) => entry.path)).toEqual(['/robots.txt', '/carriers']);
  });

  it('updates a changed page, and the document carries the new text', async () => {
    const before = await runtime.store.corpusVersion(ws);
    site.pages.set(
      '/carriers',
      fixturePage('Carriers and fleets', 'A carrier is suspended after two failed pickups.'),
    );
    const reply = await refresh(page('/carriers#suspension'));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      url: `${site.origin}/carriers`,
      outcome: 'updated',
      http_status: 200,
    });
    expect(reply.body.chunks).toBeGreaterThan(0);
    expect(reply.body.corpus_version).toBeGreaterThan(before);
    expect(await runtime.store.getDocument(ws, `${site.origin}/carriers`)).toMatchObject({
      title: 'Carriers and fleets',
    });
    // The new validators are stored: the next refresh is a 304 again.
    expect((await refresh(page('/carriers'))).body).toMatchObject({ outcome: 'unchanged', http_status: 304 });
  });

  it('with full=true refetches without validators; the same text stays unchanged', async () => {
    const reply = await refresh(`${page('/depots')}&full=true`);
    expect(reply.body).toMatchObject({
      outcome: 'unchanged',
      http_status: 200,
      conditional: false,
      chunks: 0,
    });
    const [request] = pageRequests('/depots');
    expect(request?.headers['if-none-match']).toBeUndefined();
    expect(request?.headers['if-modified-since']).toBeUndefined();
  });

  it('adds a new page of the crawled site, and re-adds one deleted through the API in full', async () => {
    site.pages.set('/fleets', fixturePage('Fleets', 'A fleet is a set of vehicles.'));
    expect((await refresh(page('/fleets'))).body).toMatchObject({ outcome: 'added', http_status: 200 });
    expect(await runtime.store.getDocument(ws, `${site.origin}/fleets`)).toMatchObject({ title: 'Fleets' });

    await runtime.store.deleteDocuments(ws, [`${site.origin}/depots`]);
    const again = await refresh(page('/depots'));
    expect(again.body).toMatchObject({ outcome: 'added', http_status: 200, conditional: false });
  });

  it('removes the document of a page that answers 404 or 410; a second refresh is NOT_FOUND', async () => {
    site.pages.delete('/fleets');
    expect((await refresh(page('/fleets'))).body).toMatchObject({ outcome: 'removed', http_status: 404 });
    expect(await runtime.store.getDocument(ws, `${site.origin}/fleets`)).toBeNull();
    const second = await refresh(page('/fleets'));
    expect(second).toMatchObject({ status: 404, body: { error_code: 'NOT_FOUND' } });

    site.goneForGood.add('/retired');
    expect((await refresh(page('/retired'))).body).toMatchObject({ outcome: 'removed', http_status: 410 });
    expect(await runtime.store.getDocument(ws, `${site.origin}/retired`)).toBeNull();
  });

  it('refuses a page robots.txt disallows without requesting it', async () => {
    const reply = await refresh(page('/private/keys'));
    expect(reply).toMatchObject({ status: 403, body: { error_code: 'ROBOTS_DISALLOWED' } });
    expect(pageRequests('/private/keys')).toEqual([]);
  });

  it('refuses a URL of a site this workspace never crawled, without contacting it', async () => {
    const reply = await refresh(`url=${encodeURIComponent(`${elsewhere.origin}/`)}`);
    expect(reply).toMatchObject({ status: 403, body: { error_code: 'SOURCE_OUTSIDE_ROOT' } });
    expect(elsewhere.requests).toEqual([]);
  });

  it('goes through the address policy: metadata literals, and a crawled site whose address is now blocked', async () => {
    const metadata = await refresh(`url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`);
    expect(metadata).toMatchObject({ status: 403, body: { error_code: 'FETCH_BLOCKED' } });

    // The same site, with the policy every deployment runs (loopback blocked): refused in the
    // socket's lookup before anything is sent, and the document is kept.
    Object.assign(runtime, { crawlAddressPolicy: isBlockedAddress });
    try {
      const localhost = site.origin.replace('127.0.0.1', 'localhost');
      const viaName = await refresh(`url=${encodeURIComponent(`${localhost}/carriers`)}`);
      // localhost is another origin than 127.0.0.1: never crawled, so refused before any lookup.
      expect(viaName).toMatchObject({ status: 403, body: { error_code: 'SOURCE_OUTSIDE_ROOT' } });
      const literal = await refresh(page('/carriers'));
      expect(literal).toMatchObject({ status: 403, body: { error_code: 'FETCH_BLOCKED' } });
      expect(site.requests).toEqual([]);
    } finally {
      Object.assign(runtime, { crawlAddressPolicy: allowTestServer });
    }
    expect(await runtime.store.getDocument(ws, `${site.origin}/carriers`)).not.toBeNull();
  });

  it.each([
    ['', 400, 'INVALID_INPUT'],
    [`url=${encodeURIComponent('file:///etc/passwd')}`, 400, 'INVALID_INPUT'],
    ['url=not%20a%20url', 400, 'INVALID_INPUT'],
    [`url=${encodeURIComponent('https://docs.example.test/')}&full=maybe`, 400, 'INVALID_INPUT'],
  ])('refuses the query %j with %i %s', async (query, status, code) => {
    expect(await refresh(query)).toMatchObject({ status, body: { error_code: code } });
  });

  it('is POST only, needs a key, and needs an admin key: a writer may crawl but not refresh', async () => {
    expect(await refresh(page('/carriers'), admin, 'GET')).toMatchObject({
      status: 405,
      body: { error_code: 'INVALID_PARAMETER' },
    });
    expect(await refresh(page('/carriers'), '')).toMatchObject({
      status: 401,
      body: { error_code: 'UNAUTHENTICATED' },
    });
    const { key } = await service.keys.create({
      workspaceId: ws,
      role: 'writer',
      label: 'w',
      createdBy: 'test',
    });
    expect(await refresh(page('/carriers'), `Bearer ${key}`)).toMatchObject({
      status: 403,
      body: { error_code: 'FORBIDDEN' },
    });
    expect(site.requests).toEqual([]);
  });

  it('audits every refresh with its URL and outcome code', async () => {
    const rows = await sql.query<{ target: string; outcome: string }>(
      `SELECT target, outcome FROM rag_audit WHERE workspace_id = $1 AND operation = 'refreshUrl' ORDER BY id`,
      [ws],
    );
    expect(rows.rows.slice(0, 2)).toEqual([
      { target: `${site.origin}/carriers`, outcome: 'ok' },
      { target: `${site.origin}/carriers#suspension`, outcome: 'ok' },
    ]);
    expect(rows.rows.map((row) => row.outcome)).toContain('ROBOTS_DISALLOWED');
    expect(rows.rows.map((row) => row.outcome)).toContain('SOURCE_OUTSIDE_ROOT');
  });
});
