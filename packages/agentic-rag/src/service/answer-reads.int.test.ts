import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { loadConfig } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { createRuntime, type RagRuntime } from '../runtime/index.js';
import { localOperator } from './caller.js';
import { RagService } from './rag-service.js';

/** The database with every statement it is sent written down. */
function recording(sql: Sql): { sql: Sql; statements: string[] } {
  const statements: string[] = [];
  const recorded = new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'query')
        return (...args: Parameters<Sql['query']>) => {
          statements.push(args[0]);
          return target.query(...args);
        };
      return Reflect.get(target, property, receiver);
    },
  });
  return { sql: recorded, statements };
}

const VERSION_READ = /SELECT corpus_version FROM rag_workspaces WHERE id = \$1/;

/**
 * Without a replica, the corpus version an answer is cached under is the one the service's guard
 * read to know the workspace exists: one read per request, on the connection the run reads from.
 */
describe('the service: what an answer and a search read', () => {
  let database: Sql;
  let statements: string[];
  let runtime: RagRuntime;
  let service: RagService;
  const workspaceId = uniqueWorkspace('answer-reads');
  const operator = localOperator('test');

  beforeAll(async () => {
    database = await testBackends().at(-1)!.open();
    const watched = recording(database);
    statements = watched.statements;
    runtime = await createRuntime({
      config: loadConfig({
        AGENTIC_RAG_INGEST_ON_START: 'false',
        LOG_LEVEL: 'silent',
        AGENTIC_RAG_CACHE: 'true',
      }),
      sql: watched.sql,
    });
    service = new RagService(runtime, { limiter: null, proofLimiter: null });
    await service.ingest(operator, {
      workspaceId,
      documents: [
        { id: 'notes/depot.md', content: '# Depot\n\nThe depot opens at six and closes at ten.\n' },
      ],
    });
  });

  afterAll(async () => {
    await service.close();
    await dropWorkspace(database, workspaceId);
    await runtime.close();
    await database.close();
  });

  it('reads the corpus version once per answer, fresh or cached, and caches under it', async () => {
    const version = await runtime.store.corpusVersion(workspaceId);
    for (const cached of [false, true]) {
      statements.length = 0;
      const answered = await service.answer(operator, { workspaceId, query: 'When does the depot open?' });
      expect(answered.answer).toMatch(/six/);
      expect(answered.cached).toBe(cached);
      expect(statements.filter((text) => VERSION_READ.test(text))).toHaveLength(1);
    }
    expect(await runtime.store.corpusVersion(workspaceId)).toBe(version);
  });

  it('reads it once for a search too, understanding the question included', async () => {
    statements.length = 0;
    const found = await service.search(operator, { workspaceId, query: 'depot opening hours' });
    expect(found.hits.length).toBeGreaterThan(0);
    expect(statements.filter((text) => VERSION_READ.test(text))).toHaveLength(1);
  });

  it('answers from the new corpus once it changes: the key moves with the guard read', async () => {
    await service.ingest(operator, {
      workspaceId,
      documents: [
        { id: 'notes/depot.md', content: '# Depot\n\nThe depot opens at seven and closes at ten.\n' },
      ],
    });
    const answered = await service.answer(operator, { workspaceId, query: 'When does the depot open?' });
    expect(answered.cached).toBe(false);
    expect(answered.answer).toMatch(/seven/);
  });
});
