import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import type { Sql } from '../db/index.js';
import { DeterministicEmbedder } from '../embed/index.js';
import { ErrorCode } from '../errors/index.js';
import { CorpusStore } from '../store/index.js';
import { IngestPipeline } from './pipeline.js';

const OUTSIDE_MARKER = 'quartermaster-ledger-outside-the-root';

/**
 * <base>/corpus: the root being ingested, with links to a file inside it, a file outside it and
 * a folder outside it; <base>/private: what the outward links point at.
 */
async function writeTree(base: string): Promise<string> {
  const root = path.join(base, 'corpus');
  await mkdir(path.join(root, 'guides'), { recursive: true });
  await mkdir(path.join(base, 'private'), { recursive: true });
  await writeFile(path.join(root, 'guides', 'pickup.md'), '# Pickup\n\nCarriers collect parcels at nine.\n');
  await writeFile(path.join(base, 'private', 'ledger.md'), `# Ledger\n\n${OUTSIDE_MARKER}\n`);
  await symlink(path.join(root, 'guides', 'pickup.md'), path.join(root, 'link-inside.md'));
  await symlink(path.join(base, 'private', 'ledger.md'), path.join(root, 'link-outside.md'));
  await symlink(path.join(base, 'private'), path.join(root, 'linked-folder'));
  return root;
}

describe.each(testBackends())('symlinks at ingest on $name', (backend) => {
  let sql: Sql;
  let store: CorpusStore;
  let pipeline: IngestPipeline;
  let base: string;
  let root: string;
  let workspace: string;

  beforeAll(async () => {
    sql = await backend.open();
    store = new CorpusStore(sql);
    pipeline = new IngestPipeline({
      store,
      embedder: new DeterministicEmbedder(),
      maxTokens: 120,
      overlapTokens: 20,
    });
  });
  afterAll(async () => {
    await sql.close();
  });
  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'rag-links-'));
    root = await writeTree(base);
    workspace = uniqueWorkspace('links');
  });
  afterEach(async () => {
    await dropWorkspace(sql, workspace);
    await rm(base, { recursive: true, force: true });
  });

  const leaked = async () =>
    (
      await sql.query(
        `SELECT 1 FROM rag_chunks WHERE workspace_id = $1 AND text LIKE $2
         UNION ALL SELECT 1 FROM rag_documents WHERE workspace_id = $1 AND content LIKE $2`,
        [workspace, `%${OUTSIDE_MARKER}%`],
      )
    ).rowCount;

  it('refuses links out of the folder, never reading them, and follows links inside it', async () => {
    const summary = await pipeline.ingestSources({ workspaceId: workspace, sources: [root] });
    expect(summary.failures).toEqual([
      {
        sourcePath: 'corpus/link-outside.md',
        code: ErrorCode.SOURCE_OUTSIDE_ROOT,
        message:
          'link-outside.md resolves outside the folder being ingested (a link out of it?); it was not read',
      },
      {
        sourcePath: 'corpus/linked-folder',
        code: ErrorCode.SOURCE_OUTSIDE_ROOT,
        message:
          'linked-folder resolves outside the folder being ingested (a link out of it?); it was not read',
      },
    ]);
    expect((await store.listDocuments(workspace)).map((document) => document.sourcePath)).toEqual([
      'corpus/guides/pickup.md',
      'corpus/link-inside.md',
    ]);
    expect(await leaked()).toBe(0);
  });

  it('applies the same check to a single file of a known root (a queued job)', async () => {
    const viaLink = await pipeline.ingestFile(workspace, root, 'link-outside.md');
    const viaDots = await pipeline.ingestFile(workspace, root, '../private/ledger.md');
    const viaFolder = await pipeline.ingestFile(workspace, root, 'linked-folder/ledger.md');
    for (const summary of [viaLink, viaDots, viaFolder]) {
      expect(summary.failures.map((failure) => failure.code)).toEqual([ErrorCode.SOURCE_OUTSIDE_ROOT]);
      expect(summary.failures[0]!.message).not.toContain(OUTSIDE_MARKER);
    }
    const inside = await pipeline.ingestFile(workspace, root, 'link-inside.md');
    expect(inside.failures).toEqual([]);
    expect(inside.documents.added).toBe(1);
    expect(await leaked()).toBe(0);
  });
});
