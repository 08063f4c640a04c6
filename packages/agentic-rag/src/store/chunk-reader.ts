import type { SqlExecutor } from '../db/index.js';

/** What a search hit, a followed reference and a context chunk show of a stored chunk. */
export interface ChunkDisplay {
  /** Internal row id, for the graph and context stages. */
  id: number;
  chunkId: string;
  documentId: number;
  sourcePath: string;
  kind: string;
  title: string | null;
  url: string | null;
  text: string;
  tokenCount: number;
  startOffset: number;
  endOffset: number;
  sectionPath: string;
  metadata: Record<string, unknown>;
}

/**
 * A stored chunk with its document's fields: the one row shape every reader of a chunk outside
 * the ranking (a search hit, a followed reference, a citation, a definition) gets.
 */
export interface ChunkRecord extends ChunkDisplay {
  chunkIndex: number;
  /** The document's own metadata: its `ref_ids`, `referenced_by`, page, a knowledge piece's types. */
  documentMetadata: Record<string, unknown>;
}

/** What a citation shows of a chunk. */
export interface CitableChunk {
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  text: string;
  startOffset: number;
  endOffset: number;
}

/** The document text just before and just after a chunk. */
export interface ChunkSurroundings {
  before: string;
  after: string;
}

type Row = {
  id: number;
  chunk_id: string;
  chunk_index: number;
  text: string;
  token_count: number;
  start_offset: number;
  end_offset: number;
  section_path: string | null;
  metadata: Record<string, unknown> | null;
  document_id: number;
  source_path: string;
  source_kind: string;
  title: string | null;
  url: string | null;
  document_metadata: Record<string, unknown> | null;
};

const COLUMNS = `c.id, c.chunk_id, c.chunk_index, c.text, c.token_count, c.start_offset, c.end_offset,
       c.section_path, c.metadata, d.id AS document_id, d.source_path, d.source_kind, d.title, d.url,
       d.metadata AS document_metadata`;
const FROM = 'FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id';

/**
 * Reads chunks and their documents for display, by row id, document, chunk id or contained text.
 * Each query is its own statement rather than one with optional predicates: the hot one (a
 * search's hits by row id) must plan as a plain index lookup. The ranking's own queries (channels,
 * operation search) read what they score and stay with the ranking.
 */
export class ChunkReader {
  constructor(private readonly sql: SqlExecutor) {}

  /** Chunks by internal row id, in any workspace: the ids came from a workspace-scoped search. */
  async byIds(ids: readonly number[]): Promise<Map<number, ChunkRecord>> {
    if (ids.length === 0) return new Map();
    const result = await this.sql.query<Row>(`SELECT ${COLUMNS} ${FROM} WHERE c.id = ANY($1::bigint[])`, [
      [...ids],
    ]);
    return new Map(result.rows.map((row) => [row.id, record(row)]));
  }

  /** The chunks of the documents at `sourcePaths`, in the order asked, each in chunk order. */
  async ofDocuments(workspaceId: string, sourcePaths: readonly string[]): Promise<ChunkRecord[]> {
    if (sourcePaths.length === 0) return [];
    const result = await this.sql.query<Row>(
      `SELECT ${COLUMNS}
         FROM unnest($2::text[]) WITH ORDINALITY AS t(source_path, position)
         JOIN rag_documents d ON d.workspace_id = $1 AND d.source_path = t.source_path
         JOIN rag_chunks c ON c.document_id = d.id
        ORDER BY t.position, c.chunk_index`,
      [workspaceId, [...sourcePaths]],
    );
    return result.rows.map(record);
  }

  /** The first `first` chunks of one stored document, in order. */
  async firstOf(documentId: number, first: number): Promise<ChunkRecord[]> {
    const result = await this.sql.query<Row>(
      `SELECT ${COLUMNS} ${FROM} WHERE c.document_id = $1 ORDER BY c.chunk_index LIMIT $2`,
      [documentId, first],
    );
    return result.rows.map(record);
  }

  /**
   * Chunks of a workspace by document, by chunk id and/or by a string they contain, in document
   * then chunk order: for stages that fetch a specific passage outside the ranked retrieval (an
   * operation's request example, an entity's defining chunk).
   */
  async find(
    workspaceId: string,
    where: { sourcePaths?: readonly string[]; chunkIds?: readonly string[]; containing?: string },
  ): Promise<ChunkRecord[]> {
    const result = await this.sql.query<Row>(
      `SELECT ${COLUMNS} ${FROM}
        WHERE d.workspace_id = $1
          AND ($2::text[] IS NULL OR d.source_path = ANY($2::text[]))
          AND ($3::text[] IS NULL OR c.chunk_id = ANY($3::text[]))
          AND ($4::text IS NULL OR strpos(c.text, $4) > 0)
        ORDER BY d.source_path, c.chunk_index`,
      [
        workspaceId,
        where.sourcePaths ? [...where.sourcePaths] : null,
        where.chunkIds ? [...new Set(where.chunkIds)] : null,
        where.containing ?? null,
      ],
    );
    return result.rows.map(record);
  }

  /** The stable chunk ids of internal row ids. */
  async chunkIds(ids: readonly number[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const result = await this.sql.query<{ chunk_id: string }>(
      'SELECT chunk_id FROM rag_chunks WHERE id = ANY($1::bigint[])',
      [[...new Set(ids)]],
    );
    return result.rows.map((row) => row.chunk_id);
  }

  /** Documents' own metadata by internal document id. */
  async documentMetadata(documentIds: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
    if (documentIds.length === 0) return new Map();
    const result = await this.sql.query<{ id: number; metadata: Record<string, unknown> | null }>(
      'SELECT id, metadata FROM rag_documents WHERE id = ANY($1::bigint[])',
      [[...new Set(documentIds)]],
    );
    return new Map(result.rows.map((row) => [row.id, row.metadata ?? {}]));
  }

  /**
   * Up to `chars` characters of each chunk's document on either side of it, by chunk id, in one
   * query: what a sentence cut by a chunk boundary continues with (offsets and `substr` both count
   * code points).
   */
  async surroundings(
    workspaceId: string,
    chunkIds: readonly string[],
    chars: number,
  ): Promise<Map<string, ChunkSurroundings>> {
    if (chunkIds.length === 0) return new Map();
    const result = await this.sql.query<{ chunk_id: string; before: string; after: string }>(
      `SELECT c.chunk_id,
              substr(d.content, greatest(1, c.start_offset - $3 + 1), least(c.start_offset, $3)) AS before,
              substr(d.content, c.end_offset + 1, $3) AS after
         ${FROM}
        WHERE c.workspace_id = $1 AND c.chunk_id = ANY($2::text[])`,
      [workspaceId, [...new Set(chunkIds)], chars],
    );
    return new Map(
      result.rows.map((row) => [row.chunk_id, { before: row.before ?? '', after: row.after ?? '' }]),
    );
  }

  /**
   * The workspace's corpus version as this reader's connection sees it, or null when there is no
   * such workspace: what an answer read from these chunks is cached under.
   */
  async corpusVersion(workspaceId: string): Promise<number | null> {
    return readCorpusVersion(this.sql, workspaceId);
  }
}

/** The corpus version of a workspace on `sql`, or null when it does not exist. */
export async function readCorpusVersion(sql: SqlExecutor, workspaceId: string): Promise<number | null> {
  const result = await sql.query<{ corpus_version: string | number }>(
    'SELECT corpus_version FROM rag_workspaces WHERE id = $1',
    [workspaceId],
  );
  const row = result.rows[0];
  return row ? Number(row.corpus_version) : null;
}

/** What a citation shows of a chunk. */
export function citable(
  chunk: Pick<
    ChunkDisplay,
    'sourcePath' | 'chunkId' | 'title' | 'url' | 'text' | 'startOffset' | 'endOffset'
  >,
): CitableChunk {
  return {
    sourceId: chunk.sourcePath,
    chunkId: chunk.chunkId,
    title: chunk.title,
    url: chunk.url,
    text: chunk.text,
    startOffset: chunk.startOffset,
    endOffset: chunk.endOffset,
  };
}

function record(row: Row): ChunkRecord {
  return {
    id: row.id,
    chunkId: row.chunk_id,
    chunkIndex: row.chunk_index,
    documentId: row.document_id,
    sourcePath: row.source_path,
    kind: row.source_kind,
    title: row.title,
    url: row.url,
    text: row.text,
    tokenCount: row.token_count,
    startOffset: row.start_offset,
    endOffset: row.end_offset,
    sectionPath: row.section_path ?? '',
    metadata: row.metadata ?? {},
    documentMetadata: row.document_metadata ?? {},
  };
}
