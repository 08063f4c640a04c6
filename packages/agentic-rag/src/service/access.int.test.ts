import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropWorkspace, testBackends, uniqueWorkspace } from '../../../../test/backends.js';
import { createRateLimiter } from '../auth/index.js';
import { loadConfig } from '../config/index.js';
import { withWorkspaceScope, type Sql } from '../db/index.js';
import { ErrorCode } from '../errors/index.js';
import { createRuntime, type RagRuntime } from '../runtime/index.js';
import type { Caller } from './caller.js';
import { databaseScope } from './gate.js';
import { RagService } from './rag-service.js';

/**
 * What a key may spend and see beyond its role: operations (not requests) against its rate, the
 * cost of a refused key the same whether its id exists or not, a bounded number of unproven keys
 * per address, audit records and metrics of its own workspace only, and a database wall that
 * follows the key rather than the request.
 */
describe('the service: spending, timing and seeing with a key', () => {
  let sql: Sql;
  let runtime: RagRuntime;
  const mine = uniqueWorkspace('access');
  const theirs = uniqueWorkspace('access');
  const services: RagService[] = [];
  const service = (options: ConstructorParameters<typeof RagService>[1] = {}) => {
    const created = new RagService(runtime, options);
    services.push(created);
    return created;
  };
  const bearer = (key: string) => `Bearer ${key}`;
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );

  beforeAll(async () => {
    sql = await testBackends().at(-1)!.open();
    runtime = await createRuntime({
      config: loadConfig({ AGENTIC_RAG_INGEST_ON_START: 'false', LOG_LEVEL: 'silent' }),
      sql,
    });
    for (const workspaceId of [mine, theirs])
      await runtime.pipeline.ingestInline(workspaceId, [
        {
          id: `notes/${workspaceId}.md`,
          content: `# ${workspaceId}\n\nThe depot of ${workspaceId} opens at six.\n`,
        },
      ]);
  });

  afterAll(async () => {
    for (const created of services) await created.close();
    await dropWorkspace(sql, mine);
    await dropWorkspace(sql, theirs);
    await runtime.close();
  });

  it('charges every operation of a request against the key, not the request once', async () => {
    const limited = service({
      limiter: createRateLimiter({ perSecond: 0.001, burst: 5 }),
      proofLimiter: null,
    });
    const { key } = await limited.keys.create({ workspaceId: mine, role: 'reader' });
    // One request (one authentication) carrying many operations: an MCP batch, GraphQL aliases.
    const caller = await limited.authenticate(bearer(key));
    const outcomes = [];
    for (let call = 0; call < 8; call++)
      outcomes.push(await codeOf(limited.corpus(caller, { workspaceId: mine })));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', ...Array(3).fill(ErrorCode.RATE_LIMITED)]);
  });

  it('refuses a wrong secret for a real key id in the time of an unknown id', async () => {
    const timed = service({ limiter: null, proofLimiter: null });
    const { id } = await timed.keys.create({ workspaceId: mine, role: 'reader' });
    const secret = 'x'.repeat(43);
    const attempt = async (keyId: string) => {
      const started = performance.now();
      expect(await codeOf(timed.authenticate(bearer(`ar_${keyId}_${secret}`)))).toBe(
        ErrorCode.UNAUTHENTICATED,
      );
      return performance.now() - started;
    };
    await attempt('0'.repeat(16)); // the decoy hash is made once
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 7; round++) {
      known.push(await attempt(id));
      unknown.push(await attempt(round.toString(16).padStart(16, 'f')));
    }
    const median = (values: number[]) => values.sort((left, right) => left - right)[3]!;
    console.log(
      `[auth] refused key, median of 7: known id ${median(known).toFixed(1)} ms, unknown id ${median(unknown).toFixed(1)} ms`,
    );
    // Both pay one scrypt (~50 ms); before, an unknown id answered in a few milliseconds.
    expect(median(unknown)).toBeGreaterThan(median(known) / 1.5);
    expect(median(known)).toBeGreaterThan(median(unknown) / 1.5);
  });

  it('refuses an address that presents too many unproven keys, before hashing them', async () => {
    const guarded = service({
      limiter: null,
      proofLimiter: createRateLimiter({ perSecond: 0.001, burst: 3 }),
    });
    const { key } = await guarded.keys.create({ workspaceId: mine, role: 'reader' });
    const wrong = (index: number) => bearer(`ar_${index.toString(16).padStart(16, '0')}_${'y'.repeat(43)}`);
    const outcomes = [];
    for (let attempt = 0; attempt < 5; attempt++)
      outcomes.push(await codeOf(guarded.authenticate(wrong(attempt), '192.0.2.7')));
    expect(outcomes).toEqual([
      ...Array(3).fill(ErrorCode.UNAUTHENTICATED),
      ErrorCode.RATE_LIMITED,
      ErrorCode.RATE_LIMITED,
    ]);
    // Another address is not held to what this one spent; a proven key is never charged again.
    expect(await codeOf(guarded.authenticate(bearer(key), '192.0.2.8'))).toBe('ok');
    for (let call = 0; call < 5; call++)
      expect(await codeOf(guarded.authenticate(bearer(key), '192.0.2.8'))).toBe('ok');
  });

  it("shows a workspace's admin its own audit records and no other workspace's key ids", async () => {
    const audited = service({ limiter: null, proofLimiter: null });
    const own = await audited.keys.create({ workspaceId: mine, role: 'admin' });
    const outsider = await audited.keys.create({ workspaceId: theirs, role: 'writer' });
    const everywhere = await audited.keys.create({ workspaceId: '*', role: 'admin' });
    const caller = (key: string) => audited.authenticate(bearer(key));
    // The outsider's refused write is recorded under the workspace it claimed.
    expect(
      await codeOf(
        audited.deleteDocument(await caller(outsider.key), { workspaceId: mine, id: 'notes/x.md' }),
      ),
    ).toBe(ErrorCode.WORKSPACE_NOT_FOUND);
    await audited.deleteDocument(await caller(own.key), { workspaceId: mine, id: 'notes/none.md' });
    const scoped = await audited.auditLog(await caller(own.key), {});
    expect(scoped.map((record) => record.keyId)).toEqual([own.id]);
    const all = await audited.auditLog(await caller(everywhere.key), { workspaceId: mine });
    expect(all.map((record) => record.keyId)).toEqual([own.id, outsider.id]);
  });

  it("keeps the process's metrics from a workspace's admin", async () => {
    const guarded = service({ limiter: null, proofLimiter: null });
    const own = await guarded.keys.create({ workspaceId: mine, role: 'admin' });
    const everywhere = await guarded.keys.create({ workspaceId: '*', role: 'admin' });
    const authorize = async (key: string) => {
      try {
        guarded.authorize(await guarded.authenticate(bearer(key)), 'metrics');
        return 'ok';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(await authorize(own.key)).toBe(ErrorCode.FORBIDDEN);
    expect(await authorize(everywhere.key)).toBe('ok');
  });

  it("walls a call into its key's workspace even if the guard let it ask for another", async () => {
    const scoped: Caller = { keyId: 'k', actor: 'key:k', role: 'reader', scope: mine };
    const unscoped: Caller = { keyId: 'a', actor: 'key:a', role: 'admin', scope: '*' };
    const read = (caller: Caller, requested: string) =>
      withWorkspaceScope(databaseScope(caller, requested), async () =>
        (await runtime.store.listDocuments(requested)).map((document) => document.sourcePath),
      );
    expect(await read(scoped, theirs)).toEqual([]);
    expect(await read(scoped, mine)).toEqual([`notes/${mine}.md`]);
    expect(await read(unscoped, theirs)).toEqual([`notes/${theirs}.md`]);
  });
});
