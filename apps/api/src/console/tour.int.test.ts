import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestTestCorpus } from '../../../mcp/src/test-corpus.js';
import { uniqueWorkspace } from '../../../../test/backends.js';
import {
  ARTIFACTS,
  buildConsole,
  CHROMIUM,
  CHROMIUM_ARGS,
  GUIDE,
  REPO,
  startApi,
} from './harness.test-support.js';

const QUESTIONS = {
  first: 'What endpoints create a location?',
  followUp: 'And which one deletes it?',
  third: 'How long does the Zephyr widget warranty last?',
};

/**
 * The newcomer's tour, as one person would take it, at a desktop's width and a phone's: sign in,
 * upload, ask three questions (one a follow-up), open a citation and come back, switch workspace,
 * browse the graph from a search, and find one document among 500. At every step: no error shown,
 * no script error, no raw Markdown, nothing wider than the screen. Screenshots of each step go to
 * artifacts/console/tour-<width>-<step>.png.
 */
describe('the newcomer tour', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let browser: Browser;

  beforeAll(async () => {
    buildConsole();
    api = await startApi();
    await ingestTestCorpus(api.runtime, api.workspaceId);
    await api.ingest(
      Array.from({ length: 500 }, (_, index) => {
        const number = String(index).padStart(3, '0');
        return { id: `stock/item-${number}.md`, content: `# Stock item ${number}\n\nShelf ${index % 40}.\n` };
      }),
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it.each([
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])('completes at $width px with no error and no raw Markdown', async ({ width, height }) => {
    const context = await browser.newContext({ viewport: { width, height } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.origin });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    let step = 0;
    /** Checks what every step must hold, then photographs it. */
    const checkpoint = async (name: string) => {
      expect(await page.getByRole('alert').allInnerTexts(), name).toEqual([]);
      // What sticks out past the screen's right edge (outside any box that scrolls or clips it),
      // named, so a failure says where to look.
      const overflowing = await page.evaluate(`[...document.querySelectorAll('body *')]
        .filter((element) => {
          if (element.getBoundingClientRect().right <= ${width} + 1) return false;
          for (let box = element.parentElement; box; box = box.parentElement)
            if (getComputedStyle(box).overflowX !== 'visible') return false;
          return true;
        })
        .slice(-3)
        .map((element) => element.tagName + '.' + element.className + ' in ' + element.parentElement.tagName + '.' + element.parentElement.className + ' ' + (element.getAttribute('href') || '').slice(0, 40) + ' ' + Math.round(element.getBoundingClientRect().right))`);
      expect(overflowing, name).toEqual([]);
      const rendered = (await page.locator('.answer-text, blockquote').allInnerTexts()).join('\n');
      expect(rendered, name).not.toMatch(/\*\*|```|\\\(|\$\$/);
      const file = path.join(ARTIFACTS, `tour-${width}-${String(++step).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`screenshot: ${path.relative(REPO, file)}`);
    };
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

    // Sign in and pick the workspace.
    await page.goto(`${api.origin}/`);
    await page.getByLabel('API key').fill(api.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const workspace = page.getByLabel('Workspace', { exact: true });
    const switchTo = async (id: string) => {
      await workspace.fill(id);
      await workspace.press('Enter');
    };
    /** The tour's workspace, its 500-odd documents listed. */
    const home = async () => {
      await switchTo(api.workspaceId);
      await page
        .getByRole('status')
        .filter({ hasText: /^\d{3,} in the workspace$/ })
        .waitFor();
    };
    await home();
    await checkpoint('signed-in');

    // Upload a Markdown file: it lands at the top of the list.
    const upload = `zephyr-${width}.md`;
    await page.getByLabel('Choose files to upload').setInputFiles({
      name: upload,
      mimeType: 'text/markdown',
      buffer: Buffer.from(GUIDE),
    });
    const uploaded = page
      .getByRole('region', { name: 'Uploads' })
      .getByRole('listitem')
      .filter({ hasText: upload });
    await uploaded.filter({ hasText: /ready|failed/ }).waitFor();
    expect(await uploaded.innerText()).toMatch(/ready$/);
    const documents = page.getByRole('table').first();
    await documents.locator('tbody tr').first().getByText(`uploads/${upload}`).waitFor();
    await checkpoint('uploaded');

    // Three questions, the second a follow-up in the first's thread.
    await nav('Ask');
    await page.getByRole('textbox', { name: 'Ask a question' }).fill(QUESTIONS.first);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const first = page.getByRole('region', { name: QUESTIONS.first });
    await first.getByText(/Self-check (passed|failed)/).waitFor();
    expect(await first.locator('.answer-text').innerText()).toMatch(/POST/);
    const thread = page.url();
    await page.getByRole('textbox', { name: 'Ask a follow-up' }).fill(QUESTIONS.followUp);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page
      .getByRole('region', { name: QUESTIONS.followUp })
      .getByText(/Self-check (passed|failed)/)
      .waitFor();
    expect(page.url()).toBe(thread);
    await checkpoint('follow-up');
    await page
      .getByRole('navigation', { name: 'History' })
      .getByRole('link', { name: 'New question' })
      .click();
    await page.getByRole('textbox', { name: 'Ask a question' }).fill(QUESTIONS.third);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const third = page.getByRole('region', { name: QUESTIONS.third });
    await third.getByText(/Self-check (passed|failed)/).waitFor();
    expect(await third.locator('.answer-text').innerText()).toMatch(/forty-two months/);
    const history = page.getByRole('navigation', { name: 'History' });
    expect(await history.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    await checkpoint('third-question');

    // Open a citation, then Back to the answer as it was.
    await third.getByRole('region', { name: 'Sources' }).getByRole('link').first().click();
    await page.locator('mark').first().waitFor();
    await checkpoint('citation');
    await page.goBack();
    await third.getByText(/Self-check (passed|failed)/).waitFor();
    expect(await third.locator('.answer-text').innerText()).toMatch(/forty-two months/);
    // The first thread is in the history with its two questions.
    await history.getByRole('link', { name: QUESTIONS.first }).click();
    await page.getByRole('region', { name: QUESTIONS.followUp }).waitFor();
    await checkpoint('back-in-history');

    // Switch to a workspace that does not exist: a notice, no rows; then back.
    const empty = uniqueWorkspace('tour-empty');
    await switchTo(empty);
    await nav('Documents');
    await page.getByText(`There is no workspace “${empty}” yet`).waitFor();
    expect(await documents.locator('tbody tr').count()).toBe(0);
    await checkpoint('missing-workspace');
    await home();

    // Browse the graph from a search.
    await nav('Graph');
    await page.getByLabel('Find entities').fill('location');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const found = page.getByRole('region', { name: /Entities mentioned in passages matching/ });
    await found.getByRole('link').first().click();
    await page.getByRole('img', { name: /^Graph of \d+ entities and \d+ relations$/ }).waitFor();
    await checkpoint('graph');

    // Find one document among 500.
    await nav('Documents');
    await page.getByLabel('Search documents').fill('item-123');
    await page.getByRole('status').filter({ hasText: '1 matching “item-123”' }).waitFor();
    await documents.getByText('stock/item-123.md').first().waitFor();
    await checkpoint('found-one-of-500');

    expect(problems).toEqual([]);
    await context.close();
  });
});
