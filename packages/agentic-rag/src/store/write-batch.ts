import { ErrorCode, RagError } from '../errors/index.js';
import { loadSqlFile, type SqlExecutor } from '../db/index.js';
import type { GraphStore, SourceGraph } from '../graph/index.js';
import { assertCurrentIntent, currentIntent, intendDirectWrites } from './intents.js';
import { writeSegment, type PostingColumns } from './lexical-segments/index.js';
import { removeFromStatistics } from './statistics.js';

const UPSERT_DOCUMENTS = loadSqlFile(new URL('./sql/upsert-documents.sql', import.meta.url));
const INSERT_CHUNKS = loadSqlFile(new URL('./sql/insert-chunks.sql', import.meta.url));
const ADD_STATISTICS = loadSqlFile(new URL('./sql/add-statistics.sql', import.meta.url));

/** Keeps the section trail in one text column, which the chunk's tsvector indexes. */
export const SECTION_SEPARATOR = ' > ';

export interface StoredChunkInput {
  chunkId: string;
  index: number;
  text: string;
  tokenCount: number;
  start: number;
  end: number;
  sectionPath: string[];
  metadata: Record<string, unknown>;
  embedding: readonly number[];
}

export interface WriteDocumentInput {
  workspaceId: string;
  sourcePath: string;
  sourceFile: string;
  /** Name of the ingested folder: the prune scope (`listDocuments(workspace, sourceRoot)`). */
  sourceRoot: string;
  kind: string;
  title: string | null;
  url: string | null;
  content: string;
  contentHash: string;
  pipelineFingerprint: string;
  tokenCount: number;
  metadata: Record<string, unknown>;
  embeddingModel: string;
  embeddingDimensions: number;
  chunks: readonly StoredChunkInput[];
  /** What the document asserts about the knowledge graph; absent = nothing (old facts go). */
  graph?: SourceGraph;
}

export type WriteStatus = 'added' | 'updated' | 'unchanged';

export interface WriteDocumentResult {
  status: WriteStatus;
  documentId: number | null;
  corpusVersion: number;
}

/** What one chunk row needs besides its document: the columns of insert-chunks.sql. */
export interface ChunkRow extends StoredChunkInput {
  documentId: number;
}

/** What inserted chunks add to the workspace's BM25 statistics. */
export interface StatisticsDelta {
  lexemes: string[];
  documentFrequencies: number[];
  chunks: number;
  lengthTotal: number;
  /** The inserted chunks' postings by lexeme, for their lexical segment (see writeSegment). */
  postings?: PostingColumns[];
}

/**
 * Writes documents of one workspace inside the caller's transaction: their rows, chunks, BM25
 * postings and statistics, graph facts, and one corpus version for the whole batch. Each
 * statement covers the whole batch, so the cost per document of the shared counters (document
 * frequencies, the workspace row) falls with the batch size. Results are in input order;
 * source paths must be distinct. `graph` is a graph store bound to the same transaction (see
 * PostgresGraphStore.within), or null when the graph is not kept in this database.
 */
export async function writeBatch(
  tx: SqlExecutor,
  inputs: readonly WriteDocumentInput[],
  graph: GraphStore | null,
): Promise<WriteDocumentResult[]> {
  const workspaceId = inputs[0]!.workspaceId;
  // A queued job whose document was deleted or re-asked since stores nothing (SUPERSEDED).
  const intent = currentIntent();
  if (intent) await assertCurrentIntent(tx, workspaceId, intent);
  else
    await intendDirectWrites(
      tx,
      workspaceId,
      inputs.map((input) => input.sourceFile),
    );
  // Not a bare ON CONFLICT DO NOTHING: that waits for any open transaction that updated the row
  // (every other writer's batch does), which would serialise concurrent batches from their start.
  await tx.query(
    `INSERT INTO rag_workspaces (id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM rag_workspaces WHERE id = $1)
     ON CONFLICT (id) DO NOTHING`,
    [workspaceId],
  );

  // The titles the stored chunks were written with: a title counts in each chunk's lexemes, and
  // the upsert below overwrites it before the replaced chunks' statistics are taken out. Locked in
  // the upsert's own order (it would lock these rows anyway), so no other writer changes them first.
  const previous = await tx.query<{ id: number; title: string | null }>(
    `SELECT id, title FROM rag_documents WHERE workspace_id = $1 AND source_path = ANY($2::text[])
     ORDER BY source_path FOR UPDATE`,
    [workspaceId, inputs.map((input) => input.sourcePath)],
  );
  const writtenTitles = new Map(previous.rows.map((row) => [Number(row.id), row.title]));
  const upserted = await tx.query<{ id: number; source_path: string; inserted: boolean }>(UPSERT_DOCUMENTS, [
    workspaceId,
    ...documentColumns(inputs),
  ]);
  const rows = new Map(upserted.rows.map((row) => [row.source_path, row]));
  if (rows.size === 0) {
    const version = await tx.query<{ corpus_version: number }>(
      'SELECT corpus_version FROM rag_workspaces WHERE id = $1',
      [workspaceId],
    );
    const corpusVersion = version.rows[0]?.corpus_version ?? 0;
    return inputs.map(() => ({ status: 'unchanged', documentId: null, corpusVersion }));
  }

  const replaced = upserted.rows.filter((row) => !row.inserted);
  // A document another writer inserted after the read above, and this batch then replaced: the
  // title its chunks were written with is already overwritten. Writers of one document serialise
  // on its intent row before the read (intents.ts), so this should not happen; if that ever
  // changes, the batch fails as a retryable conflict rather than let a document frequency drift.
  const unread = replaced.find((row) => !writtenTitles.has(Number(row.id)));
  if (unread)
    throw new RagError(
      ErrorCode.TRANSACTION_CONFLICT,
      `${unread.source_path} was written by another writer during this batch; retry`,
    );
  if (replaced.length > 0) {
    await lockWorkspace(tx, workspaceId);
    // Before the chunks go: their mentions are how the old facts are found.
    await graph?.deleteSources({ workspaceId, sourcePaths: replaced.map((row) => row.source_path) });
    const ids = replaced.map((row) => row.id);
    await removeFromStatistics(tx, workspaceId, ids, writtenTitles);
    await tx.query('DELETE FROM rag_chunks WHERE document_id = ANY($1::bigint[])', [ids]);
  }

  const chunks: ChunkRow[] = [];
  for (const input of inputs) {
    const row = rows.get(input.sourcePath);
    if (row) for (const chunk of input.chunks) chunks.push({ ...chunk, documentId: row.id });
  }
  const delta = await insertChunks(
    tx,
    workspaceId,
    inputs[0]!.embeddingModel,
    inputs[0]!.embeddingDimensions,
    chunks,
  );

  // The rows every writer of the workspace shares (entities, document frequencies, the
  // workspace's counters), last and behind the workspace row's lock: concurrent batches wait on
  // each other only from here to their commit, and never hold one of these while waiting for
  // another (two batches upserting the same entities in another order would deadlock).
  await lockWorkspace(tx, workspaceId);
  if (graph) {
    for (const input of inputs) {
      if (rows.has(input.sourcePath) && input.graph && input.graph.entities.length > 0)
        await graph.replaceSource({ graph: input.graph });
    }
  }
  await addStatistics(tx, workspaceId, delta);
  await writeSegment(tx, workspaceId, delta.postings ?? []);
  const version = await tx.query<{ corpus_version: number }>(
    'UPDATE rag_workspaces SET corpus_version = corpus_version + 1, updated_at = now() WHERE id = $1 RETURNING corpus_version',
    [workspaceId],
  );
  const corpusVersion = version.rows[0]!.corpus_version;
  await tx.query('UPDATE rag_documents SET corpus_version = $2 WHERE id = ANY($1::bigint[])', [
    upserted.rows.map((row) => row.id),
    corpusVersion,
  ]);
  return inputs.map((input) => {
    const row = rows.get(input.sourcePath);
    if (!row) return { status: 'unchanged', documentId: null, corpusVersion };
    return { status: row.inserted ? 'added' : 'updated', documentId: row.id, corpusVersion };
  });
}

/**
 * Inserts chunks with their postings in one statement whatever their number (see
 * insert-chunks.sql) and returns what they add to the statistics, for addStatistics. Embedding
 * model and dimensions are the batch's: one pipeline writes one model.
 */
export async function insertChunks(
  tx: SqlExecutor,
  workspaceId: string,
  embeddingModel: string,
  embeddingDimensions: number,
  chunks: readonly ChunkRow[],
): Promise<StatisticsDelta> {
  const delta: StatisticsDelta = {
    lexemes: [],
    documentFrequencies: [],
    chunks: chunks.length,
    lengthTotal: 0,
  };
  if (chunks.length === 0) return delta;
  const result = await tx.query<PostingColumns & { df: number; length_total: string | number }>(
    INSERT_CHUNKS,
    [
      workspaceId,
      embeddingModel,
      embeddingDimensions,
      chunks.map((chunk) => chunk.documentId),
      chunks.map((chunk) => chunk.chunkId),
      chunks.map((chunk) => chunk.index),
      chunks.map((chunk) => chunk.text),
      chunks.map((chunk) => chunk.tokenCount),
      chunks.map((chunk) => chunk.start),
      chunks.map((chunk) => chunk.end),
      chunks.map((chunk) => chunk.sectionPath.join(SECTION_SEPARATOR)),
      chunks.map((chunk) => JSON.stringify(chunk.metadata)),
      vectorArrayLiteral(chunks.map((chunk) => chunk.embedding)),
    ],
  );
  for (const row of result.rows) {
    delta.lexemes.push(row.lexeme);
    delta.documentFrequencies.push(row.df);
  }
  delta.postings = result.rows;
  delta.lengthTotal = Number(result.rows[0]?.length_total ?? 0);
  return delta;
}

/** Adds inserted chunks' share to the workspace's statistics (see add-statistics.sql). */
export async function addStatistics(
  tx: SqlExecutor,
  workspaceId: string,
  delta: StatisticsDelta,
): Promise<void> {
  if (delta.chunks === 0) return;
  await tx.query(ADD_STATISTICS, [
    workspaceId,
    delta.lexemes,
    delta.documentFrequencies,
    delta.chunks,
    delta.lengthTotal,
  ]);
}

/**
 * Takes the workspace row's lock before anything every writer of the workspace shares: whoever
 * holds it may change entities, document frequencies and counters, so writers never wait on each
 * other in two orders. Held until commit.
 */
export async function lockWorkspace(tx: SqlExecutor, workspaceId: string): Promise<void> {
  await tx.query('SELECT 1 FROM rag_workspaces WHERE id = $1 FOR NO KEY UPDATE', [workspaceId]);
}

/** Parameters $2..$12 of upsert-documents.sql: one array per column, one element per document. */
function documentColumns(inputs: readonly WriteDocumentInput[]): unknown[] {
  return [
    inputs.map((input) => input.sourcePath),
    inputs.map((input) => input.sourceFile),
    inputs.map((input) => input.sourceRoot),
    inputs.map((input) => input.kind),
    inputs.map((input) => input.title),
    inputs.map((input) => input.url),
    inputs.map((input) => input.content),
    inputs.map((input) => input.contentHash),
    inputs.map((input) => input.pipelineFingerprint),
    inputs.map((input) => input.tokenCount),
    inputs.map((input) => JSON.stringify(input.metadata)),
  ];
}

/**
 * pgvector's text form: each value as float4, to eight significant digits with trailing zeros
 * (and a bare point) dropped. Written by hand rather than with regular expressions: at ingest it
 * runs for every dimension of every chunk (15M values for 20k chunks of 768).
 */
export function vectorLiteral(vector: readonly number[]): string {
  const parts = new Array<string>(vector.length);
  for (let index = 0; index < vector.length; index++) {
    const value = Math.fround(vector[index]!);
    parts[index] = value === 0 ? '0' : trimDigits(value.toPrecision(8));
  }
  return `[${parts.join(',')}]`;
}

/** "0.50000000" → "0.5", "2.0000000" → "2", "1.2000000e-7" → "1.2e-7"; digits without a point stay. */
function trimDigits(digits: string): string {
  const point = digits.indexOf('.');
  if (point < 0) return digits;
  const exponent = digits.indexOf('e');
  let end = exponent < 0 ? digits.length : exponent;
  while (end > point + 1 && digits.charCodeAt(end - 1) === 48) end--;
  if (end === point + 1) end = point;
  return exponent < 0 ? digits.slice(0, end) : digits.slice(0, end) + digits.slice(exponent);
}

/**
 * A Postgres array literal of vector literals. They hold no quote or backslash, so each is quoted
 * as is: the driver would otherwise scan every ~8 KB literal twice to escape nothing.
 */
function vectorArrayLiteral(vectors: readonly (readonly number[])[]): string {
  return `{${vectors.map((vector) => `"${vectorLiteral(vector)}"`).join(',')}}`;
}
