import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { CorpusStore } from '../store/index.js';
import { createRetriever } from './create-retriever.js';

const embedder = new DeterministicEmbedder();

/** Lexemes whose stored document frequency disagrees with the number of chunks that hold them. */
async function driftedFrequencies(sql: Sql, workspaceId: string): Promise<string[]> {
  const result = await sql.query<{ lexeme: string }>(
    `SELECT coalesce(v.lexeme, p.lexeme) AS lexeme
     FROM (SELECT lexeme, df FROM rag_vocabulary WHERE workspace_id = $1) AS v
     FULL JOIN (SELECT f.lexeme, count(*)::int AS df
                FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
                CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
                WHERE c.workspace_id = $1 GROUP BY f.lexeme) AS p
       ON p.lexeme = v.lexeme
     WHERE v.df IS DISTINCT FROM p.df`,
    [workspaceId],
  );
  return result.rows.map((row) => row.lexeme);
}

describe.each(testBackends())('lexical fields and feedback on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  const workspace = uniqueWorkspace('fields');

  const write = (sourcePath: string, title: string | null, text: string) =>
    store.writeDocument({
      ...singleChunkDocument({
        workspaceId: workspace,
        sourcePath,
        text,
        embedding: embedder.embedOne(text),
        embeddingModel: embedder.modelId,
      }),
      title,
      contentHash: `${title}|${text}`,
    });

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
    // "kestrel" is in one document's title only, and in passing in another's body.
    await write('handbook', 'Kestrel depot handbook', 'parcels are weighed and labelled at the dock');
    await write('memo', null, 'the kestrel van left the yard late with parcels and pallets today');
    // Feedback material: every kestrel document also speaks of falcons; one speaks only of falcons.
    await write('route-1', null, 'kestrel route falcon hub transfer');
    await write('route-2', null, 'kestrel route falcon hub sorting');
    await write('route-3', null, 'falcon hub night shift schedule');
    await write('money', null, 'the amount of a money object is a decimal string');
    for (let index = 0; index < 6; index++)
      await write(`filler-${index}`, null, `pallet jack battery ${index} charge cycle`);
  });
  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await sql.close();
  });

  it('finds a word of the title only when the title field has a weight, and ranks it by that weight', async () => {
    const search = async (title: number) =>
      (
        await createRetriever(loadConfig({ BM25_TITLE_WEIGHT: String(title) }), sql, embedder).retrieve({
          workspaceId: workspace,
          query: 'kestrel handbook',
          channels: ['lexical'],
          rerank: false,
        })
      ).hits.map((hit) => hit.sourcePath);
    expect(await search(0)).not.toContain('handbook');
    expect((await search(2))[0]).toBe('handbook');
  });

  it('keeps every document frequency equal to the postings through a re-titled rewrite and a delete', async () => {
    expect(await driftedFrequencies(sql, workspace)).toEqual([]);
    await write('handbook', 'Osprey yard manual', 'parcels are weighed and labelled at the dock');
    expect(await driftedFrequencies(sql, workspace)).toEqual([]);
    const osprey = await sql.query<{ df: number }>(
      'SELECT df FROM rag_vocabulary WHERE workspace_id = $1 AND lexeme = $2',
      [workspace, 'osprey'],
    );
    expect(osprey.rows).toEqual([{ df: 1 }]);
    await store.deleteDocuments(workspace, ['handbook']);
    expect(await driftedFrequencies(sql, workspace)).toEqual([]);
  });

  it('with RM3 feedback, finds a document that shares the best hits’ words but not the query’s', async () => {
    const retriever = createRetriever(
      loadConfig({
        LEXICAL_FEEDBACK_WEIGHT: '0.5',
        LEXICAL_FEEDBACK_DOCUMENTS: '2',
        LEXICAL_FEEDBACK_TERMS: '5',
      }),
      sql,
      embedder,
    );
    const search = async (feedback: boolean) =>
      (
        await retriever.retrieve({
          workspaceId: workspace,
          query: 'kestrel route',
          channels: ['lexical'],
          rerank: false,
          feedback,
        })
      ).hits.map((hit) => hit.sourcePath);
    expect(await search(false)).not.toContain('route-3');
    const expanded = await search(true);
    expect(expanded.slice(0, 2).sort()).toEqual(['route-1', 'route-2']);
    expect(expanded).toContain('route-3');
  });

  it('searches a compound token the workspace never indexed whole (Money.amount) by its parts', async () => {
    const result = await createRetriever(loadConfig({}), sql, embedder).retrieve({
      workspaceId: workspace,
      query: 'Money.amount',
      channels: ['lexical'],
      rerank: false,
    });
    expect(result.hits[0]!.sourcePath).toBe('money');
    expect(result.stats.unknownTerms).toEqual([]);
  });
});
