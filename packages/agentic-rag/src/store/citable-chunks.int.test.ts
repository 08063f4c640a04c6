import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { chunkSurroundings } from './citable-chunks.js';
import { CorpusStore } from './corpus-store.js';

describe.each(testBackends())('chunkSurroundings ($name)', (backend) => {
  let sql: Sql;
  const workspace = uniqueWorkspace('around');
  // Astral characters before the cut: offsets count code points, as substr does.
  const paragraphs = Array.from(
    { length: 12 },
    (_, index) =>
      `Paragraph ${index} 𝒮 of the depot rules 😀 says bay ${index} is for trailers of route ${index}.`,
  );

  beforeAll(async () => {
    sql = await backend.open();
    const pipeline = new IngestPipeline({
      store: new CorpusStore(sql),
      embedder: new DeterministicEmbedder(),
      maxTokens: 40,
      overlapTokens: 0,
    });
    await pipeline.ingestInline(workspace, [{ id: 'notes/rules.md', content: paragraphs.join('\n\n') }]);
  });

  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await sql.close();
  });

  it("reads the document's text on either side of each chunk, exactly where the chunk is cut", async () => {
    const content = [...((await new CorpusStore(sql).documentContent(workspace, 'notes/rules.md')) ?? '')];
    const chunks = await sql.query<{ chunk_id: string; start_offset: number; end_offset: number }>(
      'SELECT chunk_id, start_offset, end_offset FROM rag_chunks WHERE workspace_id = $1 ORDER BY chunk_index',
      [workspace],
    );
    expect(chunks.rows.length).toBeGreaterThan(2);
    const around = await chunkSurroundings(
      sql,
      workspace,
      chunks.rows.map((row) => row.chunk_id),
      30,
    );
    for (const row of chunks.rows) {
      expect(around.get(row.chunk_id)).toEqual({
        before: content.slice(Math.max(0, row.start_offset - 30), row.start_offset).join(''),
        after: content.slice(row.end_offset, row.end_offset + 30).join(''),
      });
    }
    expect(around.get(chunks.rows[0]!.chunk_id)!.before).toBe('');
    expect(around.get(chunks.rows.at(-1)!.chunk_id)!.after).toBe('');
  });
});
