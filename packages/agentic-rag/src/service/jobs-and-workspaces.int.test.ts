import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { createRuntime, type RagRuntime } from '../runtime/index.js';
import { localOperator, type Caller } from './caller.js';
import { RagService } from './rag-service.js';

/**
 * What the console's Jobs page and workspace list read: a workspace's jobs, newest first, whichever
 * plane ran them (here inline, no queue), each named by what it worked on; and the workspaces a key
 * may see, its own only when it is scoped to one.
 */
describe('the service: listing jobs and workspaces', () => {
  let sql: Sql;
  let runtime: RagRuntime;
  let service: RagService;
  const mine = uniqueWorkspace('listing');
  const theirs = uniqueWorkspace('listing');
  const operator = localOperator('test');
  const scopedTo = (workspaceId: string): Caller => ({
    keyId: 'k1',
    actor: 'key:k1',
    role: 'reader',
    scope: workspaceId,
  });

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    runtime = await createRuntime({
      config: loadConfig({ AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' }),
      sql,
    });
    service = new RagService(runtime, { limiter: null, proofLimiter: null });
    for (const [index, name] of ['first.md', 'second.md'].entries())
      await service.ingest(operator, {
        workspaceId: mine,
        documents: [
          { id: `notes/${name}`, content: `# Note ${index}\n\nThe depot opens at ${index + 6}.\n` },
        ],
      });
    await service.ingest(operator, {
      workspaceId: theirs,
      documents: [{ id: 'other.md', content: '# Other\n\nNot for the first key.\n' }],
    });
  });

  afterAll(async () => {
    await service.close();
    await dropWorkspace(sql, mine);
    await dropWorkspace(sql, theirs);
    await runtime.close();
  });

  it('lists the inline ingests, newest first, each with its document and corpus version', async () => {
    const listed = await service.listJobs(operator, { workspaceId: mine });
    expect(listed.queue).toBe(false);
    expect(listed.jobs.map((job) => [job.kind, job.status, job.subject])).toEqual([
      ['ingest-documents', 'completed', 'notes/second.md'],
      ['ingest-documents', 'completed', 'notes/first.md'],
    ]);
    expect(listed.jobs[0]!.corpusVersion).toBeGreaterThan(listed.jobs[1]!.corpusVersion!);
    expect((await service.listJobs(operator, { workspaceId: mine, first: 1 })).jobs).toHaveLength(1);
  });

  it("refuses another workspace's jobs to a scoped key, and a bad page size with a code", async () => {
    await expect(service.listJobs(scopedTo(theirs), { workspaceId: mine })).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
    await expect(service.listJobs(operator, { workspaceId: mine, first: 0 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('shows a key of every workspace all of them, and a scoped key its own', async () => {
    const all = (await service.listWorkspaces(operator)).map((workspace) => workspace.id);
    expect(all).toEqual(expect.arrayContaining([mine, theirs]));
    expect([...all].sort()).toEqual(all);
    const own = await service.listWorkspaces(scopedTo(mine));
    expect(own).toEqual([
      expect.objectContaining({ id: mine, documents: 2, corpusVersion: expect.any(Number) }),
    ]);
  });
});
