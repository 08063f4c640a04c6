import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { ErrorCode } from '../errors/index.js';
import { NumberedEntityExtractor, PostgresGraphStore, type GraphStore } from '../graph/index.js';
import { createRetriever } from '../retrieve/index.js';
import { createRuntime } from '../runtime/index.js';
import { CorpusStore } from '../store/index.js';
import { ingestBinaryFiles, ingestPdfPages } from '../telemetry/index.js';
import { writePdf } from './loaders/pdf-writer.test-support.js';
import { IngestPipeline } from './pipeline.js';

/**
 * Three textbook pages: Algorithm 3.2's caption and first lines at the foot of page 1, its last
 * lines at the top of page 2 (after the running head), Table 3.1 and Equation (3.3) on page 2,
 * a page 3 of prose. Folios at the foot of every page.
 */
async function textbook(): Promise<Uint8Array> {
  const running = { text: 'Algorithms for Decision Making', x: 200, y: 760, size: 9 } as const;
  return writePdf([
    [
      { text: 'Chapter 3: Inventory Control', y: 720, size: 20, font: 'bold' },
      { text: '3.1 Reorder Policies', y: 690, size: 14, font: 'bold' },
      { text: 'The (s, S) policy orders up to the level S whenever the stock falls below s.', y: 660 },
      { text: 'Holding costs and backorder penalties decide where s and S should sit.', y: 646 },
      { text: 'Algorithm 3.2. The (s, S) inventory policy', y: 130 },
      { text: 'function reorder(s, S, stock)', y: 112, font: 'mono' },
      { text: 'if stock < s', x: 84, y: 100, font: 'mono' },
      { text: '88', x: 300, y: 40, size: 9 },
    ],
    [
      running,
      { text: 'return S - stock', x: 96, y: 720, font: 'mono' },
      { text: 'end', y: 708, font: 'mono' },
      { text: '3.2 Demand', y: 670, size: 14, font: 'bold' },
      { text: 'Table 3.1. Weekly demand statistics', y: 640 },
      { text: 'Item', y: 620 },
      { text: 'Mean', x: 220, y: 620 },
      { text: 'Deviation', x: 360, y: 620 },
      { text: 'Widget', y: 606 },
      { text: '12.5', x: 220, y: 606 },
      { text: '3.1', x: 360, y: 606 },
      { text: 'Gadget', y: 592 },
      { text: '7.0', x: 220, y: 592 },
      { text: '1.2', x: 360, y: 592 },
      { text: 'The safety stock follows from the deviation of the weekly demand.', y: 560 },
      { text: 'safety = z * sigma * sqrt(lead)', x: 180, y: 540 },
      { text: '(3.3)', x: 500, y: 540 },
      { text: '89', x: 300, y: 40, size: 9 },
    ],
    [
      running,
      { text: 'Seasonal demand makes the reorder point move with the calendar.', y: 720 },
      { text: '90', x: 300, y: 40, size: 9 },
    ],
  ]);
}

async function notes(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Warehouse Notes', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: 'Dock Schedule', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('Trucks are unloaded at the north dock before noon.'),
          new Table({
            rows: [
              new TableRow({ children: [cell('Dock'), cell('Opens')] }),
              new TableRow({ children: [cell('North'), cell('06:00')] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

describe.each(testBackends())('PDF and DOCX ingestion on $name', (backend) => {
  let sql: Sql;
  let graph: GraphStore;
  let pipeline: IngestPipeline;
  let root: string;
  let label: string;
  let workspaceId: string;
  const embedder = new DeterministicEmbedder();

  beforeEach(async () => {
    sql = await backend.open();
    graph = new PostgresGraphStore(sql);
    pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder,
      maxTokens: 60,
      overlapTokens: 10,
      extractors: [new NumberedEntityExtractor()],
    });
    workspaceId = uniqueWorkspace('paged');
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-paged-'));
    label = path.basename(root);
    await writeFile(path.join(root, 'textbook.pdf'), await textbook());
    await writeFile(path.join(root, 'notes.docx'), await notes());
    await writeFile(path.join(root, 'broken.pdf'), '%PDF-1.7\nthis is not really a PDF\n');
    await writeFile(path.join(root, 'broken.docx'), 'not a zip archive');
    await writeFile(path.join(root, 'readme.md'), '# Readme\n\nPlain Markdown still ingests beside them.\n');
  });

  afterEach(async () => {
    await dropWorkspace(sql, workspaceId);
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  const chunksOf = async (file: string) =>
    (
      await sql.query<{ text: string; metadata: Record<string, unknown>; section_path: string }>(
        `SELECT c.text, c.metadata, c.section_path FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
          WHERE c.workspace_id = $1 AND d.source_path = $2 ORDER BY c.chunk_index`,
        [workspaceId, `${label}/${file}`],
      )
    ).rows;

  /** The /metrics counters of parsed binary files, by `format/outcome`, and of PDF pages. */
  const parsed = async () => ({
    files: Object.fromEntries(
      (await ingestBinaryFiles.get()).values.map((value) => [
        `${value.labels.format}/${value.labels.outcome}`,
        value.value,
      ]),
    ),
    pages: (await ingestPdfPages.get()).values[0]?.value ?? 0,
  });

  it('ingests PDF and DOCX beside a broken file of each, with a page on every PDF chunk', async () => {
    const before = await parsed();
    const summary = await pipeline.ingestSources({ workspaceId, sources: [root] });
    const after = await parsed();
    const grew = (key: string) => (after.files[key] ?? 0) - (before.files[key] ?? 0);
    expect(['pdf/ok', 'pdf/parse_failed', 'docx/ok', 'docx/parse_failed'].map(grew)).toEqual([1, 1, 1, 1]);
    expect(after.pages - before.pages).toBe(3);
    // Files load four at a time: failures come in the order their parses finish.
    const failures = summary.failures
      .map(({ sourcePath, code }) => ({ sourcePath, code }))
      .sort((left, right) => left.sourcePath.localeCompare(right.sourcePath));
    expect(failures).toEqual([
      { sourcePath: `${label}/broken.docx`, code: ErrorCode.PARSE_FAILED },
      { sourcePath: `${label}/broken.pdf`, code: ErrorCode.PARSE_FAILED },
    ]);
    expect(summary.documents.added).toBe(3);

    const chunks = await chunksOf('textbook.pdf');
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.metadata.page_number).toEqual(expect.any(Number));
    // Page 1 holds the caption; the code block runs onto page 2, as the chunk says.
    const algorithm = chunks.find((chunk) => chunk.text.includes('**Algorithm 3.2.**'))!;
    expect(algorithm.text).toContain('  if stock < s\n    return S - stock\nend');
    expect(algorithm.metadata).toMatchObject({ page_number: 1, page_end: 2 });
    const table = chunks.find((chunk) => chunk.text.includes('| Widget | 12.5 | 3.1 |'))!;
    expect(table.text).toContain('| Item | Mean | Deviation |\n| --- | --- | --- |');
    expect(table.metadata.page_number).toBe(2);
    expect(table.section_path).toBe('Chapter 3: Inventory Control > 3.2 Demand');
    // A page that starts between two blocks starts a chunk: page 3's prose is a chunk of page 3.
    const seasonal = chunks.find((chunk) => chunk.text.includes('Seasonal demand'))!;
    expect(seasonal.text).toBe('Seasonal demand makes the reorder point move with the calendar.');
    expect(seasonal.metadata).toEqual({ block_types: ['paragraph'], page_number: 3 });
    // Running heads and folios are not content.
    expect(chunks.some((chunk) => /Algorithms for Decision Making|\b8[89]\b/.test(chunk.text))).toBe(false);

    const docx = await chunksOf('notes.docx');
    expect(docx.map((chunk) => chunk.text).join('\n')).toMatch(/\| *North *\| *06:00 *\|/);
    expect(docx[0]!.section_path).toBe('Warehouse Notes > Dock Schedule');
    expect(docx[0]!.metadata.page_number).toBeUndefined();
  });

  it('finds PDF chunks by search, and by page with the page_number filter', async () => {
    await pipeline.ingestSources({ workspaceId, sources: [root] });
    const retriever = createRetriever(loadConfig({}), sql, embedder);
    const { hits } = await retriever.retrieve({ workspaceId, query: 'seasonal demand reorder point', k: 3 });
    expect(hits[0]).toMatchObject({ sourcePath: `${label}/textbook.pdf`, metadata: { page_number: 3 } });
    const onPage2 = await retriever.retrieve({
      workspaceId,
      query: 'weekly demand statistics',
      k: 10,
      filters: { page_number: 2 },
    });
    expect(onPage2.hits.length).toBeGreaterThan(0);
    // A chunk is on page 2 when its range page_number..page_end covers it.
    for (const { metadata } of onPage2.hits) {
      const first = metadata.page_number as number;
      expect([first, (metadata.page_end as number | undefined) ?? first]).toSatisfy(
        ([from, to]: number[]) => from! <= 2 && to! >= 2,
      );
    }
  });

  it('keeps what each file was as its kind, so a kind filter finds PDFs and .docx files', async () => {
    await pipeline.ingestSources({ workspaceId, sources: [root] });
    const retriever = createRetriever(loadConfig({}), sql, embedder);
    const sourcesOf = async (kind: string, query: string) =>
      new Set(
        (await retriever.retrieve({ workspaceId, query, k: 20, filters: { kind } })).hits.map((hit) =>
          hit.sourcePath.split('/').pop(),
        ),
      );
    expect(await sourcesOf('pdf', 'weekly demand')).toEqual(new Set(['textbook.pdf']));
    expect(await sourcesOf('docx', 'trucks unloaded at the north dock')).toEqual(new Set(['notes.docx']));
    const markdown = await sourcesOf('markdown', 'weekly demand trucks dock');
    expect([...markdown].some((name) => /\.(pdf|docx)$/.test(name!))).toBe(false);
  });

  it('gives numbered entities the page their definition starts on, across a page break', async () => {
    await pipeline.ingestSources({ workspaceId, sources: [root] });
    const pageOf = async (id: string) =>
      (await graph.findEntities({ workspaceId, ids: [id] }))[0]?.properties.page;
    expect(await pageOf('Algorithm:3.2')).toBe(1);
    expect(await pageOf('Table:3.1')).toBe(2);
    expect(await pageOf('Formula:3.3')).toBe(2);
    expect(await pageOf('Section:3.2')).toBe(2);
    expect(await pageOf('Chapter:3')).toBe(1);
  });

  it('re-ingests an unchanged PDF as unchanged', async () => {
    await pipeline.ingestSources({ workspaceId, sources: [root] });
    const again = await pipeline.ingestSources({ workspaceId, sources: [root] });
    expect(again.documents.unchanged).toBe(3);
    expect(again.chunks).toBe(0);
  });

  it('cites a PDF passage with the page it starts on, and a Word one without', async () => {
    const runtime = await createRuntime({
      config: loadConfig({ AGENTIC_RAG_CACHE: 'false' }),
      sql,
      embedder,
    });
    try {
      await runtime.pipeline.ingestSources({ workspaceId, sources: [root] });
      const answer = await runtime.orchestrator.answer({
        workspaceId,
        query: 'How does seasonal demand move the reorder point?',
      });
      const pdf = answer.citations.find((citation) => citation.sourceId === `${label}/textbook.pdf`);
      expect(pdf?.pageNumber).toBe(3);
      const markdown = await runtime.orchestrator.answer({
        workspaceId,
        query: 'When is the north dock unloaded?',
      });
      const word = markdown.citations.find((citation) => citation.sourceId === `${label}/notes.docx`);
      expect(word).toBeDefined();
      expect(word!.pageNumber).toBeNull();
    } finally {
      await runtime.close();
    }
  });
});
