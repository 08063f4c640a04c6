import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJsonLogger, loadConfig } from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceWithAdmin } from '../../../../test/api.js';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { createApi } from '../server.js';

// Debian's build, installed by .ci/provision-services.sh; Playwright's own browser download is not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
// Numbered after the console test's screenshots, in the same folder.
const ARTIFACTS = path.join(REPO, 'artifacts', 'console');
const KEY_ITEM = 'agentic-rag.apiKey';

/** One /graphql answer a tab got: the key it sent, `(none)` without one. */
interface Answer {
  key: string;
  status: number;
}

/** The console as `pnpm build` makes it, from the sources under test (as console.int.test.ts does). */
function buildConsole(): void {
  const root = path.join(REPO, 'apps', 'console');
  const vite = createRequire(path.join(root, 'package.json')).resolve('vite/package.json');
  const result = spawnSync(
    process.execPath,
    [path.join(path.dirname(vite), 'bin', 'vite.js'), 'build', '--logLevel', 'error'],
    { cwd: root, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`vite build failed: ${result.stderr}`);
}

/** The real API with console and explorer; its default workspace holds a page the example query finds. */
async function startApi() {
  const sql = await testBackends().at(-1)!.open();
  const workspaceId = uniqueWorkspace('explorer-session');
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
  const { service, key, authorization } = await serviceWithAdmin(runtime);
  await service.ingest(await service.authenticate(authorization), {
    workspaceId,
    documents: [
      {
        id: 'guides/locations.md',
        content: '# Locations\n\nTo create a location, use the endpoint POST /v1/locations.\n',
      },
    ],
  });
  const api = await createApi(service);
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
  const close = async () => {
    api.server.closeAllConnections();
    await new Promise((resolve) => api.server.close(resolve));
    await api.stop();
    await dropWorkspace(sql, workspaceId);
    await runtime.close();
    await sql.close();
  };
  return { origin, key, close };
}

describe('the explorer shares the console sign-in', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let browser: Browser;
  let context: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
    mkdirSync(ARTIFACTS, { recursive: true });
    buildConsole();
    api = await startApi();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  /** A tab of this test's browser context, watched for errors, with the answers to its /graphql requests. */
  async function open(route: string): Promise<{ page: Page; answers: Answer[] }> {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        problems.push(`console error: ${message.text()}`);
      }
    });
    const answers: Answer[] = [];
    page.on('response', (response) => {
      if (response.url() !== `${api.origin}/graphql`) return;
      const sent = response.request().headers()['authorization'] ?? '(none)';
      answers.push({ key: sent.replace(/^Bearer /, ''), status: response.status() });
    });
    await page.goto(`${api.origin}${route}`);
    return { page, answers };
  }

  async function runExample(explorer: Page): Promise<void> {
    await explorer.locator('.graphiql-execute-button').click();
    await explorer
      .locator('.graphiql-response .CodeMirror-code')
      .filter({ hasText: '"sourceId": "guides/locations.md"' })
      .waitFor();
  }

  /** The key stays in sessionStorage: not in the URL, not in localStorage (GraphiQL's own storage). */
  async function expectKeyOnlyInSession(page: Page, key: string | null): Promise<void> {
    expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(KEY_ITEM)})`)).toBe(key);
    expect(page.url()).not.toContain(api.key);
    expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(api.key);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot: ${path.relative(REPO, file)}`);
  }

  it('takes the key from a signed-in console tab, and forgets it when the console signs out', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page: consoleTab } = await open('/');
    await consoleTab.getByLabel('API key').fill(api.key);
    await consoleTab.getByRole('button', { name: 'Sign in' }).click();
    await consoleTab.getByRole('button', { name: 'Sign out' }).waitFor();

    const { page: explorer, answers } = await open('/explorer');
    await runExample(explorer);
    expect(answers.length).toBeGreaterThanOrEqual(2); // the schema and the example
    expect(answers.filter(({ key, status }) => key !== api.key || status !== 200)).toEqual([]);
    expect(await explorer.getByRole('form', { name: 'Sign in' }).count()).toBe(0);
    await expectKeyOnlyInSession(explorer, api.key);
    await screenshot(explorer, '14-explorer-shared-sign-in');

    // A console tab opened now is signed in by the first one, without the sign-in page.
    const { page: secondConsole } = await open('/');
    await secondConsole.getByRole('button', { name: 'Sign out' }).waitFor();
    await expectKeyOnlyInSession(secondConsole, api.key);

    await consoleTab.getByRole('button', { name: 'Sign out' }).click();
    await explorer.getByRole('form', { name: 'Sign in' }).waitFor();
    await explorer.getByText('The console signed out.').waitFor();
    await expectKeyOnlyInSession(explorer, null);
    await secondConsole.getByLabel('API key').waitFor();
    await expectKeyOnlyInSession(secondConsole, null);
    await screenshot(explorer, '15-explorer-signed-out');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks for a key when no console tab is signed in, says when the API refuses one, runs with a good one', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page: explorer, answers } = await open('/explorer');
    const signIn = explorer.getByRole('form', { name: 'Sign in' });
    await signIn.waitFor();
    await explorer.locator('.graphiql-query-editor .CodeMirror').waitFor();
    await screenshot(explorer, '16-explorer-asks-for-key');

    await signIn.getByLabel('API key').fill('ar_not-a-key');
    await signIn.getByRole('button', { name: 'Use key' }).click();
    await explorer.getByText('The API refused that key (401).').waitFor();
    await expectKeyOnlyInSession(explorer, null);

    await signIn.getByLabel('API key').fill(api.key);
    await signIn.getByRole('button', { name: 'Use key' }).click();
    await signIn.waitFor({ state: 'detached' });
    await runExample(explorer);
    // Nothing was sent without a key; the bad key was refused, the good one never.
    expect(answers.filter(({ key }) => key !== 'ar_not-a-key' && key !== api.key)).toEqual([]);
    expect(answers.filter(({ key }) => key === 'ar_not-a-key').length).toBeGreaterThan(0);
    expect(answers.filter(({ key, status }) => (key === api.key) !== (status === 200))).toEqual([]);
    await expectKeyOnlyInSession(explorer, api.key);
    await screenshot(explorer, '17-explorer-pasted-key');
    expect(problems).toEqual([]);
    await context.close();
  });
});
