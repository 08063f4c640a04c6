import { ErrorCode, RagError } from '../errors/index.js';
import { currentWorkspaceScope, type Sql, type SqlExecutor } from '../db/index.js';
import { PostgresGraphStore, type GraphStore } from '../graph/index.js';
import {
  dropDeferredIndex,
  ensureDeferredIndexes,
  type DeferredIndex,
  type IndexBuildSettings,
} from './bulk-indexes.js';
import { readCorpusVersion } from './chunk-reader.js';
import { intendDeletion } from './intents.js';
import { backfillLexicalSegments, workspacesWithoutSegments } from './lexical-segments/index.js';
import { PlannerStatistics } from './planner-statistics.js';
import { removeFromStatistics } from './statistics.js';
import { assertWorkspaceId } from './workspace-id.js';
import {
  lockWorkspace,
  writeBatch,
  type WriteDocumentInput,
  type WriteDocumentResult,
} from './write-batch.js';

export { SECTION_SEPARATOR, vectorLiteral } from './write-batch.js';
export type { IndexBuildSettings } from './bulk-indexes.js';
export type {
  StoredChunkInput,
  WriteDocumentInput,
  WriteDocumentResult,
  WriteStatus,
} from './write-batch.js';

export interface DocumentState {
  contentHash: string;
  pipelineFingerprint: string;
}

export interface StoredDocumentRef {
  id: number;
  sourcePath: string;
  sourceFile: string;
}

export interface StoredDocument {
  id: number;
  sourcePath: string;
  sourceFile: string;
  sourceRoot: string;
  title: string | null;
  url: string | null;
  kind: string;
  contentHash: string;
  tokenCount: number;
  metadata: Record<string, unknown>;
  updatedAt: string;
  chunkCount: number;
}

export interface CorpusStats {
  workspaceId: string;
  corpusVersion: number;
  documents: number;
  chunks: number;
  tokens: number;
}

/** How a page of documents is ordered: by source path, or most recently updated first. */
export type DocumentOrder = 'path' | 'updated';

// Whole microseconds since the epoch: the update time exactly as stored, as a cursor can carry it.
const UPDATED_MICROS = '(extract(epoch FROM d.updated_at) * 1000000)::bigint';

/** An `updated` position: microseconds, a space, the path (which may itself hold spaces). */
function splitPosition(position: string): [string, string] {
  const space = position.indexOf(' ');
  const micros = position.slice(0, space);
  if (space < 1 || !/^\d{1,20}$/.test(micros))
    throw new RagError(ErrorCode.INVALID_INPUT, 'after is not a position of this order');
  return [micros, position.slice(space + 1)];
}

export interface WorkspaceSummary {
  id: string;
  corpusVersion: number;
  documents: number;
  updatedAt: string;
}

/** Runs that write fewer documents than this keep the vector index live. */
const BULK_LOAD_MIN_DOCUMENTS = 100;

interface BulkLoad {
  /** Documents written before the indexes are dropped. */
  threshold: number;
  /** The database held no document when the run began. */
  empty: boolean;
  writes: number;
  dropped: Set<DeferredIndex>;
  /** Another workspace held documents when the threshold was reached: nothing is dropped. */
  shared?: boolean;
}

/**
 * Documents and chunks of a workspace. Every change to a document happens in one transaction:
 * its row, all of its chunks and the workspace's corpus version move together or not at all.
 */
export class CorpusStore {
  private columnDimensions: Promise<number | null> | undefined;
  private bulk: BulkLoad | null = null;
  private readonly graph: GraphStore | null;
  private readonly plannerStatistics: PlannerStatistics;
  private readonly indexBuild: IndexBuildSettings;

  /**
   * With a graph store, a document's graph facts change with it. A PostgresGraphStore (the graph
   * in this database) is bound to the store's own transaction, so a document's rows and its facts
   * commit or roll back together. Any other store cannot join that transaction: facts are written
   * before the commit (a failure in between leaves facts for chunks that do not exist yet, which
   * readers skip and a retry replaces) and deleted after it.
   */
  constructor(
    private readonly sql: Sql,
    options: { graph?: GraphStore | null; indexBuild?: IndexBuildSettings } = {},
  ) {
    this.graph = options.graph ?? null;
    this.plannerStatistics = new PlannerStatistics(sql);
    this.indexBuild = options.indexBuild ?? { memoryMb: 1024, workers: 2 };
  }

  /** The fixed dimension of rag_chunks.embedding (set by migration), or null if unconstrained. */
  embeddingColumnDimensions(): Promise<number | null> {
    this.columnDimensions ??= this.sql
      .query<{ dimensions: number }>(
        `SELECT atttypmod AS dimensions FROM pg_attribute
         WHERE attrelid = 'rag_chunks'::regclass AND attname = 'embedding'`,
      )
      .then((result) => {
        const dimensions = result.rows[0]?.dimensions;
        return dimensions !== undefined && dimensions > 0 ? dimensions : null;
      });
    return this.columnDimensions;
  }

  /**
   * An embedder that produces another size than the column would fail on the first insert with
   * an opaque pgvector error; this says what to do instead.
   */
  async assertEmbeddingDimensions(modelId: string, dimensions: number): Promise<void> {
    const column = await this.embeddingColumnDimensions();
    if (column !== null && column !== dimensions) {
      throw new RagError(
        ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
        `embedder ${modelId} produces ${dimensions}-dimensional vectors but rag_chunks.embedding is vector(${column}); ` +
          `set RAG_EMBEDDING_DIMENSIONS=${column} (with a model that supports it) or add a migration that changes the column`,
        { details: { column, embedder: dimensions } },
      );
    }
  }

  /**
   * Runs an ingest run. Building an index over rows already written costs less than inserting
   * into it row by row (see bulk-indexes.ts), so a run that writes a lot drops the vector index
   * and builds it once when it ends, failed or not: once the run has written as many documents as
   * the database held when it began (and at least 100; at once into an empty database). It is not
   * dropped while another workspace holds documents: the index is shared, and one tenant's load
   * must not turn every other tenant's search into a scan. A run that changes little never
   * touches it. Searches in between stay correct, slower: pgvector falls back to an exact scan.
   * (The lexical index is the segments each batch writes: nothing to defer.)
   *
   * A run inside a workspace scope (a caller's ingest through the service) never does: the indexes
   * are every workspace's, and the scope's database role may not drop them anyway (it would fail
   * the run, and its count of documents would see one workspace only).
   */
  async withBulkLoad<T>(work: () => Promise<T>): Promise<T> {
    if (this.bulk || currentWorkspaceScope() !== undefined) return work();
    const existing = (await this.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM rag_documents'))
      .rows[0]!.n;
    const bulk: BulkLoad = {
      threshold: existing === 0 ? 1 : Math.max(BULK_LOAD_MIN_DOCUMENTS, existing),
      empty: existing === 0,
      writes: 0,
      dropped: new Set(),
    };
    this.bulk = bulk;
    try {
      return await work();
    } finally {
      this.bulk = null;
      if (bulk.dropped.size > 0) await this.ensureIndexes();
    }
  }

  /**
   * Before a batch: the batch that would reach the threshold is the first written without the
   * indexes. After it, `written` counts the documents it added or changed.
   */
  private async countBulkWrites(
    workspaceId: string,
    documents: number,
    phase: 'before' | 'after',
  ): Promise<void> {
    const bulk = this.bulk;
    if (!bulk) return;
    if (phase === 'after') {
      bulk.writes += documents;
      return;
    }
    if (bulk.writes + documents < bulk.threshold) return;
    // The indexes are every workspace's: while another workspace holds documents, dropping them
    // would turn its searches into scans for as long as this load runs. Then the load pays for
    // the index as it goes instead.
    if (bulk.shared === undefined) {
      const others = await this.sql.query<{ found: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM rag_documents WHERE workspace_id <> $1) AS found',
        [workspaceId],
      );
      bulk.shared = others.rows[0]!.found;
    }
    if (bulk.shared) return;
    if (bulk.dropped.has('vector')) return;
    bulk.dropped.add('vector');
    await dropDeferredIndex(this.sql, 'vector');
  }

  /**
   * Puts the chunks of workspaces written before lexical segments existed into segments (every
   * start calls it; a no-op once done). Returns the workspaces completed.
   */
  async completeLexicalSegments(): Promise<string[]> {
    const done: string[] = [];
    for (const workspaceId of await workspacesWithoutSegments(this.sql))
      if (await backfillLexicalSegments(this.sql, workspaceId)) done.push(workspaceId);
    return done;
  }

  /** Builds the indexes a bulk load dropped, if any are missing (every start calls it). */
  async ensureIndexes(): Promise<void> {
    await ensureDeferredIndexes(this.sql, this.indexBuild);
  }

  async documentState(workspaceId: string, sourcePath: string): Promise<DocumentState | null> {
    const result = await this.sql.query<{ content_hash: string; pipeline_fingerprint: string }>(
      'SELECT content_hash, pipeline_fingerprint FROM rag_documents WHERE workspace_id = $1 AND source_path = $2',
      [workspaceId, sourcePath],
    );
    const row = result.rows[0];
    return row ? { contentHash: row.content_hash, pipelineFingerprint: row.pipeline_fingerprint } : null;
  }

  async writeDocument(input: WriteDocumentInput, signal?: AbortSignal): Promise<WriteDocumentResult> {
    return (await this.writeDocuments([input], signal))[0]!;
  }

  /**
   * Writes documents of one workspace in one transaction (see writeBatch): all of them or none.
   * Source paths must be distinct. A bulk load writes many at a time, so that the statistics every
   * document shares are updated once per batch.
   */
  async writeDocuments(
    inputs: readonly WriteDocumentInput[],
    signal?: AbortSignal,
  ): Promise<WriteDocumentResult[]> {
    if (inputs.length === 0) return [];
    const workspaceId = inputs[0]!.workspaceId;
    assertWorkspaceId(workspaceId);
    const paths = new Set<string>();
    for (const input of inputs) {
      if (input.workspaceId !== workspaceId || paths.has(input.sourcePath)) {
        throw new RagError(
          ErrorCode.INVALID_INPUT,
          `a write batch holds one workspace and distinct documents; ${input.workspaceId}/${input.sourcePath} breaks that`,
        );
      }
      paths.add(input.sourcePath);
      await this.assertEmbeddingDimensions(input.embeddingModel, input.embeddingDimensions);
      for (const chunk of input.chunks) {
        if (chunk.embedding.length !== input.embeddingDimensions) {
          throw new RagError(
            ErrorCode.EMBEDDING_DIMENSION_MISMATCH,
            `chunk ${chunk.index} of ${input.sourcePath} has a ${chunk.embedding.length}-dimensional embedding, expected ${input.embeddingDimensions}`,
          );
        }
      }
    }
    const graph = this.graph;
    const external = graph && !(graph instanceof PostgresGraphStore) ? graph : null;
    if (external) {
      for (const input of inputs) {
        await external.replaceSource({
          graph: input.graph ?? { workspaceId, sourcePath: input.sourcePath, entities: [], relations: [] },
          signal,
        });
      }
    }
    await this.countBulkWrites(workspaceId, inputs.length, 'before');
    const results = await this.sql.transaction(
      (tx) => writeBatch(tx, inputs, this.graphWithin(tx)),
      signal ? { signal } : {},
    );
    await this.countBulkWrites(
      workspaceId,
      results.filter((result) => result.status !== 'unchanged').length,
      'after',
    );
    await this.plannerStatistics.changedChunks(
      inputs.reduce(
        (sum, input, index) => sum + (results[index]!.status === 'unchanged' ? 0 : input.chunks.length),
        0,
      ),
    );
    return results;
  }

  /**
   * Deletes documents (their chunks and graph facts cascade) and bumps the version once. A
   * caller's delete (`supersede`) also starts a new generation of each document and of the file it
   * came from, in the same transaction, so an ingest queued before it cannot bring it back.
   */
  async deleteDocuments(
    workspaceId: string,
    sourcePaths: readonly string[],
    options: { supersede?: boolean } = {},
  ): Promise<number> {
    if (sourcePaths.length === 0) return 0;
    const deleted = await this.sql.transaction(async (tx) => {
      const doomed = await tx.query<{ id: number; source_file: string }>(
        'SELECT id, source_file FROM rag_documents WHERE workspace_id = $1 AND source_path = ANY($2::text[]) ORDER BY id FOR UPDATE',
        [workspaceId, [...sourcePaths]],
      );
      if (options.supersede) {
        await intendDeletion(tx, workspaceId, [...sourcePaths, ...doomed.rows.map((row) => row.source_file)]);
      }
      const ids = doomed.rows.map((row) => row.id);
      if (ids.length === 0) return 0;
      await lockWorkspace(tx, workspaceId);
      await this.graphWithin(tx)?.deleteSources({ workspaceId, sourcePaths });
      await removeFromStatistics(tx, workspaceId, ids);
      const deleted = await tx.query('DELETE FROM rag_documents WHERE id = ANY($1::bigint[])', [ids]);
      if (deleted.rowCount > 0) await bumpVersion(tx, workspaceId);
      return deleted.rowCount;
    });
    const graph = this.graph;
    if (graph && !(graph instanceof PostgresGraphStore))
      await graph.deleteSources({ workspaceId, sourcePaths });
    return deleted;
  }

  /** The graph store bound to the store's transaction `tx`, when the graph lives in this database. */
  private graphWithin(tx: SqlExecutor): GraphStore | null {
    return this.graph instanceof PostgresGraphStore ? this.graph.within(tx) : null;
  }

  async listDocuments(
    workspaceId: string,
    sourceRoot?: string,
    sourceFile?: string,
  ): Promise<StoredDocumentRef[]> {
    const result = await this.sql.query<{ id: number; source_path: string; source_file: string }>(
      `SELECT id, source_path, source_file FROM rag_documents
       WHERE workspace_id = $1 AND ($2::text IS NULL OR source_root = $2) AND ($3::text IS NULL OR source_file = $3)
       ORDER BY source_path`,
      [workspaceId, sourceRoot ?? null, sourceFile ?? null],
    );
    return result.rows.map((row) => ({
      id: row.id,
      sourcePath: row.source_path,
      sourceFile: row.source_file,
    }));
  }

  /** One document by its source path, with its chunk count. */
  async getDocument(workspaceId: string, sourcePath: string): Promise<StoredDocument | null> {
    const page = await this.documents(workspaceId, { exact: sourcePath, first: 1 });
    return page.documents[0] ?? null;
  }

  /** A document's text as ingested (what chunk offsets index into); null when there is no such document. */
  async documentContent(workspaceId: string, sourcePath: string): Promise<string | null> {
    const result = await this.sql.query<{ content: string }>(
      'SELECT content FROM rag_documents WHERE workspace_id = $1 AND source_path = $2',
      [workspaceId, sourcePath],
    );
    return result.rows[0]?.content ?? null;
  }

  /**
   * Documents in source-path order, `first` at a time after the source path `after` (keyset
   * pagination: stable while documents are added or removed), optionally under a path prefix.
   */
  /**
   * A page of a workspace's documents in source-path order or newest update first. `after` is the
   * `positions` entry of the last document of the page before: the path, or for `updated` the
   * update time in microseconds and the path (a millisecond ISO time would skip or repeat rows).
   */
  async documents(
    workspaceId: string,
    options: {
      first: number;
      after?: string | null;
      sourcePrefix?: string | null;
      /** Case-insensitive substring of the id (source path), title or kind. */
      search?: string | null;
      exact?: string;
      order?: DocumentOrder;
    },
  ): Promise<{ documents: StoredDocument[]; positions: string[]; total: number; hasMore: boolean }> {
    const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');
    const prefix = options.sourcePrefix ? `${literal(options.sourcePrefix)}%` : null;
    const contains = options.search ? `%${literal(options.search)}%` : null;
    const matches = (at: number) =>
      `($${at}::text IS NULL OR d.source_path ILIKE $${at} OR d.title ILIKE $${at} OR d.source_kind ILIKE $${at})`;
    const updated = options.order === 'updated';
    const after = options.after ?? null;
    const [afterMicros, afterPath] = updated && after !== null ? splitPosition(after) : [null, after];
    const result = await this.sql.query<{
      id: number;
      source_path: string;
      source_file: string;
      source_root: string;
      title: string | null;
      url: string | null;
      kind: string;
      content_hash: string;
      token_count: number;
      metadata: Record<string, unknown>;
      updated_at: Date | string;
      updated_micros: string;
      chunks: number;
    }>(
      `SELECT d.id, d.source_path, d.source_file, d.source_root, d.title, d.url, d.source_kind AS kind, d.content_hash,
              d.token_count, d.metadata, d.updated_at, ${UPDATED_MICROS} AS updated_micros,
              (SELECT count(*) FROM rag_chunks c WHERE c.document_id = d.id)::int AS chunks
       FROM rag_documents d
       WHERE d.workspace_id = $1 AND ($2::text IS NULL OR d.source_path LIKE $2)
         AND ($3::text IS NULL OR d.source_path = $3) AND ${matches(6)}
         AND ${
           updated
             ? `($7::bigint IS NULL OR (${UPDATED_MICROS}, d.source_path) < ($7::bigint, $4::text))`
             : '($4::text IS NULL OR d.source_path > $4)'
         }
       ORDER BY ${updated ? 'd.updated_at DESC, d.source_path DESC' : 'd.source_path'}
       LIMIT $5`,
      [
        workspaceId,
        prefix,
        options.exact ?? null,
        afterPath,
        options.first + 1,
        contains,
        ...(updated ? [afterMicros] : []),
      ],
    );
    const total = await this.sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM rag_documents d
       WHERE d.workspace_id = $1 AND ($2::text IS NULL OR d.source_path LIKE $2)
         AND ($3::text IS NULL OR d.source_path = $3) AND ${matches(4)}`,
      [workspaceId, prefix, options.exact ?? null, contains],
    );
    const page = result.rows.slice(0, options.first);
    return {
      documents: page.map((row) => ({
        id: row.id,
        sourcePath: row.source_path,
        sourceFile: row.source_file,
        sourceRoot: row.source_root,
        title: row.title,
        url: row.url,
        kind: row.kind,
        contentHash: row.content_hash,
        tokenCount: row.token_count,
        metadata: row.metadata,
        updatedAt: new Date(row.updated_at).toISOString(),
        chunkCount: row.chunks,
      })),
      positions: page.map((row) =>
        updated ? `${String(row.updated_micros)} ${row.source_path}` : row.source_path,
      ),
      total: total.rows[0]!.total,
      hasMore: result.rows.length > options.first,
    };
  }

  /** A document's chunks in order. */
  /** The workspace's corpus version alone (0 before its first write): one row, not a count. */
  async corpusVersion(workspaceId: string): Promise<number> {
    return (await readCorpusVersion(this.sql, workspaceId)) ?? 0;
  }

  /** Every workspace with what it holds, by id (the deployment's list; callers filter by scope). */
  async workspaces(): Promise<WorkspaceSummary[]> {
    const result = await this.sql.query<{
      id: string;
      corpus_version: number;
      documents: number;
      updated_at: Date | string;
    }>(
      `SELECT w.id, w.corpus_version, w.updated_at,
              (SELECT count(*) FROM rag_documents d WHERE d.workspace_id = w.id)::int AS documents
       FROM rag_workspaces w ORDER BY w.id`,
    );
    return result.rows.map((row) => ({
      id: row.id,
      corpusVersion: Number(row.corpus_version),
      documents: Number(row.documents),
      updatedAt: new Date(row.updated_at).toISOString(),
    }));
  }

  async stats(workspaceId: string): Promise<CorpusStats> {
    const result = await this.sql.query<{
      corpus_version: number | null;
      documents: number;
      chunks: number;
      tokens: number;
    }>(
      `SELECT (SELECT corpus_version FROM rag_workspaces WHERE id = $1) AS corpus_version,
              (SELECT count(*) FROM rag_documents WHERE workspace_id = $1) AS documents,
              (SELECT count(*) FROM rag_chunks WHERE workspace_id = $1) AS chunks,
              (SELECT coalesce(sum(token_count), 0) FROM rag_chunks WHERE workspace_id = $1) AS tokens`,
      [workspaceId],
    );
    const row = result.rows[0]!;
    return {
      workspaceId,
      corpusVersion: row.corpus_version ?? 0,
      documents: row.documents,
      chunks: row.chunks,
      tokens: row.tokens,
    };
  }
}

async function bumpVersion(tx: SqlExecutor, workspaceId: string): Promise<number> {
  const result = await tx.query<{ corpus_version: number }>(
    'UPDATE rag_workspaces SET corpus_version = corpus_version + 1, updated_at = now() WHERE id = $1 RETURNING corpus_version',
    [workspaceId],
  );
  return result.rows[0]!.corpus_version;
}
