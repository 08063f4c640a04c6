import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import {
  DocPageExtractor,
  NumberedEntityExtractor,
  OfflineEntityExtractor,
  PostgresGraphStore,
} from '../graph/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { CorpusStore } from '../store/index.js';
import { createRetriever } from './create-retriever.js';
import type { HybridRetriever } from './retriever.js';

// The question names Algorithm 19.2; the passage that answers it never writes "19.2" in a way
// BM25 or the embedder would favour, but the graph connects them through Formula 19.5.
const TEXTBOOK = `# Chapter 19: Beliefs

## 19.2 Discrete State Filter

The discrete belief update is **Equation 19.5**:

$$ b'(s') \\propto O(o \\mid a, s') \\sum_s T(s' \\mid s, a) b(s) $$ (19.5)

**Algorithm 19.2.** Discrete state filter. Applies Equation 19.5 to every state.

\`\`\`julia
function update(b, a, o)
    # Equation 19.5
end
\`\`\`

## 19.3 Normalisation

Normalising after the product in Equation 19.5 keeps the belief a distribution; skipping it makes
probabilities drift towards zero over long horizons.
`;

// A page whose doc page (a graph entity its opening chunk "mentions" structurally) must not score
// that chunk: on the sample corpus it made an author-and-date header the graph's best hit.
const NOTES = `# Discrete state filter notes

**Author:** Dr. Ingrid Example, Belief Methods Group

## Where Equation 19.5 comes from

Equation 19.5 is the Bayes update of Algorithm 19.2: predict with the transition model, then weigh
by the observation model.
`;

const UNRELATED = `# Carrier notes

Carriers pick up parcels twice a day; a discrete pickup window is agreed per depot.
`;

describe.each(testBackends())('the graph channel on $name', (backend) => {
  let sql: Sql;
  let root: string;
  let retriever: HybridRetriever;
  const workspaceId = uniqueWorkspace('graphch');

  beforeAll(async () => {
    sql = await backend.open();
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-graphch-'));
    await writeFile(path.join(root, 'ch19.md'), TEXTBOOK);
    await writeFile(path.join(root, 'carriers.md'), UNRELATED);
    await writeFile(path.join(root, 'notes.md'), NOTES);
    const graph = new PostgresGraphStore(sql);
    const embedder = new DeterministicEmbedder();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder,
      maxTokens: 80,
      overlapTokens: 0,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor(), new DocPageExtractor()],
    });
    await pipeline.ingestSources({ workspaceId, sources: [root] });
    retriever = createRetriever(loadConfig({}), sql, embedder, undefined, graph);
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('finds the chunks around an entity the question names, and says through which entities', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'What does Algorithm 19.2 depend on?',
      k: 5,
    });
    expect(result.stats.queryEntities).toContain('Algorithm:19.2');
    const graphHits = result.hits.filter((hit) => hit.channels.graph);
    expect(graphHits.length).toBeGreaterThan(0);
    // The normalisation section never mentions Algorithm 19.2; the graph reaches it through Formula 19.5.
    const normalisation = graphHits.find((hit) => hit.sectionPath.endsWith('19.3 Normalisation'));
    expect(normalisation?.graphEntities).toContain('Formula:19.5');
    expect(result.hits.some((hit) => hit.sourcePath.endsWith('carriers.md') && hit.channels.graph)).toBe(
      false,
    );
  });

  it('never scores a chunk for the doc page it opens', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'Discrete state filter notes: what does Algorithm 19.2 depend on?',
      k: 10,
    });
    // The opening chunk is found (by its words) and may be scored for what it says, never for its page.
    expect(result.hits.some((hit) => hit.sourcePath.endsWith('notes.md') && hit.startOffset === 0)).toBe(
      true,
    );
    expect(
      result.hits.flatMap((hit) => hit.graphEntities ?? []).filter((id) => id.startsWith('DocPage:')),
    ).toEqual([]);
  });

  it('respects the filters like the other channels', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'What does Algorithm 19.2 depend on?',
      filters: { sourcePrefix: `${path.basename(root)}/carriers` },
    });
    expect(result.hits.every((hit) => hit.sourcePath.endsWith('carriers.md'))).toBe(true);
    expect(result.stats.candidates.graph).toBe(0);
  });

  it('stays silent when the question names nothing the graph knows', async () => {
    const result = await retriever.retrieve({ workspaceId, query: 'pickup windows per depot' });
    expect(result.stats.queryEntities).toEqual([]);
    expect(result.stats.candidates.graph).toBe(0);
  });

  it('runs alone when asked, as the evaluation does', async () => {
    const result = await retriever.retrieve({
      workspaceId,
      query: 'Equation 19.5',
      channels: ['graph'],
      rerank: false,
    });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(
      result.hits.every((hit) => hit.channels.graph && !hit.channels.vector && !hit.channels.lexical),
    ).toBe(true);
  });
});
