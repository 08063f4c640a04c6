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
  /**
   * Postings of live chunks in the segments that differ from a recount from the chunks (missing,
   * extra, or with other field frequencies).
   */
  postingMismatches: number;
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
    ...(await segmentChecks(sql, workspaceId)),
  };
}

async function segmentChecks(
  sql: SqlExecutor,
  workspaceId: string,
): Promise<Pick<CorpusIntegrity, 'segmentMismatches' | 'postingMismatches'>> {
  const complete = await sql.query<{ lexical_segments: boolean }>(
    'SELECT lexical_segments FROM rag_workspaces WHERE id = $1',
    [workspaceId],
  );
  if (complete.rows[0]?.lexical_segments !== true) return { segmentMismatches: 0, postingMismatches: 0 };
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
  // Every live chunk's postings as insert-chunks.sql computes them, keyed chunk + lexeme.
  const recounted = await sql.query<{
    id: number;
    lexeme: string;
    tf: number;
    tf_heading: number;
    tf_title: number;
  }>(
    `SELECT c.id, f.lexeme, f.tf, f.tf_heading, f.tf_title
     FROM rag_chunks c JOIN rag_documents d ON d.id = c.document_id
     CROSS JOIN LATERAL rag_chunk_fields(d.title, c.tsv) AS f
     WHERE c.workspace_id = $1`,
    [workspaceId],
  );
  const expected = new Map(
    recounted.rows.map((row) => [
      `${Number(row.id)} ${row.lexeme}`,
      `${row.tf} ${row.tf_heading} ${row.tf_title}`,
    ]),
  );
  const held = new Set<number>();
  let segmentMismatches = 0;
  let postingMismatches = 0;
  for (const row of segments.rows) {
    const segment = new DecodedSegment(row.postings);
    for (const id of segment.chunkIds) {
      if (held.has(id) || (!live.has(id) && !tombstoned.has(id))) segmentMismatches++;
      held.add(id);
    }
    for (const lexeme of segment.lexemes()) {
      const postings = segment.postings(lexeme)!;
      postings.positions.forEach((at, index) => {
        const id = segment.chunkIds[at]!;
        if (!live.has(id)) return;
        const key = `${id} ${lexeme}`;
        const found = `${postings.tf[index]} ${postings.tfHeading[index]} ${postings.tfTitle[index]}`;
        if (expected.get(key) !== found) postingMismatches++;
        expected.delete(key);
      });
    }
  }
  for (const id of live) if (!held.has(id)) segmentMismatches++;
  // Postings of live chunks that no segment holds.
  postingMismatches += expected.size;
  return { segmentMismatches, postingMismatches };
}

const VIOLATION_COUNTS = [
  'orphanChunks',
  'duplicateChunks',
  'partialDocuments',
  'dfMismatches',
  'lexiconMismatches',
  'segmentMismatches',
  'postingMismatches',
] as const;

/** The checks a report fails, with their counts: empty for a whole corpus. */
export function integrityViolations(report: CorpusIntegrity): string[] {
  return [
    ...VIOLATION_COUNTS.filter((name) => report[name] !== 0).map((name) => `${name}: ${report[name]}`),
    ...(report.totalsMismatch ? ['totalsMismatch'] : []),
  ];
}
