import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  buildConsole,
  CHROMIUM,
  CHROMIUM_ARGS,
  REPO,
  startApi as startConsoleApi,
} from '../console/harness.test-support.js';
const KEY_ITEM = 'agentic-rag.apiKey';

/** One /graphql answer a tab got: the key it sent, `(none)` without one. */
interface Answer {
  key: string;
  status: number;
}

/** The API with a page in its default workspace that the explorer's example query finds. */
async function startApi() {
  const api = await startConsoleApi();
  await api.ingest([
    {
      id: 'guides/locations.md',
      content: '# Locations\n\nTo create a location, use the endpoint POST /v1/locations.\n',
    },
  ]);
  return api;
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
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
