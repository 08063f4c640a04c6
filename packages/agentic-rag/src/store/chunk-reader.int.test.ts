import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { singleChunkDocument } from '../../../../test/documents.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { IngestPipeline } from '../ingest/index.js';
import { ChunkReader, citable } from './chunk-reader.js';
import { CorpusStore } from './corpus-store.js';

describe.each(testBackends())('ChunkReader ($name)', (backend) => {
  let sql: Sql;
  let reader: ChunkReader;
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
    await new CorpusStore(sql).writeDocument({
      ...singleChunkDocument({
        workspaceId: workspace,
        sourcePath: 'notes/bays.md',
        text: 'Bay 7 is closed on Sundays. Example request body: {"bay": 7}',
        embeddingModel: new DeterministicEmbedder().modelId,
      }),
      metadata: { ref_ids: ['notes/rules.md'], page_number: 4 },
    });
    reader = new ChunkReader(sql);
  });

  const stored = () =>
    sql.query<{ id: number; chunk_id: string; source_path: string; chunk_index: number }>(
      `SELECT c.id, c.chunk_id, d.source_path, c.chunk_index
         FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
        WHERE c.workspace_id = $1 ORDER BY d.source_path, c.chunk_index`,
      [workspace],
    );

  afterAll(async () => {
    await dropWorkspace(sql, workspace);
    await sql.close();
  });

  it("reads the document's text on either side of each chunk, exactly where the chunk is cut", async () => {
    const content = [...((await new CorpusStore(sql).documentContent(workspace, 'notes/rules.md')) ?? '')];
    const chunks = await sql.query<{ chunk_id: string; start_offset: number; end_offset: number }>(
      `SELECT c.chunk_id, c.start_offset, c.end_offset FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
        WHERE c.workspace_id = $1 AND d.source_path = 'notes/rules.md' ORDER BY c.chunk_index`,
      [workspace],
    );
    expect(chunks.rows.length).toBeGreaterThan(2);
    const around = await reader.surroundings(
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

  it('reads chunks by row id with their document, and no other', async () => {
    const rows = (await stored()).rows;
    const wanted = [rows[0]!, rows.at(-1)!];
    const found = await reader.byIds([...wanted.map((row) => row.id), 2 ** 40]);
    expect([...found.keys()].sort()).toEqual(wanted.map((row) => row.id).sort());
    for (const row of wanted) {
      const chunk = found.get(row.id)!;
      expect(chunk).toMatchObject({
        chunkId: row.chunk_id,
        sourcePath: row.source_path,
        chunkIndex: row.chunk_index,
      });
      expect([...chunk.text].length).toBe(chunk.endOffset - chunk.startOffset);
    }
    // Sorted by path, the first row is the hand-written one, with its document's metadata.
    expect(found.get(rows[0]!.id)!.documentMetadata).toMatchObject({ ref_ids: ['notes/rules.md'] });
    expect(await reader.byIds([])).toEqual(new Map());
    expect(await reader.chunkIds(wanted.map((row) => row.id))).toEqual(
      expect.arrayContaining(wanted.map((row) => row.chunk_id)),
    );
  });

  it('reads documents in the order asked, each in chunk order, and skips what is not stored', async () => {
    const chunks = await reader.ofDocuments(workspace, [
      'notes/rules.md',
      'notes/missing.md',
      'notes/bays.md',
    ]);
    const paths = chunks.map((chunk) => chunk.sourcePath);
    expect(paths.at(-1)).toBe('notes/bays.md');
    expect(paths.indexOf('notes/bays.md')).toBe(paths.length - 1);
    const indexes = chunks
      .filter((chunk) => chunk.sourcePath === 'notes/rules.md')
      .map((chunk) => chunk.chunkIndex);
    expect(indexes).toEqual([...indexes].sort((left, right) => left - right));
    expect(indexes.length).toBeGreaterThan(2);
    expect(await reader.ofDocuments(uniqueWorkspace('elsewhere'), ['notes/rules.md'])).toEqual([]);
    const first = await reader.firstOf(chunks[0]!.documentId, 2);
    expect(first.map((chunk) => chunk.chunkId)).toEqual(chunks.slice(0, 2).map((chunk) => chunk.chunkId));
  });

  it('finds chunks by document, chunk id and contained text, within the workspace', async () => {
    const rows = (await stored()).rows.filter((row) => row.source_path === 'notes/rules.md');
    const byText = await reader.find(workspace, { containing: 'Example request body:' });
    expect(byText.map(citable)).toEqual([
      expect.objectContaining({ sourceId: 'notes/bays.md', text: expect.stringContaining('{"bay": 7}') }),
    ]);
    const byId = await reader.find(workspace, { chunkIds: [rows[1]!.chunk_id, rows[1]!.chunk_id] });
    expect(byId.map((chunk) => chunk.chunkId)).toEqual([rows[1]!.chunk_id]);
    const both = await reader.find(workspace, { sourcePaths: ['notes/rules.md'], containing: 'bay 3 ' });
    expect(both.map((chunk) => chunk.sourcePath)).toEqual(['notes/rules.md']);
    expect(await reader.find(workspace, { sourcePaths: ['notes/bays.md'], containing: 'bay 3 ' })).toEqual(
      [],
    );
    expect(await reader.find(uniqueWorkspace('elsewhere'), { containing: 'Bay' })).toEqual([]);
  });

  it("reads a workspace's corpus version, and null for a workspace that does not exist", async () => {
    expect(await reader.corpusVersion(workspace)).toBe(await new CorpusStore(sql).corpusVersion(workspace));
    expect(await reader.corpusVersion(workspace)).toBeGreaterThan(0);
    expect(await reader.corpusVersion(uniqueWorkspace('never'))).toBeNull();
  });
});
