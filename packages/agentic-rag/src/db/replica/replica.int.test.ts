import { appendFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asPostgres,
  canMakeClusters,
  type Cluster,
  clusterBase,
  makePrimary,
  makeReplica,
  stopCluster,
} from '../../../../../test/postgres-clusters.js';
import { loadConfig } from '../../config/index.js';
import { createRuntime, type RagRuntime } from '../../runtime/index.js';
import { ANONYMOUS, RagService } from '../../service/index.js';
import { PostgresSql } from '../postgres.js';

/**
 * Searches against a REAL streaming replica, made here: a private primary (initdb, wal_level
 * replica) and a hot standby cloned from it with pg_basebackup -R, both run as the postgres user on
 * spare ports under a temporary directory (the system cluster on 5432 is not touched). The primary
 * is migrated by createRuntime; the replica gets the schema by replication.
 */

/** Waits until the replica has replayed everything the primary has written so far. */
async function waitForReplay(primary: PostgresSql, replica: PostgresSql): Promise<void> {
  const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  const target = rows[0]!.lsn;
  for (let attempt = 0; attempt < 200; attempt++) {
    const replayed = await replica.query<{ caught: boolean }>(
      'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught',
      [target],
    );
    if (replayed.rows[0]!.caught) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the replica did not catch up within 10 s');
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

describe.runIf(canMakeClusters)('search on a streaming replica, read-your-writes by corpus version', () => {
  const workspaceId = `replica-${process.pid}`;
  let base: string;
  let primary: Cluster;
  let replica: Cluster;
  let primarySql: PostgresSql;
  let replicaSql: PostgresSql;
  // Two API processes on the same databases, and one without a replica (the baseline).
  let first: RagRuntime;
  let second: RagRuntime;
  let direct: RagRuntime;
  let firstService: RagService;
  let secondService: RagService;
  let directService: RagService;

  beforeAll(async () => {
    base = await clusterBase('rag-replica-');
    primary = await makePrimary(base);
    replica = await makeReplica(base, primary);
    const config = loadConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: replica.url,
      AGENTIC_RAG_CACHE: 'false',
      AGENTIC_RAG_INGEST_MODE: 'inline',
    });
    first = await createRuntime({ config }); // migrates the primary
    second = await createRuntime({ config });
    direct = await createRuntime({
      config: loadConfig({ DATABASE_URL: primary.url, AGENTIC_RAG_CACHE: 'false' }),
    });
    [firstService, secondService, directService] = [first, second, direct].map(
      (runtime) => new RagService(runtime, { limiter: null }),
    ) as [RagService, RagService, RagService];
    primarySql = new PostgresSql({ connectionString: primary.url, maxConnections: 2 });
    replicaSql = new PostgresSql({ connectionString: replica.url, maxConnections: 2 });
  });

  afterAll(async () => {
    for (const closable of [first, second, direct, primarySql, replicaSql])
      await closable?.close().catch(() => {});
    for (const cluster of [replica, primary]) if (cluster) await stopCluster(cluster).catch(() => {});
    if (base) await rm(base, { recursive: true, force: true });
  });

  const documents = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({
      id: `${prefix}-${index}.md`,
      content: `# ${prefix} note ${index}\n\nThe marker word ${prefix}marker${index} appears in this note only.`,
    }));
  /** The documents of a search for `marker`, one entry per hit. */
  const find = async (service: RagService, marker: string, minCorpusVersion?: number) => {
    const result = await service.search(ANONYMOUS, {
      workspaceId,
      query: marker,
      k: 5,
      channels: ['lexical'],
      ...(minCorpusVersion !== undefined ? { minCorpusVersion } : {}),
    });
    return result.hits.filter((hit) => hit.text.includes(marker)).map((hit) => hit.sourcePath);
  };

  it('reads from the replica when it has caught up (seen on the replica itself)', async () => {
    const ingested = await firstService.ingest(ANONYMOUS, { workspaceId, documents: documents('alpha', 3) });
    expect(ingested.summary!.documents.added).toBe(3);
    await waitForReplay(primarySql, replicaSql);
    const recovery = await replicaSql.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    expect(recovery.rows[0]!.standby).toBe(true);
    const commits = async () =>
      (
        await replicaSql.query<{ xacts: number }>(
          'SELECT xact_commit::int AS xacts FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0]!.xacts;
    const before = await commits();
    const routed = second.readRouting!.stats().replica;
    for (let index = 0; index < 3; index++)
      expect(await find(secondService, `alphamarker${index}`)).toEqual([`alpha-${index}.md`]);
    // This process wrote version v and the replica holds v: its own reads go there too.
    expect(await find(firstService, 'alphamarker0')).toEqual(['alpha-0.md']);
    expect(second.readRouting!.stats().replica - routed).toBeGreaterThanOrEqual(3);
    // The standby's own counters (flushed by its backends within a second or so) saw the reads.
    let seen = 0;
    for (let attempt = 0; attempt < 40 && seen < 3; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = (await commits()) - before;
    }
    expect(seen).toBeGreaterThanOrEqual(3);

    // p50 of a search served by the replica (through the routing Sql), by the primary alone (no
    // replica configured), and by the primary through the routing Sql because the replica is
    // behind what the read needs (a version not written yet): interleaved, so load hits all three.
    const spent = { replica: [] as number[], primary: [] as number[], routedPrimary: [] as number[] };
    const time = async (into: number[], search: () => Promise<unknown>) => {
      const started = performance.now();
      await search();
      into.push(performance.now() - started);
    };
    const routedBefore = second.readRouting!.stats();
    for (let index = 0; index < 330; index++) {
      const marker = `alphamarker${index % 3}`;
      await time(spent.replica, () => find(secondService, marker));
      await time(spent.primary, () => find(directService, marker));
      await time(spent.routedPrimary, () => find(secondService, marker, 1_000_000));
    }
    const routedAfter = second.readRouting!.stats();
    expect(routedAfter.replica - routedBefore.replica).toBeGreaterThanOrEqual(330);
    expect(routedAfter.primary - routedBefore.primary).toBeGreaterThanOrEqual(330);
    const p = (values: number[], at: number) => percentile(values.slice(30), at).toFixed(2); // 30 warm-up
    console.log(
      `[bench] search p50 (p95), 300 each: replica ${p(spent.replica, 0.5)} ms (${p(spent.replica, 0.95)}), ` +
        `primary without a replica ${p(spent.primary, 0.5)} ms (${p(spent.primary, 0.95)}), ` +
        `primary via the router, replica behind ${p(spent.routedPrimary, 0.5)} ms (${p(spent.routedPrimary, 0.95)})`,
    );
  });

  it('reads its own writes through a replica 10 s behind: same process, and another with the token', async () => {
    await appendFile(path.join(replica.dir, 'postgresql.conf'), "recovery_min_apply_delay = '10s'\n");
    await asPostgres('pg_ctl', '-D', replica.dir, 'reload');
    for (let attempt = 0; attempt < 50; attempt++) {
      const shown = await replicaSql.query<{ delay: string }>('SHOW recovery_min_apply_delay');
      if (shown.rows[0]!.delay === '10s') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const count = 4;
    const written = documents('beta', count);
    const ingested = await firstService.ingest(ANONYMOUS, { workspaceId, documents: written });
    const token = ingested.summary!.corpusVersion;
    let stale = 0;
    let duplicated = 0;
    const check = (found: string[], id: string, present: boolean) => {
      if (found.includes(id) !== present) stale += 1;
      duplicated += Math.max(0, found.filter((source) => source === id).length - 1);
    };
    const primaryBefore = first.readRouting!.stats().primary;
    // The writing process: its reads need the version it wrote, which the replica has not replayed.
    for (const [index, document] of written.entries())
      check(await find(firstService, `betamarker${index}`), document.id, true);
    expect(first.readRouting!.stats().primary).toBeGreaterThan(primaryBefore);
    // Another process without the token may read the lagging replica: stale is allowed there.
    let withoutToken = 0;
    for (const [index, document] of written.entries())
      if ((await find(secondService, `betamarker${index}`)).includes(document.id)) withoutToken += 1;
    console.log(
      `[fault] replica lag 10 s, second process without a token: found ${withoutToken} of ${count} (stale reads allowed)`,
    );
    // With the token it reads them all.
    for (const [index, document] of written.entries())
      check(await find(secondService, `betamarker${index}`, token), document.id, true);
    // An answer too: with the token its retrieval, and the corpus version its cache key holds,
    // come from the primary; without it, both from the replica (never a mix of the two).
    const answered = await secondService.answer(ANONYMOUS, {
      workspaceId,
      query: 'betamarker1',
      minCorpusVersion: token,
    });
    expect(answered.corpusVersion).toBeGreaterThanOrEqual(token);
    check(
      answered.citations.map((citation) => citation.sourceId),
      written[1]!.id,
      true,
    );
    const untokened = await secondService.answer(ANONYMOUS, { workspaceId, query: 'betamarker1' });
    expect(untokened.corpusVersion).toBeLessThan(token);
    // A delete, read back through the second process with the delete's version: gone.
    const deleted = await firstService.deleteDocument(ANONYMOUS, { workspaceId, id: written[0]!.id });
    expect(deleted.deleted).toBe(true);
    check(await find(secondService, 'betamarker0', deleted.corpusVersion), written[0]!.id, false);
    check(await find(firstService, 'betamarker0'), written[0]!.id, false);
    // What remains, read with the latest token.
    let stored = 0;
    for (const [index, document] of written.entries()) {
      if (index === 0) continue;
      const found = await find(secondService, `betamarker${index}`, deleted.corpusVersion);
      check(found, document.id, true);
      if (found.includes(document.id)) stored += 1;
    }
    const expected = count - 1;
    console.log(
      `[fault] replica lag 10 s: expected ${expected}, stored ${stored}, lost ${expected - stored}, duplicated ${duplicated}, stale ${stale}`,
    );
    expect({ stored, duplicated, stale }).toEqual({ stored: expected, duplicated: 0, stale: 0 });
    // The lag was real: the replica still lacks what the primary holds.
    const onReplica = await replicaSql.query<{ version: number }>(
      'SELECT corpus_version AS version FROM rag_workspaces WHERE id = $1',
      [workspaceId],
    );
    expect(onReplica.rows[0]!.version).toBeLessThan(deleted.corpusVersion);
  });

  it('answers from the primary when the replica is down', async () => {
    await stopCluster(replica);
    const fallbacks = second.readRouting!.stats();
    expect(await find(secondService, 'betamarker1')).toEqual(['beta-1.md']);
    expect(await find(secondService, 'alphamarker2')).toEqual(['alpha-2.md']);
    const answer = await secondService.answer(ANONYMOUS, { workspaceId, query: 'betamarker2' });
    expect(answer.citations.length).toBeGreaterThan(0);
    const after = second.readRouting!.stats();
    expect(after.replicaDown).toBe(true);
    expect(after.primary).toBeGreaterThan(fallbacks.primary);
  });
});
