import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueWorkspace } from '../../../../test/backends.js';
import { runCliScript } from '../../../../test/cli.js';
import { fixturePage, serveFixtureSite, type FixtureSite } from '../testing.js';

/**
 * `rag:ingest --url` as a user runs it. A CLI has no way to loosen the address policy (only code
 * can, as the http_fetch tool's tests do), so the local fixture site must be refused: that is the
 * end-to-end check that the command's fetches go through the policy. Crawling proper is tested in
 * crawl/ and queue/ with the loopback allowance.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('pnpm rag:ingest --url', () => {
  let site: FixtureSite;
  const env = () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL, AGENTIC_RAG_INGEST_MODE: 'inline' });
  const workspace = uniqueWorkspace('cli-crawl');

  beforeAll(async () => {
    site = await serveFixtureSite({ robots: '', pages: { '/': fixturePage('Home', 'Local.') } });
  });
  afterAll(async () => {
    await site.close();
  });

  it('refuses a site on a private address before any request', async () => {
    const run = await runCliScript(
      'ingest.ts',
      ['--url', `${site.origin}/`, '--workspace', workspace],
      env(),
    );
    expect(run.stderr).toContain('error [FETCH_BLOCKED]: 127.0.0.1 is a blocked address');
    expect(run.code).toBe(1);
    expect(site.requests).toEqual([]);
  });

  it.each([
    [['--url', 'ftp://docs.example.test/'], 'url must be an absolute http(s) URL'],
    [['--url', 'https://docs.example.test/', '--rate', 'fast'], '--rate must be a number'],
    [['--url', 'https://docs.example.test/', '--max-pages', '0'], 'maxPages'],
    [
      ['--url', 'https://docs.example.test/', '--every', '5s'],
      'every must be a duration of at least a minute',
    ],
    [['--url', 'https://docs.example.test/', '--every', '24h'], '--every needs the queue'],
    [['--rate', '3'], '--rate goes with --url'],
  ])('rejects %j with INVALID_INPUT', async (args, message) => {
    const run = await runCliScript('ingest.ts', [...args, '--workspace', workspace], env());
    expect(run.stderr).toContain('error [INVALID_INPUT]');
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
  });
});
