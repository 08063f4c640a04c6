import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpusIntegrity, integrityViolations, openEmbedded } from '@agentic-rag/core';
import { seededRandom } from '@agentic-rag/core/testing';
import { sleep, startService } from '../../../test/fault-harness.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const KILLS = 30;
const WORKSPACE = 'crash-loop';

type Moment = 'start-up' | 'ingest' | 'idle' | 'shutdown';

/** `pnpm start` on the embedded database of `dataDir`, its output kept for the failure message. */
function startApi(dataDir: string) {
  const api = startService(
    'api',
    {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_SECOND: '0',
      AGENTIC_RAG_CORPUS_DIR: path.join(REPO, 'simulated_ingestion'),
    },
    REPO,
  );
  return {
    ...api,
    port: () => Number(/"event":"api-listening"[^\n]*"port":(\d+)/.exec(api.output())?.[1] ?? 0),
    ready: () => api.events('api-ready').length > 0,
  };
}

/** Inline documents whose text names their batch, so a half-stored batch would show. */
function batch(round: number) {
  return Array.from({ length: 40 }, (_, index) => ({
    id: `crash/round-${round}/note-${index}.md`,
    content: `# Round ${round} note ${index}\n\nDepot ${index} ships pallets on route ${round}.\n\n## Detail\n\nThe manifest of round ${round} lists ${index} items.\n`,
  }));
}

/**
 * Issue 15: the embedded data directory survives being killed at any moment. Thirty times a real
 * API process on one DATA_DIR is stopped by SIGKILL or SIGTERM while it starts (migrations, the
 * sample corpus ingest), while it ingests a batch, while idle, or during its own shutdown
 * (SIGTERM, then SIGKILL a moment later). Each next start must open the directory; at the end,
 * and every tenth round, the corpus must be whole.
 */
describe('the embedded database under kills at random moments (real API processes)', () => {
  const roots: string[] = [];

  afterAll(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });

  it(`opens after each of ${KILLS} kills, and the corpus is whole`, async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'rag-crash-loop-'));
    roots.push(root);
    const next = seededRandom(Number(process.env.CRASH_LOOP_SEED ?? 15));
    const moments: Moment[] = ['start-up', 'ingest', 'idle', 'shutdown'];
    const tally: Record<string, number> = {};
    const verify = async (label: string) => {
      // No server runs now: this process owns the directory while it checks.
      const sql = await openEmbedded(path.join(root, 'pglite'));
      try {
        for (const workspaceId of ['demo', WORKSPACE]) {
          const violations = integrityViolations(await checkCorpusIntegrity(sql, workspaceId));
          expect(violations, `${label}, workspace ${workspaceId}`).toEqual([]);
        }
        // A batch is ingested one transaction per document: any subset may be stored, each whole.
        const stored = await sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM rag_documents WHERE workspace_id = $1',
          [WORKSPACE],
        );
        return stored.rows[0]!.n;
      } finally {
        await sql.close();
      }
    };

    for (let round = 0; round < KILLS; round++) {
      const moment = moments[Math.floor(next() * moments.length)]!;
      const signal: NodeJS.Signals = next() < 0.5 ? 'SIGKILL' : 'SIGTERM';
      const api = startApi(root);
      const started = Date.now();
      const failed = () =>
        `round ${round} (${moment}, ${signal}): the API did not start:\n${api.output().slice(-3000)}`;
      if (moment === 'start-up') {
        // Somewhere in opening, migrating or ingesting the sample corpus.
        await sleep(300 + next() * 4000);
        if (api.child.exitCode !== null) throw new Error(failed());
        api.signal(signal);
      } else {
        while (!api.ready()) {
          if (api.child.exitCode !== null || Date.now() - started > 90_000) throw new Error(failed());
          await sleep(50);
        }
        if (moment === 'ingest') {
          const key = (await readFile(path.join(root, 'admin.key'), 'utf8')).trim();
          void fetch(`http://127.0.0.1:${api.port()}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({
              query: 'mutation($input: IngestInput!) { ingestDocuments(input: $input) { mode } }',
              variables: { input: { workspaceId: WORKSPACE, documents: batch(round) } },
            }),
          }).catch(() => null);
          await sleep(200 + next() * 1500);
          api.signal(signal);
        } else if (moment === 'idle') {
          await sleep(next() * 500);
          api.signal(signal);
        } else {
          // Its own shutdown, cut short.
          api.signal('SIGTERM');
          await sleep(next() * 300);
          api.signal(signal);
        }
      }
      await Promise.race([api.exited, sleep(60_000)]);
      // A SIGTERM'd process that is still draining a request gets no more than a minute.
      api.signal('SIGKILL');
      await api.exited;
      tally[`${moment} ${signal}`] = (tally[`${moment} ${signal}`] ?? 0) + 1;
      if (round % 10 === 9) await verify(`after round ${round}`);
    }

    // One last clean start: it opens, serves, and finds its corpus whole.
    const last = startApi(root);
    const started = Date.now();
    while (!last.ready()) {
      if (last.child.exitCode !== null || Date.now() - started > 90_000)
        throw new Error(`the final start failed:\n${last.output().slice(-3000)}`);
      await sleep(50);
    }
    expect(last.output()).not.toMatch(/Aborted\(\)/);
    last.signal('SIGTERM');
    await last.exited;
    const stored = await verify('at the end');
    console.log(
      `[fault] embedded data, ${KILLS} kills (${Object.entries(tally)
        .map(([name, count]) => `${name} ×${count}`)
        .join(
          ', ',
        )}): every restart opened; ${stored} batch documents stored, each whole; 0 orphan or duplicate chunks; statistics equal a recount`,
    );
  }, 900_000);
});
