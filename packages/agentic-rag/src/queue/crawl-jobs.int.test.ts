import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { fixturePage, serveFixtureSite, type FixtureSite } from '../testing.js';
import { parseCrawlRequest } from '../crawl/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore, JobStore } from '../store/index.js';
import { silentLogger } from '../telemetry/index.js';
import { isBlockedAddress } from '../tools/index.js';
import { enqueueCrawl, scheduleCrawl } from './crawl-jobs.js';
import { IngestQueue } from './ingest-queue.js';
import { startIngestWorker, type IngestWorker } from './worker.js';

/** Lets exactly the loopback test server through, as the http_fetch tests do. */
const allowTestServer = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

describe.runIf(process.env.REDIS_URL)('crawl jobs on the queue', () => {
  let sql: Sql;
  let queue: IngestQueue;
  let jobs: JobStore;
  let worker: IngestWorker | null = null;
  let site: FixtureSite;
  const ws = uniqueWorkspace('crawljob');
  let oneOff = '';

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    const config = loadConfig({
      REDIS_URL: process.env.REDIS_URL,
      AGENTIC_RAG_QUEUE_NAME: `crawl-${randomUUID().slice(0, 8)}`,
      AGENTIC_RAG_JOB_ATTEMPTS: '1',
      LOG_LEVEL: 'silent',
    });
    jobs = new JobStore(sql);
    queue = new IngestQueue(config, jobs);
    site = await serveFixtureSite({
      robots: 'User-agent: *\nAllow: /\n',
      pages: {
        '/': fixturePage('Home', 'The depot guide.', ['/depots']),
        '/depots': fixturePage('Depots', 'POST /locations creates a depot.'),
      },
    });
    const store = new CorpusStore(sql);
    const pipeline = new IngestPipeline({
      store,
      embedder: new DeterministicEmbedder(),
      maxTokens: 200,
      overlapTokens: 20,
    });
    worker = await startIngestWorker({
      config,
      logger: silentLogger,
      jobs,
      pipeline,
      store,
      sql,
      crawlAddressPolicy: allowTestServer,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await queue.queue.obliterate({ force: true });
    await queue.deadLetters.obliterate({ force: true });
    await queue.close();
    await site.close();
    await sql.query('DELETE FROM rag_jobs WHERE workspace_id = $1', [ws]);
    await sql.query('DELETE FROM rag_crawl_pages WHERE workspace_id = $1', [ws]);
    await dropWorkspace(sql, ws);
    await sql.close();
  });

  it('runs a queued crawl in the worker and records it in rag_jobs', async () => {
    const id = (oneOff = await enqueueCrawl(
      queue.queue,
      jobs,
      ws,
      parseCrawlRequest({ url: `${site.origin}/`, rate: 100 }),
    ));
    expect(await queue.waitFor([id], undefined, 30_000)).toEqual({ completed: 1, dead: 0 });
    const record = await jobs.get(id);
    expect(record).toMatchObject({ kind: 'crawl-site', status: 'completed' });
    expect(record?.result).toMatchObject({ site: site.origin, documents: { added: 2 } });
  });

  it('repeats a scheduled crawl: its first run is conditional-free, the next all 304', async () => {
    const request = parseCrawlRequest({ url: `${site.origin}/`, rate: 100, full: false });
    const schedule = await scheduleCrawl(queue.queue, ws, request, 60_000);
    const again = await scheduleCrawl(queue.queue, ws, request, 60_000);
    expect(again.id).toBe(schedule.id);
    expect(await queue.queue.getJobSchedulersCount()).toBe(1);
    // The scheduler's first job runs now; wait for the worker to record it.
    const deadline = Date.now() + 30_000;
    let finished: Array<{ result: unknown }> = [];
    while (Date.now() < deadline) {
      const rows = await sql.query<{ result: unknown }>(
        `SELECT result FROM rag_jobs
         WHERE workspace_id = $1 AND kind = 'crawl-site' AND status = 'completed' AND id <> $2`,
        [ws, oneOff],
      );
      finished = rows.rows;
      if (finished.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(finished).toHaveLength(1);
    // The one-off crawl before it stored both pages: the scheduled one found them unchanged.
    expect(finished[0]!.result).toMatchObject({ pages: { notModified: 2 }, documents: { unchanged: 2 } });
    expect(site.requests.filter((entry) => entry.status === 304)).toHaveLength(2);
    await queue.queue.removeJobScheduler(schedule.id);
  });
});
