import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { CorpusStore } from '../store/index.js';
import { createRetriever } from './create-retriever.js';
import type { HybridRetriever } from './retriever.js';

const embedder = new DeterministicEmbedder();

/** Chunks as the PDF loader writes them: where each starts and, over a page break, where it ends. */
const CHUNKS: Array<[sourcePath: string, metadata: Record<string, unknown>]> = [
  ['page-3', { page_number: 3 }],
  ['pages-4-6', { page_number: 4, page_end: 6 }],
  ['page-7', { page_number: 7 }],
  // Not a page: matches no page filter, and does not break the query with a cast error.
  ['odd', { page_number: 'iv' }],
  ['no-page', {}],
];

describe.each(testBackends())('the page_number filter on $name', (backend) => {
  let sql: Sql;
  let retriever: HybridRetriever;
  const workspace = uniqueWorkspace('pages');

  beforeAll(async () => {
    sql = await backend.open();
    const store = new CorpusStore(sql);
    for (const [sourcePath, metadata] of CHUNKS) {
      const document = singleChunkDocument({
        workspaceId: workspace,
        sourcePath,
        text: `sextant bearing ${sourcePath}`,
        embedding: embedder.embedOne(`sextant bearing ${sourcePath}`),
        embeddingModel: embedder.modelId,
      });
      document.chunks[0]!.metadata = metadata;
      await store.writeDocument(document);
    }
    retriever = createRetriever(loadConfig({}), sql, embedder);
  });
  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await sql.close();
  });

  it.each<[page: number, sources: string[]]>([
    [3, ['page-3']],
    [4, ['pages-4-6']],
    // The chunk starts on page 4: only the range finds it from page 5 or 6.
    [5, ['pages-4-6']],
    [6, ['pages-4-6']],
    [7, ['page-7']],
    [2, []],
    [8, []],
  ])('page %i finds the chunks whose page range covers it', async (page, sources) => {
    const result = await retriever.retrieve({
      workspaceId: workspace,
      query: 'sextant bearing',
      k: 10,
      filters: { page_number: page },
    });
    expect(result.hits.map((hit) => hit.sourcePath).sort()).toEqual(sources);
  });

  it('finds every chunk without the filter', async () => {
    const result = await retriever.retrieve({ workspaceId: workspace, query: 'sextant bearing', k: 10 });
    expect(result.hits.map((hit) => hit.sourcePath).sort()).toEqual(CHUNKS.map(([path]) => path).sort());
  });
});
