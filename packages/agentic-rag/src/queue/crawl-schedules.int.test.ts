import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.js';
import { parseCrawlRequest } from '../crawl/index.js';
import { testBackends } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { JobStore } from '../store/index.js';
import { crawlScheduleId, scheduleCrawl } from './crawl-jobs.js';
import { IngestQueue } from './ingest-queue.js';

/**
 * A "nightly incremental crawl + weekly full crawl" (docs/web-sources.md) as two schedules of one
 * site on a real Redis queue: they must coexist, and asking again for either mode replaces only
 * that one.
 */
describe.runIf(process.env.REDIS_URL)('crawl schedules: incremental and full side by side', () => {
  let sql: Sql;
  let queue: IngestQueue;
  const ws = `sched-${randomUUID().slice(0, 8)}`;
  const url = 'https://docs.example.test/sitemap.xml';

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: `crawl-sched-${randomUUID().slice(0, 8)}`,
      LOG_LEVEL: 'silent',
    });
    queue = new IngestQueue(config, new JobStore(sql));
  });

  afterAll(async () => {
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await sql.close();
  });

  const schedulers = async () =>
    (await queue.queue.getJobSchedulers())
      .map((scheduler) => ({
        key: scheduler.key,
        every: Number(scheduler.every),
        full: (scheduler.template?.data as { request: { full: boolean } }).request.full,
      }))
      .sort((a, b) => a.every - b.every);

  it('keeps a daily incremental and a weekly full schedule of the same URL, each replaceable on its own', async () => {
    const day = 86_400_000;
    const nightly = await scheduleCrawl(queue.queue, ws, parseCrawlRequest({ url }), day);
    const weekly = await scheduleCrawl(queue.queue, ws, parseCrawlRequest({ url, full: true }), 7 * day);
    expect(nightly.id).toBe(crawlScheduleId(ws, url));
    expect(weekly.id).toBe(crawlScheduleId(ws, url, true));
    expect(weekly.id).not.toBe(nightly.id);
    expect(await schedulers()).toEqual([
      { key: nightly.id, every: day, full: false },
      { key: weekly.id, every: 7 * day, full: true },
    ]);

    // Asking again for the incremental crawl (now every 12 hours) leaves the weekly one alone.
    await scheduleCrawl(queue.queue, ws, parseCrawlRequest({ url }), day / 2);
    expect(await schedulers()).toEqual([
      { key: nightly.id, every: day / 2, full: false },
      { key: weekly.id, every: 7 * day, full: true },
    ]);
  });
});
