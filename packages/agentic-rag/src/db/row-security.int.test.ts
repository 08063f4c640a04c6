import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { RagError } from '../errors/index.js';
import { NumberedEntityExtractor, OfflineEntityExtractor, PostgresGraphStore } from '../graph/index.js';
import { IngestPipeline } from '../ingest/pipeline.js';
import { createRetriever, type HybridRetriever } from '../retrieve/index.js';
import { CorpusStore } from '../store/index.js';
import { APPLICATION_ROLE, currentWorkspaceScope, withWorkspaceScope, type Sql } from './index.js';

// Walled by migrations/2026-11-25_3_row_security.sql, with the column that names the workspace.
const WALLED: ReadonlyArray<readonly [table: string, column: string]> = [
  ['rag_workspaces', 'id'],
  ['rag_documents', 'workspace_id'],
  ['rag_chunks', 'workspace_id'],
  ['rag_vocabulary', 'workspace_id'],
  ['rag_lexicon', 'workspace_id'],
  ['rag_entities', 'workspace_id'],
  ['rag_relations', 'workspace_id'],
  ['rag_edges', 'workspace_id'],
  ['rag_entity_mentions', 'workspace_id'],
  ['rag_jobs', 'workspace_id'],
  ['rag_cache_entries', 'workspace_id'],
  ['rag_ingest_stages', 'workspace_id'],
  ['rag_knowledge_checkins', 'workspace_id'],
  ['rag_document_intents', 'workspace_id'],
  // migrations/2026-11-28_1_conversations.sql
  ['rag_conversations', 'workspace_id'],
  ['rag_conversation_turns', 'workspace_id'],
  // migrations/2026-11-28_3_crawl.sql
  ['rag_crawl_pages', 'workspace_id'],
  // migrations/2026-11-29_1_lexical_segments.sql
  ['rag_lexical_segments', 'workspace_id'],
  ['rag_lexical_tombstones', 'workspace_id'],
];
/** Have a workspace_id column but are not row-scoped (a key's scope may be '*'; audit of refusals). */
const NOT_ROW_SCOPED = new Set(['rag_api_keys', 'rag_audit']);

const PLANNING = `# Planning notes

A partially observable Markov decision process (POMDP) keeps a belief over states.
Create the depot with \`POST /locations\` before planning routes for Northwind Freight.
`;
const BELIEFS = `# Beliefs

The POMDP belief update is Algorithm 19.2, which uses Equation 19.5.
`;
const DOCUMENTS = [
  { id: 'notes/planning.md', content: PLANNING },
  { id: 'notes/beliefs.md', content: BELIEFS },
];

describe.each(testBackends())('row-level security on $name', (backend) => {
  let sql: Sql;
  let pipeline: IngestPipeline;
  let retriever: HybridRetriever;
  const a = uniqueWorkspace('wall-a');
  const b = uniqueWorkspace('wall-b');
  const created = [a, b];

  /** What the application role sees with no workspace set: what a forgetful query would get. */
  const unscopedAsApplication = (text: string) =>
    sql.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE ${APPLICATION_ROLE}`);
      return (await tx.query(text)).rows;
    });

  /** Rows the other tables get from services this test does not run. */
  const addBookkeeping = (workspaceId: string) =>
    sql.transaction(async (tx) => {
      // A tombstone, as a deleted chunk leaves (a row that names no live chunk changes no search).
      await tx.query('INSERT INTO rag_lexical_tombstones (workspace_id, chunk_id) VALUES ($1, -1)', [
        workspaceId,
      ]);
      await tx.query(
        `INSERT INTO rag_jobs (id, workspace_id, kind, idempotency_key, status) VALUES ($1, $2, 'ingest', $1, 'completed')`,
        [`job-${workspaceId}`, workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_cache_entries (key, workspace_id, corpus_version, answer, expires_at)
         VALUES ($1, $2, 1, '{}', now() + interval '1 hour')`,
        [`cache-${workspaceId}`, workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_ingest_stages (workspace_id, source_path, content_hash, stage) VALUES ($1, 'x.md', 'h', 'stored')`,
        [workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_knowledge_checkins (id, workspace_id, source, method, input, output, attempts)
         VALUES (gen_random_uuid(), $1, 'test', 'rules', 'text', '{}', 1)`,
        [workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_document_intents (workspace_id, document, generation, content_hash) VALUES ($1, 'x.md', 0, 'h')`,
        [workspaceId],
      );
      const conversation = randomUUID();
      await tx.query(
        `INSERT INTO rag_conversations (id, workspace_id, key_id, turns, expires_at) VALUES ($1, $2, NULL, 1, now() + interval '1 hour')`,
        [conversation, workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_conversation_turns (conversation_id, workspace_id, turn, question, standalone_query, answer)
         VALUES ($1, $2, 1, 'q', 'q', 'a')`,
        [conversation, workspaceId],
      );
      await tx.query(
        `INSERT INTO rag_crawl_pages (workspace_id, site, url) VALUES ($1, 'https://docs.example.test', 'https://docs.example.test/')`,
        [workspaceId],
      );
    });

  beforeAll(async () => {
    sql = await backend.open();
    const graph = new PostgresGraphStore(sql);
    const embedder = new DeterministicEmbedder();
    pipeline = new IngestPipeline({
      store: new CorpusStore(sql, { graph }),
      embedder,
      maxTokens: 200,
      overlapTokens: 20,
      extractors: [new OfflineEntityExtractor(), new NumberedEntityExtractor()],
    });
    retriever = createRetriever(loadConfig({}), sql, embedder, undefined, graph);
    for (const workspaceId of [a, b]) {
      const summary = await pipeline.ingestInline(workspaceId, DOCUMENTS);
      expect(summary.failures).toEqual([]);
      await addBookkeeping(workspaceId);
    }
  });

  afterAll(async () => {
    for (const workspaceId of created) {
      for (const table of [
        'rag_jobs',
        'rag_cache_entries',
        'rag_ingest_stages',
        'rag_knowledge_checkins',
        'rag_document_intents',
        'rag_crawl_pages',
      ]) {
        await sql.query(`DELETE FROM ${table} WHERE workspace_id = $1`, [workspaceId]);
      }
      await dropWorkspace(sql, workspaceId);
    }
    await sql.close();
  });

  it('walls every table that has a workspace column, and nothing unexpected', async () => {
    const { rows } = await sql.query<{ table_name: string; walled: boolean }>(
      `SELECT c.relname AS table_name, c.relrowsecurity AS walled
       FROM pg_class c
       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'rag\\_%'
         AND (c.relrowsecurity OR EXISTS (
           SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped))`,
    );
    const walled = rows.filter((row) => row.walled).map((row) => row.table_name);
    const open = rows.filter((row) => !row.walled && !NOT_ROW_SCOPED.has(row.table_name));
    expect(open).toEqual([]);
    expect(walled.sort()).toEqual(WALLED.map(([table]) => table).sort());
  });

  it('the owner still sees both workspaces in every walled table', async () => {
    for (const [table, column] of WALLED) {
      const { rows } = await sql.query<{ workspace: string }>(
        `SELECT DISTINCT ${column} AS workspace FROM ${table} WHERE ${column} = ANY($1) ORDER BY 1`,
        [[a, b]],
      );
      expect({ table, workspaces: rows.map((row) => row.workspace) }).toEqual({ table, workspaces: [a, b] });
    }
  });

  it.each(WALLED.map(([table]) => table))(
    'a query with no workspace set sees nothing of %s',
    async (table) => {
      expect(await unscopedAsApplication(`SELECT count(*)::integer AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    },
  );

  it("inside a scope a query with no workspace condition sees only that scope's rows", async () => {
    for (const [table, column] of WALLED) {
      const rows = await withWorkspaceScope(a, async () => {
        expect(currentWorkspaceScope()).toBe(a);
        return (
          await sql.query<{ workspace: string }>(`SELECT DISTINCT ${column} AS workspace FROM ${table}`)
        ).rows;
      });
      expect({ table, rows }).toEqual({ table, rows: [{ workspace: a }] });
    }
    const mentionsOfA = await sql.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM rag_entity_mentions m JOIN rag_entities e ON e.id = m.entity_id
       WHERE e.workspace_id = $1`,
      [a],
    );
    expect(mentionsOfA.rows[0]!.n).toBeGreaterThan(0);
    const scoped = await withWorkspaceScope(a, () =>
      sql.query<{ n: number }>('SELECT count(*)::integer AS n FROM rag_entity_mentions'),
    );
    expect(scoped.rows).toEqual(mentionsOfA.rows);
    expect(currentWorkspaceScope()).toBeUndefined();
  });

  it('scopes transactions and scripts the same way, as the application role', async () => {
    const seen = await withWorkspaceScope(a, () =>
      sql.transaction(async (tx) => {
        const who = await tx.query<{ role: string; workspace: string }>(
          "SELECT current_user AS role, current_setting('app.workspace') AS workspace",
        );
        const ids = await tx.query<{ id: string }>('SELECT id FROM rag_workspaces');
        return { ...who.rows[0], ids: ids.rows.map((row) => row.id) };
      }),
    );
    expect(seen).toEqual({ role: APPLICATION_ROLE, workspace: a, ids: [a] });
    await withWorkspaceScope(a, () =>
      sql.exec(`UPDATE rag_workspaces SET updated_at = now(); UPDATE rag_jobs SET progress = 0.5`),
    );
    const progress = await sql.query<{ workspace_id: string; progress: number }>(
      'SELECT workspace_id, progress FROM rag_jobs WHERE workspace_id = ANY($1) ORDER BY progress',
      [[a, b]],
    );
    expect(progress.rows).toEqual([
      { workspace_id: b, progress: 0 },
      { workspace_id: a, progress: 0.5 },
    ]);
  });

  it("refuses to write another workspace's rows from inside a scope, and leaves them alone", async () => {
    const attempt = withWorkspaceScope(a, () =>
      sql.query(
        `INSERT INTO rag_cache_entries (key, workspace_id, corpus_version, answer, expires_at)
         VALUES ('intruder', $1, 1, '{}', now())`,
        [b],
      ),
    );
    await expect(attempt).rejects.toBeInstanceOf(RagError);
    await expect(attempt).rejects.toMatchObject({ code: 'INTERNAL', details: { sqlState: '42501' } });
    await expect(
      withWorkspaceScope(a, () => sql.query('UPDATE rag_documents SET workspace_id = $1', [b])),
    ).rejects.toMatchObject({ details: { sqlState: '42501' } });
    const deleted = await withWorkspaceScope(a, () =>
      sql.query('DELETE FROM rag_chunks WHERE workspace_id = $1', [b]),
    );
    expect(deleted.rowCount).toBe(0);
    const stillThere = await sql.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM rag_chunks WHERE workspace_id = $1',
      [b],
    );
    expect(stillThere.rows[0]!.n).toBeGreaterThan(0);
  });

  it("refuses a mention that links into another workspace's entity or chunk", async () => {
    const pick = async (workspaceId: string) =>
      (
        await sql.query<{ entity: number; chunk: number; document: number }>(
          `SELECT e.id AS entity, c.id AS chunk, c.document_id AS document
           FROM rag_entities e, rag_chunks c
           WHERE e.workspace_id = $1 AND c.workspace_id = $1 LIMIT 1`,
          [workspaceId],
        )
      ).rows[0]!;
    const [own, other] = [await pick(a), await pick(b)];
    const link = (entity: number, chunk: number, document: number) =>
      withWorkspaceScope(a, () =>
        sql.query('INSERT INTO rag_entity_mentions (entity_id, chunk_id, document_id) VALUES ($1, $2, $3)', [
          entity,
          chunk,
          document,
        ]),
      );
    await expect(link(other.entity, own.chunk, own.document)).rejects.toBeInstanceOf(RagError);
    await expect(link(own.entity, other.chunk, other.document)).rejects.toMatchObject({
      details: { sqlState: '42501' },
    });
  });

  it('concurrent scopes never see each other', async () => {
    const look = (workspaceId: string, index: number) =>
      withWorkspaceScope(workspaceId, async () => {
        const statement = 'SELECT DISTINCT workspace_id FROM rag_chunks';
        const result =
          index % 2 === 0
            ? await sql.query<{ workspace_id: string }>(statement)
            : await sql.transaction((tx) => tx.query<{ workspace_id: string }>(statement));
        return { expected: workspaceId, seen: result.rows.map((row) => row.workspace_id) };
      });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, index) => look(index % 3 === 0 ? b : a, index)),
    );
    for (const result of results) expect(result.seen).toEqual([result.expected]);
  });

  it('leaves no role or workspace behind: unscoped statements run as before', async () => {
    await expect(
      withWorkspaceScope(a, () => sql.query("INSERT INTO rag_workspaces (id) VALUES ('someone-else')")),
    ).rejects.toMatchObject({ details: { sqlState: '42501' } });
    // Enough at once to touch every pooled connection on Postgres.
    const sessions = await Promise.all(
      Array.from({ length: 8 }, () =>
        sql.query<{ role: string; workspace: string | null; superuser: string }>(
          "SELECT current_user AS role, nullif(current_setting('app.workspace', true), '') AS workspace, current_setting('is_superuser') AS superuser",
        ),
      ),
    );
    for (const session of sessions) {
      expect(session.rows[0]).toMatchObject({ workspace: null });
      expect(session.rows[0]!.role).not.toBe(APPLICATION_ROLE);
    }
    const both = await sql.query<{ n: number }>(
      'SELECT count(DISTINCT workspace_id)::integer AS n FROM rag_documents WHERE workspace_id = ANY($1)',
      [[a, b]],
    );
    expect(both.rows).toEqual([{ n: 2 }]);
  });

  it('keeps abort signals and input checks', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      withWorkspaceScope(a, () => sql.query('SELECT 1', [], { signal: controller.signal })),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(withWorkspaceScope("a'; RESET ROLE; --", () => sql.query('SELECT 1'))).rejects.toMatchObject(
      { code: 'INVALID_INPUT' },
    );
    await expect(withWorkspaceScope('', () => sql.query('SELECT 1'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('searches inside a scope exactly as outside it, graph channel included', async () => {
    let graphCandidates = 0;
    for (const query of ['POMDP belief update', 'create the depot location', 'Algorithm 19.2']) {
      const outside = await retriever.retrieve({ workspaceId: a, query, k: 5 });
      const inside = await withWorkspaceScope(a, () => retriever.retrieve({ workspaceId: a, query, k: 5 }));
      expect(outside.hits.length).toBeGreaterThan(0);
      const summary = (hits: typeof outside.hits) =>
        hits.map((hit) => [hit.chunkId, hit.score, hit.sourcePath]);
      expect(summary(inside.hits)).toEqual(summary(outside.hits));
      expect(inside.stats.warnings).toEqual(outside.stats.warnings);
      expect(inside.stats.candidates).toEqual(outside.stats.candidates);
      expect(inside.stats.queryEntities).toEqual(outside.stats.queryEntities);
      graphCandidates += inside.stats.candidates.graph;
    }
    expect(graphCandidates).toBeGreaterThan(0);
  });

  it('ingests inside a scope exactly as outside it, graph facts included', async () => {
    const outsideId = uniqueWorkspace('wall-out');
    const insideId = uniqueWorkspace('wall-in');
    created.push(outsideId, insideId);
    const outside = await pipeline.ingestInline(outsideId, DOCUMENTS);
    const inside = await withWorkspaceScope(insideId, () => pipeline.ingestInline(insideId, DOCUMENTS));
    expect(inside.failures).toEqual([]);
    const comparable = (summary: typeof outside) => ({
      documents: summary.documents,
      chunks: summary.chunks,
      tokens: summary.tokens,
    });
    expect(comparable(inside)).toEqual(comparable(outside));
    const shape = async (workspaceId: string) => {
      const counts = await sql.query(
        `SELECT (SELECT count(*) FROM rag_chunks WHERE workspace_id = $1) AS chunks,
                (SELECT sum(posting_count) FROM rag_lexical_segments WHERE workspace_id = $1) AS postings,
                (SELECT count(*) FROM rag_entities WHERE workspace_id = $1) AS entities,
                (SELECT count(*) FROM rag_relations WHERE workspace_id = $1) AS relations,
                (SELECT count(*) FROM rag_edges WHERE workspace_id = $1) AS edges,
                (SELECT count(*) FROM rag_entity_mentions m JOIN rag_entities e ON e.id = m.entity_id
                 WHERE e.workspace_id = $1) AS mentions,
                (SELECT chunk_count FROM rag_workspaces WHERE id = $1) AS chunk_count`,
        [workspaceId],
      );
      return counts.rows[0];
    };
    const insideShape = await shape(insideId);
    expect(insideShape).toEqual(await shape(outsideId));
    expect(insideShape).toMatchObject({ entities: expect.any(Number) });
    expect((insideShape as { mentions: number }).mentions).toBeGreaterThan(0);
    // Re-ingesting unchanged documents inside the scope reads what the first run stored.
    const again = await withWorkspaceScope(insideId, () => pipeline.ingestInline(insideId, DOCUMENTS));
    expect(again.documents.unchanged).toBe(DOCUMENTS.length);
  });
});
