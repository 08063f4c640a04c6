import { readFile, rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddingServer,
  type Fixture,
  faultFixtures,
  type Intended,
  sleep,
  startEmbeddingServer,
  truthSummary,
  until,
} from '../../../../test/fault-harness.js';
import {
  canMakeClusters,
  type Cluster,
  clusterBase,
  makePrimary,
  restartCluster,
  startCluster,
  stopCluster,
} from '../../../../test/postgres-clusters.js';
import { migrate, PostgresSql } from '../db/index.js';

const REDIS_URL = process.env.REDIS_URL;

/**
 * Issue 15's "Postgres restart": a REAL server restart under running `pnpm worker` processes, on a
 * private PostgreSQL 15 cluster (the system cluster on 5432 is not touched) and a queue of its own
 * on the shared Redis. A fast restart disconnects every client; an immediate stop is a crash, and
 * the next start replays the WAL. Either way every document is stored once and no job is left open.
 */
describe.runIf(canMakeClusters && REDIS_URL)(
  'the ingest queue through a real Postgres restart (private cluster, real worker processes)',
  () => {
    let base: string | undefined;
    let cluster: Cluster | undefined;
    let sql: PostgresSql;
    let embeddings: EmbeddingServer;
    const cleanups: Array<() => Promise<void>> = [];
    let fixture: ReturnType<typeof faultFixtures>;

    beforeAll(async () => {
      base = await clusterBase('rag-pg-restart-');
      cluster = await makePrimary(base);
      sql = new PostgresSql({ connectionString: cluster.url, maxConnections: 4 });
      await migrate(sql);
      embeddings = await startEmbeddingServer();
      fixture = faultFixtures({
        sql: () => sql,
        embeddings: () => embeddings,
        cleanups,
        databaseUrl: cluster.url,
        redisUrl: REDIS_URL!,
      });
    });

    afterEach(async () => {
      const errors: unknown[] = [];
      while (cleanups.length > 0) await cleanups.pop()!().catch((error: unknown) => errors.push(error));
      if (errors.length > 0) throw errors[0];
    });

    afterAll(async () => {
      await embeddings?.close();
      await sql?.close();
      if (cluster) await stopCluster(cluster).catch(() => {});
      if (base) await rm(base, { recursive: true, force: true });
    });

    /** A query that may meet the server while it is away: undefined then, and the caller polls again. */
    async function whileAvailable<Row extends Record<string, unknown>>(text: string, values: unknown[]) {
      try {
        return (await sql.query<Row>(text, values)).rows;
      } catch {
        return undefined;
      }
    }

    /** The first row, once the server answers (a pooled connection may have died with the server). */
    async function firstRow<Row extends Record<string, unknown>>(text: string, values: unknown[]) {
      let rows: Row[] | undefined;
      await until(
        async () => (rows = await whileAvailable<Row>(text, values)) !== undefined,
        10_000,
        () => `the server to answer ${text}`,
      );
      return rows![0]!;
    }

    const documentCount = async (workspace: string) =>
      (
        await firstRow<{ n: number }>(
          'SELECT count(*)::int AS n FROM rag_documents WHERE workspace_id = $1',
          [workspace],
        )
      ).n;

    /** Until no job of the workspace is `queued` or `active` in rag_jobs; its statuses then. */
    async function settled(workspace: string, timeoutMs: number): Promise<Record<string, number>> {
      let counts: Record<string, number> = {};
      await until(
        async () => {
          const rows = await whileAvailable<{ status: string; n: number }>(
            'SELECT status, count(*)::int AS n FROM rag_jobs WHERE workspace_id = $1 GROUP BY status',
            [workspace],
          );
          if (!rows) return false;
          counts = Object.fromEntries(rows.map((row) => [row.status, row.n]));
          return !counts.queued && !counts.active;
        },
        timeoutMs,
        () => `every job to finish: ${JSON.stringify(counts)}`,
      );
      return counts;
    }

    const startedAt = async () =>
      (await firstRow<{ at: string }>('SELECT pg_postmaster_start_time()::text AS at', [])).at;

    /**
     * 20 inline documents queued behind two workers (one job at a time each, every embedding a
     * PAUSE): the run is under way, and far from done, when `outage` takes the server away.
     */
    async function restartCase(label: string, outage: (cluster: Cluster) => Promise<void>) {
      // Backoff 0.5, 1, 2, 4 ... s over 8 attempts: a job failing as the server goes runs again after it.
      const f: Fixture = await fixture({
        attempts: 8,
        env: {
          AGENTIC_RAG_JOB_BACKOFF_MS: '500',
          AGENTIC_RAG_RECONCILE_MS: '1000',
          AGENTIC_RAG_WORKER_CONCURRENCY: '1',
        },
      });
      const documents: Array<Intended & { text: string }> = Array.from({ length: 20 }, (_, index) => ({
        sourcePath: `notes/doc-${index}.md`,
        text: `Document ${index} takes a PAUSE to embed MARK${index}Z.`,
      }));
      const workers = [await f.startWorker(), await f.startWorker()];
      for (const document of documents)
        await f.queue.enqueueInline(f.workspace, document.sourcePath, `# Doc\n\n${document.text}\n`);
      await until(
        async () => (await documentCount(f.workspace)) >= 3,
        30_000,
        () => '3 documents stored',
      );
      const before = await startedAt();
      await outage(cluster!);
      const storedBefore = await documentCount(f.workspace);
      expect(storedBefore).toBeLessThan(documents.length);
      expect(await startedAt()).not.toBe(before);

      expect(await settled(f.workspace, 60_000)).toEqual({ completed: documents.length });
      const truth = await truthSummary(sql, label, f.workspace, documents, []);
      expect(truth).toEqual({ expected: 20, stored: 20, lost: 0, duplicated: 0, stale: 0 });
      for (const worker of workers) {
        // Both workers lived through it: the outage was job failures and retries, not a crash.
        expect(worker.child.exitCode, worker.output().slice(-4000)).toBeNull();
        expect(worker.stray()).toEqual([]);
      }
      const failed = workers.flatMap((worker) => worker.events('job-failed'));
      console.log(
        `[fault] ${label}: ${storedBefore} stored when the server was back, ` +
          `${failed.length} job attempts failed (${[...new Set(failed.map((entry) => entry.code))].join(', ')})`,
      );
    }

    it('a: pg_ctl restart -m fast mid-run: every document stored once, no job left open', async () => {
      await restartCase('postgres restart (fast)', async (target) => {
        await restartCluster(target);
      });
    }, 90_000);

    it('b: pg_ctl stop -m immediate (a crash), started again 3 s later: crash recovery loses nothing', async () => {
      await restartCase('postgres restart (immediate)', async (target) => {
        await stopCluster(target, 'immediate');
        await sleep(3000);
        await startCluster(target);
        // The start replayed the WAL: there was no shutdown checkpoint to start from.
        expect(await readFile(`${target.dir}.log`, 'utf8')).toContain('automatic recovery in progress');
      });
    }, 90_000);
  },
);
