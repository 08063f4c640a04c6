import type { AddressInfo } from 'node:net';
import { isBlockedAddress, loadConfig, silentLogger, type RagRuntime, type Sql } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { fixturePage, serveFixtureSite, type FixtureSite } from '@agentic-rag/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../test/backends.js';
import { serviceWithAdmin } from '../../../test/api.js';
import { createApi } from './server.js';

// Response shapes differ per query; the assertions are what check them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = Record<string, any>;

const CRAWL = `mutation Crawl($input: CrawlSiteInput!) {
  crawlSite(input: $input) {
    mode
    jobs { id kind status corpusVersion }
    summary { site chunks bytes stoppedBy corpusVersion
      pages { requested fetched notModified gone disallowed skipped failed }
      documents { added updated unchanged removed failed }
      failures { sourceId code } }
    schedule { id everySeconds }
  }
}`;

/**
 * crawlSite over HTTP, inline (the queue path is queue/crawl-jobs.int.test.ts). The API's runtime
 * carries the loopback allowance the http_fetch tests use (the resolver hands the runtime to the
 * crawl as a worker does); every other private address is still refused, as the last case shows.
 */
describe('GraphQL crawlSite', () => {
  let sql: Sql;
  let runtime: RagRuntime;
  let site: FixtureSite;
  let stop: () => Promise<void>;
  let graphql: (query: string, variables: unknown) => Promise<{ data: Data | null; errors?: Data[] }>;
  const ws = uniqueWorkspace('gql-crawl');

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      ...process.env,
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
      LOG_LEVEL: 'silent',
    });
    runtime = await createRuntime({ config, sql, logger: silentLogger });
    Object.assign(runtime, {
      crawlAddressPolicy: (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip),
    });
    const { service, authorization } = await serviceWithAdmin(runtime);
    const api = await createApi(service);
    stop = api.stop;
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/graphql`;
    graphql = async (query, variables) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data: Data | null; errors?: Data[] };
    };
    site = await serveFixtureSite({
      robots: 'User-agent: *\nDisallow: /private/\n',
      pages: {
        '/': fixturePage('Home', 'The carrier guide.', ['/carriers', '/private/keys']),
        '/carriers': fixturePage('Carriers', 'A carrier is suspended after three failed pickups.'),
      },
    });
  });
  afterAll(async () => {
    await site.close();
    await stop();
    await sql.query('DELETE FROM rag_crawl_pages WHERE workspace_id = $1', [ws]);
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await runtime.close();
    await sql.close();
  });

  it('crawls inline and answers with the finished job and the summary; a recrawl is all 304', async () => {
    const input = { workspaceId: ws, url: `${site.origin}/`, rate: 100 };
    const first = await graphql(CRAWL, { input });
    expect(first.errors).toBeUndefined();
    expect(first.data!.crawlSite).toMatchObject({
      mode: 'inline',
      jobs: [{ kind: 'crawl-site', status: 'completed' }],
      summary: {
        site: site.origin,
        stoppedBy: null,
        pages: { requested: 2, fetched: 2, disallowed: 1 },
        documents: { added: 2, failed: 0 },
      },
      schedule: null,
    });
    const again = await graphql(CRAWL, { input });
    expect(again.data!.crawlSite.summary).toMatchObject({
      chunks: 0,
      pages: { notModified: 2, fetched: 0 },
      documents: { unchanged: 2 },
      corpusVersion: first.data!.crawlSite.summary.corpusVersion,
    });
    const document = await runtime.store.getDocument(ws, `${site.origin}/carriers`);
    expect(document).toMatchObject({ url: `${site.origin}/carriers`, title: 'Carriers' });
  });

  it.each([
    [{ url: 'file:///etc/passwd' }, 'BAD_USER_INPUT'],
    [{ url: 'https://docs.example.test/', maxPages: 0 }, 'BAD_USER_INPUT'],
    [{ url: 'https://docs.example.test/', schedule: '24h' }, 'BAD_USER_INPUT'],
    [{ url: 'http://169.254.169.254/latest/meta-data/' }, 'FETCH_BLOCKED'],
  ])('refuses %j with %s', async (fields, code) => {
    const result = await graphql(CRAWL, { input: { workspaceId: ws, ...fields } });
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.extensions?.code).toBe(code);
  });
});
