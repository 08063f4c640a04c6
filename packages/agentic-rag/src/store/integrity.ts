import type { SqlExecutor } from '../db/index.js';
import { DecodedSegment } from './lexical-segments/index.js';

/**
 * What a workspace's corpus must satisfy whatever happened to the process writing it (a crash,
 * a kill mid-transaction): every count is a violation, 0 everywhere is a whole corpus.
 */
export interface CorpusIntegrity {
  documents: number;
  chunks: number;
  /** Chunks whose document row is gone. */
  orphanChunks: number;
  /** Postings whose chunk is gone. */
  orphanPostings: number;
  /** (document, chunk index) pairs stored more than once. */
  duplicateChunks: number;
  /** Documents with text but no chunks, or whose chunk indexes are not 0..n-1: half-written. */
  partialDocuments: number;
  /** Lexemes whose maintained document frequency differs from a recount from the chunks. */
  dfMismatches: number;
  /** Lexicon entries missing or stale against the recount. */
  lexiconMismatches: number;
  /** The workspace's chunk count and lexeme total differ from a recount. */
  totalsMismatch: boolean;
  /**
   * Once a workspace's chunks are all in lexical segments: live chunks no segment holds or two
   * hold, and chunks a segment holds that are neither live nor tombstoned.
   */
  segmentMismatches: number;
}

/**
 * Recounts the workspace from its chunks (a chunk's lexemes are its tsvector's and its document
 * title's, as the statistics define them) and compares with what the writes maintained.
 */
export async function checkCorpusIntegrity(sql: SqlExecutor, workspaceId: string): Promise<CorpusIntegrity> {
  const one = async (text: string) =>
    Number((await sql.query<{ n: number }>(text, [workspaceId])).rows[0]?.n ?? 0);
  const recount = `SELECT t.lexeme, count(DISTINCT c.id)::int AS df
    FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id,
         LATERAL (SELECT lexeme FROM unnest(c.tsv)
                  UNION SELECT lexeme FROM unnest(to_tsvector('english', coalesce(d.title, '')))) AS t
    WHERE c.workspace_id = $1 GROUP BY t.lexeme`;
  const totals = await sql.query<{
    chunk_count: number;
    lexeme_total: number;
    chunks: number;
    lexemes: number;
  }>(
    `SELECT w.chunk_count, w.lexeme_total,
            (SELECT count(*) FROM rag_chunks WHERE workspace_id = $1) AS chunks,
            (SELECT coalesce(sum(cardinality(t.positions)), 0) FROM rag_chunks c, unnest(c.tsv) t
             WHERE c.workspace_id = $1) AS lexemes
     FROM rag_workspaces w WHERE w.id = $1`,
    [workspaceId],
  );
  const row = totals.rows[0];
  return {
    documents: await one('SELECT count(*) AS n FROM rag_documents WHERE workspace_id = $1'),
    chunks: await one('SELECT count(*) AS n FROM rag_chunks WHERE workspace_id = $1'),
    orphanChunks: await one(
      `SELECT count(*) AS n FROM rag_chunks c
       WHERE c.workspace_id = $1 AND NOT EXISTS (SELECT 1 FROM rag_documents d WHERE d.id = c.document_id)`,
    ),
    orphanPostings: await one(
      `SELECT count(*) AS n FROM rag_chunk_terms t
       WHERE t.workspace_id = $1 AND NOT EXISTS (SELECT 1 FROM rag_chunks c WHERE c.id = t.chunk_id)`,
    ),
    duplicateChunks: await one(
      `SELECT count(*) AS n FROM (SELECT 1 FROM rag_chunks WHERE workspace_id = $1
       GROUP BY document_id, chunk_index HAVING count(*) > 1) AS twice`,
    ),
    partialDocuments: await one(
      `SELECT count(*) AS n FROM rag_documents d
       LEFT JOIN LATERAL (SELECT count(*) AS chunks, max(chunk_index) AS last
                          FROM rag_chunks c WHERE c.document_id = d.id) AS s ON true
       WHERE d.workspace_id = $1 AND (s.chunks = 0 OR s.last + 1 <> s.chunks)`,
    ),
    dfMismatches: await one(
      `SELECT count(*) AS n FROM (${recount}) AS r
       FULL JOIN (SELECT lexeme, df FROM rag_vocabulary WHERE workspace_id = $1) AS v USING (lexeme)
       WHERE r.df IS DISTINCT FROM v.df`,
    ),
    lexiconMismatches: await one(
      `SELECT count(*) AS n FROM (${recount}) AS r
       FULL JOIN (SELECT lexeme FROM rag_lexicon WHERE workspace_id = $1) AS l USING (lexeme)
       WHERE r.lexeme IS NULL OR l.lexeme IS NULL`,
    ),
    totalsMismatch: row ? row.chunk_count !== row.chunks || row.lexeme_total !== row.lexemes : false,
    segmentMismatches: await segmentMismatches(sql, workspaceId),
  };
}

async function segmentMismatches(sql: SqlExecutor, workspaceId: string): Promise<number> {
  const complete = await sql.query<{ lexical_segments: boolean }>(
    'SELECT lexical_segments FROM rag_workspaces WHERE id = $1',
    [workspaceId],
  );
  if (complete.rows[0]?.lexical_segments !== true) return 0;
  const ids = async (text: string) =>
    (await sql.query<{ id: number }>(text, [workspaceId])).rows.map((row) => Number(row.id));
  const live = new Set(await ids('SELECT id FROM rag_chunks WHERE workspace_id = $1'));
  const tombstoned = new Set(
    await ids('SELECT chunk_id AS id FROM rag_lexical_tombstones WHERE workspace_id = $1'),
  );
  const segments = await sql.query<{ postings: Uint8Array }>(
    'SELECT postings FROM rag_lexical_segments WHERE workspace_id = $1',
    [workspaceId],
  );
  const held = new Set<number>();
  let mismatches = 0;
  for (const row of segments.rows) {
    for (const id of new DecodedSegment(row.postings).chunkIds) {
      if (held.has(id) || (!live.has(id) && !tombstoned.has(id))) mismatches++;
      held.add(id);
    }
  }
  for (const id of live) if (!held.has(id)) mismatches++;
  return mismatches;
}

const VIOLATION_COUNTS = [
  'orphanChunks',
  'orphanPostings',
  'duplicateChunks',
  'partialDocuments',
  'dfMismatches',
  'lexiconMismatches',
] as const;

/** The checks a report fails, with their counts: empty for a whole corpus. */
export function integrityViolations(report: CorpusIntegrity): string[] {
  return [
    ...VIOLATION_COUNTS.filter((name) => report[name] !== 0).map((name) => `${name}: ${report[name]}`),
    ...(report.totalsMismatch ? ['totalsMismatch'] : []),
    ...(report.segmentMismatches !== 0 ? [`segmentMismatches: ${report.segmentMismatches}`] : []),
  ];
}
