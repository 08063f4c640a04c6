import type { PostgresSql } from '@agentic-rag/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiProcess,
  spawnApi,
  truthSummary,
  until,
  useFaultSuite,
} from '../../../test/fault-harness.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

interface Ingested {
  ingestDocuments: { mode: string; jobs: Array<{ id: string; status: string }> };
}
interface Searched {
  search: { hits: Array<{ sourceId: string }> };
}
interface Answered {
  ragAnswer: { refused: boolean; citations: Array<{ sourceId: string }> };
}
interface Listed {
  corpus: { documents: number };
  documents: { totalCount: number; edges: Array<{ node: { id: string; chunkCount: number } }> };
}

const INGEST = `mutation($workspaceId: ID!, $documents: [InlineDocumentInput!]!) {
  ingestDocuments(input: { workspaceId: $workspaceId, documents: $documents }) { mode jobs { id status } }
}`;
const SEARCH = `query($workspaceId: ID!, $query: String!) {
  search(input: { workspaceId: $workspaceId, query: $query, k: 1 }) { hits { sourceId } }
}`;
const ANSWER = `mutation($workspaceId: ID!, $query: String!) {
  ragAnswer(input: { workspaceId: $workspaceId, query: $query }) { refused citations { sourceId } }
}`;
const LIST = `query($workspaceId: ID!) {
  corpus(workspaceId: $workspaceId) { documents }
  documents(workspaceId: $workspaceId, first: 100) { totalCount edges { node { id chunkCount } } }
}`;

/**
 * Scale-out on the engines a deployment already has: two API processes and two `pnpm worker`
 * processes share one Postgres and one Redis (the suite's, under a queue name of this test's own).
 * Whichever API takes a write, both read it, and both workers take a share of the jobs.
 */
describe.runIf(DATABASE_URL && REDIS_URL)('two API processes and two workers on one Postgres', () => {
  const suite = useFaultSuite({ databaseUrl: DATABASE_URL!, redisUrl: REDIS_URL! });
  const { fixture, cleanups } = suite;
  let sql: PostgresSql;
  beforeAll(() => {
    sql = suite.sql();
  });

  it('stores 40 documents sent to either API once, and both APIs answer from all of them', async () => {
    const f = await fixture();
    const apiEnv = {
      ...f.env,
      AGENTIC_RAG_AUTH: 'off',
      AGENTIC_RAG_INGEST_ON_START: 'false',
      AGENTIC_RAG_INGEST_MODE: 'queue',
      RATE_LIMIT_PER_SECOND: '0',
    };
    const apis: ApiProcess[] = [];
    cleanups.push(async () => {
      for (const api of apis) await api.kill();
    });
    const started = await Promise.all([
      spawnApi(apiEnv, f.root),
      spawnApi(apiEnv, f.root),
      f.startWorker(),
      f.startWorker(),
    ]);
    const [first, second] = started.slice(0, 2) as ApiProcess[];
    apis.push(first!, second!);
    const workers = started.slice(2) as Array<Awaited<ReturnType<typeof f.startWorker>>>;

    // A PAUSE in every text: each job takes a while, so both workers are busy at once.
    const documents = Array.from({ length: 40 }, (_, index) => ({
      sourcePath: `notes/relay-${index}.md`,
      text: `Relay ${index} takes a PAUSE to embed RELAY${index}Z.`,
    }));
    const inputs = documents.map((document) => ({
      id: document.sourcePath,
      content: `# Relay\n\n${document.text}\n`,
    }));
    const replies = await Promise.all([
      first!.graphql<Ingested>(INGEST, { workspaceId: f.workspace, documents: inputs.slice(0, 20) }),
      second!.graphql<Ingested>(INGEST, { workspaceId: f.workspace, documents: inputs.slice(20) }),
    ]);
    for (const reply of replies) {
      expect(reply.ingestDocuments.mode).toBe('queue');
      expect(reply.ingestDocuments.jobs).toHaveLength(20);
    }
    const ids = replies.flatMap((reply) => reply.ingestDocuments.jobs.map((job) => job.id));
    expect(new Set(ids).size).toBe(40);

    // Every job completed, as rag_jobs and each API's job(id) say.
    let statuses: Record<string, number> = {};
    await until(
      async () => {
        const result = await sql.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM rag_jobs WHERE id = ANY($1::text[]) GROUP BY status',
          [ids],
        );
        statuses = Object.fromEntries(result.rows.map((row) => [row.status, row.n]));
        return statuses.completed === 40;
      },
      60_000,
      () => `40 completed jobs: ${JSON.stringify(statuses)}`,
    );
    for (const [index, api] of [first!, second!].entries()) {
      const id = ids[index * 20]!;
      const reply = await api.graphql<{ job: { status: string } }>(
        'query($id: ID!) { job(id: $id) { status } }',
        {
          id,
        },
      );
      expect(reply.job.status).toBe('completed');
    }

    // Both APIs see all 40 documents, each once, and retrieve and cite them.
    const expectedIds = documents.map((document) => document.sourcePath).sort();
    for (const api of [first!, second!]) {
      const listed = await api.graphql<Listed>(LIST, { workspaceId: f.workspace });
      expect(listed.corpus.documents).toBe(40);
      expect(listed.documents.totalCount).toBe(40);
      expect(listed.documents.edges.map((edge) => edge.node.id).sort()).toEqual(expectedIds);
      for (const index of [0, 13, 27, 39]) {
        const searched = await api.graphql<Searched>(SEARCH, {
          workspaceId: f.workspace,
          query: `RELAY${index}Z`,
        });
        expect(searched.search.hits.map((hit) => hit.sourceId)).toEqual([`notes/relay-${index}.md`]);
      }
      const answered = await api.graphql<Answered>(ANSWER, {
        workspaceId: f.workspace,
        query: 'What does relay 27 take to embed? RELAY27Z',
      });
      expect(answered.ragAnswer.refused).toBe(false);
      expect(answered.ragAnswer.citations.map((citation) => citation.sourceId)).toContain(
        'notes/relay-27.md',
      );
    }

    const truth = await truthSummary(sql, 'two APIs, two workers', f.workspace, documents, []);
    expect(truth).toEqual({ expected: 40, stored: 40, lost: 0, duplicated: 0, stale: 0 });
    const shares = workers.map((worker) => worker.events('job-completed').length);
    console.log(`[scale-out] jobs completed per worker: ${shares.join(', ')}`);
    expect(shares.every((share) => share > 0)).toBe(true);
    expect(shares.reduce((total, share) => total + share, 0)).toBeGreaterThanOrEqual(40);
  }, 90_000);
});
