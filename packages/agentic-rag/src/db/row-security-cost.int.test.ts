import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { NumberedEntityExtractor, OfflineEntityExtractor, PostgresGraphStore } from '../graph/index.js';
import { IngestPipeline } from '../ingest/pipeline.js';
import { createRetriever, type HybridRetriever } from '../retrieve/index.js';
import { CorpusStore } from '../store/index.js';
import { withWorkspaceScope, type Sql } from './index.js';

// What the wall costs: the same searches and statements with and without withWorkspaceScope(),
// interleaved so warm-up and caching favour neither. A measurement, not a check: it runs only
// when asked (RLS_COST=1) and prints p50/p95.
const RUNS = Number(process.env.RLS_COST_RUNS ?? 200);
const TOPICS = ['shipment', 'carrier', 'depot', 'invoice', 'refund', 'webhook', 'location', 'parcel'];
const QUERIES = [
  'how do I cancel a shipment',
  'carrier pickup schedule',
  'create a depot location',
  'invoice refund policy',
  'register a webhook endpoint',
  'parcel weight limits',
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2));
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe.runIf(process.env.RLS_COST === '1').each(testBackends())('row security cost on $name', (backend) => {
  let sql: Sql;
  let retriever: HybridRetriever;
  const workspaceId = uniqueWorkspace('wall-cost');

  beforeAll(async () => {
    sql = await backend.open();
    const graph = new PostgresGraphStore(sql);
    const embedder = new DeterministicEmbedder();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder,
      maxTokens: 200,
      overlapTokens: 20,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
    });
    const documents = Array.from({ length: 120 }, (_, index) => {
      const topic = TOPICS[index % TOPICS.length]!;
      const other = TOPICS[(index * 5 + 3) % TOPICS.length]!;
      return {
        id: `guides/${topic}-${index}.md`,
        content: `# ${topic} guide ${index}\n\n## Working with a ${topic}\n\nTo manage a ${topic}, send POST /${topic}s with the ${other} id. The Carrier Desk (CD) answers within ${index % 24} hours. See Section ${index % 9}.${index % 7}.\n\n## Limits\n\nA ${topic} over ${index} kg needs the ${other} service; cancel before pickup.\n`,
      };
    });
    const summary = await pipeline.ingestInline(workspaceId, documents);
    expect(summary.failures).toEqual([]);
    // Fresh statistics, as a served corpus has: the policies add conditions the planner weighs, and
    // on a never-analysed table it picks different (slower) plans with them than without.
    await sql.exec('ANALYZE');
    retriever = createRetriever(loadConfig({}), sql, embedder, undefined, graph);
  }, 300_000);

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
  });

  const compare = async (label: string, work: (index: number) => Promise<unknown>) => {
    const scoped = (index: number) => withWorkspaceScope(workspaceId, () => work(index));
    for (let index = 0; index < 20; index++) {
      await work(index);
      await scoped(index);
    }
    const times = { unscoped: [] as number[], scoped: [] as number[] };
    for (let index = 0; index < RUNS; index++) {
      if (index % 2 === 0) {
        times.unscoped.push(await timed(() => work(index)));
        times.scoped.push(await timed(() => scoped(index)));
      } else {
        times.scoped.push(await timed(() => scoped(index)));
        times.unscoped.push(await timed(() => work(index)));
      }
    }
    const row = (name: keyof typeof times) =>
      `${name.padEnd(8)} p50 ${percentile(times[name], 50)} ms  p95 ${percentile(times[name], 95)} ms`;
    console.info(`[${backend.name}] ${label} x${RUNS}\n  ${row('unscoped')}\n  ${row('scoped')}`);
  };

  it('searches', async () => {
    await compare('retriever.retrieve (k=10, vector+lexical+graph)', (index) =>
      retriever.retrieve({ workspaceId, query: QUERIES[index % QUERIES.length]!, k: 10 }),
    );
  }, 600_000);

  it('single statements', async () => {
    await compare('sql.query (one indexed SELECT)', () =>
      sql.query('SELECT count(*) FROM rag_documents WHERE workspace_id = $1', [workspaceId]),
    );
  }, 600_000);
});
