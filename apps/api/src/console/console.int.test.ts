import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePdf } from '../../../../packages/agentic-rag/src/ingest/loaders/pdf-writer.test-support.js';
import { writeEvalReports } from '../eval-reports.test-support.js';
import { CONSOLE_DIST } from './assets.js';
import {
  ARTIFACTS,
  buildConsole,
  CHROMIUM,
  CHROMIUM_ARGS,
  GUIDE,
  REPO,
  startApi as startConsoleApi,
} from './harness.test-support.js';

const WARRANTY_SENTENCE = 'The Zephyr widget warranty lasts forty-two months from the day of delivery.';

/** The API with two golden runs on disk for the Eval runs page, written by the eval's own report writer. */
async function startApi() {
  const evalResults = mkdtempSync(path.join(tmpdir(), 'console-eval-'));
  const api = await startConsoleApi({ AGENTIC_RAG_EVAL_RESULTS_DIR: evalResults });
  const evalRuns = await writeEvalReports(evalResults, api.workspaceId);
  const close = async () => {
    rmSync(evalResults, { recursive: true, force: true });
    await api.close();
  };
  return { ...api, evalRuns, close };
}

describe('web console', () => {
  let api: Awaited<ReturnType<typeof startApi>>;

  beforeAll(async () => {
    buildConsole();
    api = await startApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it('serves the page at / and its console routes, under a self-only CSP, and nothing else', async () => {
    for (const route of ['/', '/documents', '/ask', '/jobs/']) {
      const response = await fetch(`${api.origin}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<div id="root"></div>');
    }
    const html = await (await fetch(`${api.origin}/`)).text();
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await fetch(`${api.origin}${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toMatch(/^text\/(javascript|css); charset=utf-8$/);
    }
  });

  it.each([
    '/assets/index.js',
    '/assets/../index.html',
    '/assets/%2e%2e/index.html',
    '/nothing-here',
    '/documents/x',
  ])('answers 404 for %s', async (route) => {
    const response = await fetch(`${api.origin}${route}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: 'NOT_FOUND' });
  });

  it('leaves /graphql, /explorer, /healthz and /readyz to the API', async () => {
    expect((await fetch(`${api.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${api.origin}/readyz`)).status).toBe(503); // not marked ready in this test
    expect(await (await fetch(`${api.origin}/explorer`)).text()).toContain('GraphQL explorer');
    expect((await fetch(`${api.origin}/graphql`, { method: 'POST' })).status).toBe(401);
  });

  it('refuses an inline document with both content and contentBase64 as INVALID_INPUT', async () => {
    const response = await fetch(`${api.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: api.authorization },
      body: JSON.stringify({
        query: 'mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode } }',
        variables: {
          input: {
            workspaceId: api.workspaceId,
            documents: [{ id: 'a/b.md', content: 'x', contentBase64: 'eA==' }],
          },
        },
      }),
    });
    const body = (await response.json()) as {
      errors: Array<{ message: string; extensions: { code: string } }>;
    };
    expect(body.errors[0]).toMatchObject({
      message: expect.stringContaining('exactly one of content'),
      // INVALID_INPUT's GraphQL code (docs/errors.md).
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    let step = 0;
    const screenshot = async (name: string) => {
      const file = path.join(ARTIFACTS, `${String(++step).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`screenshot: ${path.relative(REPO, file)}`);
    };

    beforeAll(async () => {
      if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: set CHROMIUM_PATH`);
      mkdirSync(ARTIFACTS, { recursive: true });
      expect(existsSync(path.join(CONSOLE_DIST, 'index.html'))).toBe(true);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
      });
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          problems.push(`console error: ${message.text()}`);
        }
      });
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('signs in, uploads Markdown and a PDF, answers from the Markdown with a highlighted citation, deletes', async () => {
      try {
        await journey();
      } catch (error) {
        await screenshot('failure').catch(() => undefined);
        throw error;
      }
      expect(problems).toEqual([]);
    });

    it('switches workspace without showing the last one: a missing one says so, with no rows', async () => {
      await page.goto(`${api.origin}/`);
      const workspace = page.getByLabel('Workspace', { exact: true });
      const documents = page.getByRole('table').first();
      await workspace.fill('nowhere-yet');
      await workspace.press('Enter');
      await page.getByRole('status').filter({ hasText: 'There is no workspace “nowhere-yet” yet' }).waitFor();
      expect(await documents.getByRole('row').count()).toBe(1); // the header only
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await screenshot('workspace-missing');
      await workspace.fill(api.workspaceId);
      await workspace.press('Enter');
      await documents.getByText('uploads/zephyr-guide.md').first().waitFor();
      expect(problems).toEqual([]);
    });

    it("shows the graph and jobs pages, with the API's answer or its error code", async () => {
      await page.goto(`${api.origin}/graph`);
      await page.getByLabel(/Entity ids/).fill('Thing:nothing at all');
      await page.getByRole('button', { name: 'Expand' }).click();
      await page
        .getByRole('status')
        .or(page.getByRole('alert'))
        .filter({ hasText: /No entity|[A-Z_]{5,}:/ })
        .first()
        .waitFor();
      await screenshot('graph');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Jobs' }).click();
      // The embedded default has no queue: the uploads ran inline and are listed as jobs, with no
      // error and no dead letters section (there is no queue for a job to die in).
      const jobs = page.getByRole('table', { name: 'Latest jobs, newest first' });
      await jobs.getByRole('button', { name: 'uploads/zephyr-guide.md' }).first().waitFor();
      await page.getByText(/has no queue/).waitFor();
      expect(await jobs.getByRole('row').nth(1).getByText('completed').count()).toBe(1);
      expect(await page.getByRole('heading', { name: 'Dead letters' }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await jobs.getByRole('button', { name: 'uploads/zephyr-guide.md' }).first().click();
      await page.locator('dl.job').getByText('ingest-documents').waitFor();
      await screenshot('jobs');
      expect(problems).toEqual([]);
    });

    it('lists the eval runs newest first and charts the chosen one against the run before', async () => {
      await page
        .getByRole('navigation', { name: 'Console' })
        .getByRole('link', { name: 'Eval runs' })
        .click();
      await page.getByRole('heading', { name: 'Eval runs', level: 1 }).waitFor();
      const table = page.getByRole('table').first();
      await table.getByRole('button', { name: `Show ${api.evalRuns.newer.id}` }).waitFor();
      // Newest first; the malformed report written beside them is not a row.
      expect(
        await table
          .getByRole('button', { name: /^Show / })
          .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label'))),
      ).toEqual([`Show ${api.evalRuns.newer.id}`, `Show ${api.evalRuns.older.id}`]);
      // The newest is shown at first: its scores as a chart named by its title and values.
      await page
        .getByRole('img', { name: /^Scores: Hit rate 100\.0%, MRR 1\.000, Fact recall 100\.0%/ })
        .waitFor();
      await page
        .getByRole('img', { name: /^Hit rate by category: endpoint 100\.0%, schema 100\.0%$/ })
        .waitFor();
      const hitRate = page.getByRole('row', { name: /^Hit rate / });
      expect(await hitRate.getByRole('cell').allInnerTexts()).toEqual([
        '100.0%',
        '50.0%',
        '+50.0 pp (better)',
      ]);
      await screenshot('eval-runs');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot('eval-runs-phone');
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });
      await table.getByRole('button', { name: `Show ${api.evalRuns.older.id}` }).click();
      await page
        .getByRole('img', { name: /^Scores: Hit rate 50\.0%, MRR 0\.250, Fact recall 50\.0%/ })
        .waitFor();
      await page.getByRole('heading', { name: 'No earlier run to compare with' }).waitFor();
      expect(problems).toEqual([]);
    });

    it('finds one document among 500 by searching the whole workspace, not the page loaded', async () => {
      await api.ingest(
        Array.from({ length: 500 }, (_, index) => {
          const number = String(index).padStart(3, '0');
          return {
            id: `bulk/item-${number}.md`,
            content: `# Stock item ${number}\n\nShelf ${index % 40}.\n`,
          };
        }),
      );
      await page.goto(`${api.origin}/`);
      const documents = page.getByRole('table').first();
      await page
        .getByRole('status')
        .filter({ hasText: /^50\d in the workspace$/ })
        .waitFor();
      // Newest first: the batch (one update time) by id from the end. Only the first page of 100 is
      // loaded, and it does not hold the one asked for.
      await documents.getByText('bulk/item-499.md').first().waitFor();
      expect(await documents.getByText('bulk/item-037.md').count()).toBe(0);
      // A delete on the second page keeps both pages and the place: one row fewer, nothing reloaded.
      await page.getByRole('button', { name: 'Load more' }).click();
      await documents.getByText('bulk/item-300.md').first().waitFor();
      const rows = documents.locator('tbody tr');
      expect(await rows.count()).toBe(200);
      await page.getByRole('button', { name: 'Delete bulk/item-350.md' }).click();
      await page.getByRole('button', { name: 'Confirm delete bulk/item-350.md' }).click();
      // The row goes once the API has deleted it (its button goes earlier, while it says Deleting…).
      await rows.filter({ hasText: 'bulk/item-350.md' }).waitFor({ state: 'detached' });
      expect(await rows.count()).toBe(199);
      await page
        .getByRole('status')
        .filter({ hasText: /^50\d in the workspace$/ })
        .waitFor();
      await page.getByLabel('Sort').selectOption('PATH');
      await documents.getByText('bulk/item-000.md').first().waitFor();
      expect(await rows.first().innerText()).toContain('bulk/item-000.md');
      await page.getByLabel('Sort').selectOption('UPDATED');
      await documents.getByText('bulk/item-499.md').first().waitFor();
      await page.getByLabel('Search documents').fill('ITEM-037');
      await page.getByRole('status').filter({ hasText: '1 matching “ITEM-037”' }).waitFor();
      await documents.getByText('bulk/item-037.md').first().waitFor();
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(1);
      await screenshot('search-500');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot('search-500-phone');
      // On a phone the row's Delete is on the screen, nothing scrolls sideways, the header is short.
      const remove = (await page.getByRole('button', { name: 'Delete bulk/item-037.md' }).boundingBox())!;
      expect(remove.x + remove.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect((await page.locator('header').boundingBox())!.height).toBeLessThan(844 / 8);
      await page.setViewportSize({ width: 1280, height: 800 });
      // By title too: the heading the loader took for it.
      await page.getByLabel('Search documents').fill('stock item 012');
      await documents.getByText('bulk/item-012.md').first().waitFor();
      expect(problems).toEqual([]);
    });

    async function journey() {
      await page.goto(`${api.origin}/`);
      // A wrong key is refused with the API's code, and nothing is kept.
      await page.getByLabel('API key').fill('ar_not-a-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'UNAUTHENTICATED' }).waitFor();
      expect(await page.evaluate("sessionStorage.getItem('agentic-rag.apiKey')")).toBeNull();
      await page.getByLabel('API key').fill(api.key);
      await screenshot('sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const workspace = page.getByLabel('Workspace', { exact: true });
      await workspace.fill(api.workspaceId);
      await workspace.press('Enter');
      await page.getByRole('heading', { name: 'Documents', exact: true }).first().waitFor();
      expect(await page.evaluate("sessionStorage.getItem('agentic-rag.apiKey')")).toBe(api.key);

      // The Markdown file is dropped on the zone, the PDF chosen with the file input.
      // Page code as text: this file is compiled without the DOM's types.
      const dropped = await page.evaluateHandle(
        `(() => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([${JSON.stringify(GUIDE)}], 'zephyr-guide.md', { type: 'text/markdown' }));
          return transfer;
        })()`,
      );
      await page
        .getByRole('region', { name: 'Upload documents' })
        .dispatchEvent('drop', { dataTransfer: dropped });
      const pdf = await writePdf(
        [[{ text: 'Pelican pumps are serviced every six weeks by a certified fitter.', y: 700 }]],
        'Pelican pumps',
      );
      await page.getByLabel('Choose files to upload').setInputFiles({
        name: 'pelican-pumps.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(pdf),
      });
      const uploads = page.getByRole('region', { name: 'Uploads' }).getByRole('listitem');
      for (const name of ['zephyr-guide.md', 'pelican-pumps.pdf']) {
        const item = uploads.filter({ hasText: name });
        await item.filter({ hasText: /ready|failed/ }).waitFor();
        expect(await item.innerText()).toMatch(/ready$/);
      }
      const documents = page.getByRole('table').first();
      await documents
        .getByRole('link', { name: 'uploads/pelican-pumps.pdf' })
        .or(documents.getByText('uploads/pelican-pumps.pdf'))
        .first()
        .waitFor();
      await documents.getByText('uploads/zephyr-guide.md').first().waitFor();
      await screenshot('uploaded');

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Ask' }).click();
      const question = 'How long does the Zephyr widget warranty last?';
      await page.getByRole('textbox', { name: 'Ask a question' }).fill(question);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
      // Each question is a turn of a thread with its own URL, named by the question.
      const answer = page.getByRole('region', { name: question });
      await answer.getByText(/Self-check (passed|failed)/).waitFor();
      expect(await answer.locator('.answer-text').innerText()).toMatch(/forty-two months/);
      const threadUrl = page.url();
      expect(threadUrl).toMatch(/\/ask\?t=[0-9a-f-]{36}$/);
      // The why panel: each retrieved passage's channels, with score and rank.
      const why = page.getByRole('region', { name: 'Why these passages' });
      await why.getByRole('listitem').first().waitFor();
      await why.locator('summary').first().click();
      const channels = why.getByRole('table').first();
      expect(await channels.getByRole('rowheader').allInnerTexts()).toEqual(
        expect.arrayContaining(['fused']),
      );
      expect((await channels.getByRole('row').count()) >= 3).toBe(true); // header, a channel, fused
      // A follow-up continues the thread: same URL, both turns shown, the history counts two.
      const followUp = 'And what voids it?';
      await page.getByRole('textbox', { name: 'Ask a follow-up' }).fill(followUp);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
      await page
        .getByRole('region', { name: followUp })
        .getByText(/Self-check (passed|failed)/)
        .waitFor();
      expect(page.url()).toBe(threadUrl);
      const history = page.getByRole('navigation', { name: 'History' });
      await history.getByText('2 questions').waitFor();
      expect(await history.getByRole('link', { name: question }).getAttribute('aria-current')).toBe('page');
      // Copy: the answer's text and its numbered sources, as plain text.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.origin });
      await answer.getByRole('button', { name: 'Copy answer with sources' }).click();
      await answer.getByText('Copied the answer and its sources.').waitFor();
      const copied = String(await page.evaluate('navigator.clipboard.readText()'));
      expect(copied).toMatch(/forty-two months[\s\S]*\n\nSources:\n\[1\] /);
      expect(copied).toContain('uploads/zephyr-guide.md');
      // Rendered, not raw: no Markdown emphasis or fences left in any answer's text.
      expect((await page.locator('.answer-text').allInnerTexts()).join('\n')).not.toMatch(/\*\*|```/);
      await screenshot('answered');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot('answered-phone');
      // Nothing wider than a phone's screen: no sideways scrolling.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });

      const sources = answer.getByRole('region', { name: 'Sources' });
      await sources
        .getByRole('link')
        .filter({ hasText: /zephyr|Zephyr/ })
        .first()
        .click();
      const marked = page
        .getByRole('region', { name: /Zephyr widget care|uploads\/zephyr-guide\.md/ })
        .locator('mark');
      await marked.first().waitFor();
      expect(await marked.first().innerText()).toContain('forty-two months');
      expect(WARRANTY_SENTENCE).toContain('forty-two months');
      await screenshot('citation');
      // Back returns to the thread as it was, both answers shown; Forward to the cited span again.
      await page.goBack();
      await page.getByRole('region', { name: followUp }).waitFor();
      expect(await page.getByRole('region', { name: question }).locator('.answer-text').innerText()).toMatch(
        /forty-two months/,
      );
      expect(page.url()).toBe(threadUrl);
      await page.goForward();
      await marked.first().waitFor();

      await page.getByRole('link', { name: 'Close document' }).click();
      await page.getByRole('button', { name: 'Delete uploads/pelican-pumps.pdf' }).click();
      await page.getByRole('button', { name: 'Confirm delete uploads/pelican-pumps.pdf' }).click();
      await page
        .getByRole('button', { name: 'Delete uploads/pelican-pumps.pdf' })
        .waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: '1 in the workspace' }).waitFor();
      expect(await page.getByRole('table').first().innerText()).not.toContain('pelican-pumps.pdf');
      await screenshot('deleted');
    }
  });
});
