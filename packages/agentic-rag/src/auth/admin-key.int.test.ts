import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testBackends } from '../../../../test/backends.js';
import { PgliteSql, migrate, type Sql } from '../db/index.js';
import { ErrorCode } from '../errors/index.js';
import { createJsonLogger } from '../telemetry/index.js';
import { ApiKeyStore } from './api-keys.js';
import { ensureAdminKey } from './admin-key.js';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: createJsonLogger({ level: 'info', write: (line) => lines.push(line) }) };
}

describe('ensureAdminKey on a fresh database (PGlite)', () => {
  // A fresh PGlite per test: "no active key" cannot be arranged on the shared Postgres server,
  // where other test files create keys at the same time.
  let sql: Sql;
  let root: string;
  beforeEach(async () => {
    sql = await PgliteSql.open();
    await migrate(sql);
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-admin-key-'));
  });
  afterEach(async () => {
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('mints an admin key for every workspace into admin.key (0600) and logs only the path', async () => {
    const store = new ApiKeyStore(sql);
    const dataDir = path.join(root, 'data', 'nested');
    const { lines, logger } = recordingLogger();

    const result = await ensureAdminKey(store, dataDir, logger);

    const file = path.join(dataDir, 'admin.key');
    expect(result).toEqual({ created: true, path: file });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const content = await readFile(file, 'utf8');
    expect(content).toMatch(/^ar_[0-9a-f]{16}_[\w-]{43}\n$/);
    const key = content.trim();
    expect(await store.verify(key)).toMatchObject({
      role: 'admin',
      workspaceId: '*',
      createdBy: 'bootstrap',
    });
    expect(await readdir(dataDir)).toEqual(['admin.key']); // no temporary file left behind

    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: 'admin-key-created', path: file, level: 'info' });
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain(key.slice(20));
  });

  it('does nothing on the next start, and leaves an existing file alone', async () => {
    const store = new ApiKeyStore(sql);
    const first = await ensureAdminKey(store, root, recordingLogger().logger);
    const content = await readFile(first.path, 'utf8');
    const { lines, logger } = recordingLogger();

    expect(await ensureAdminKey(store, root, logger)).toEqual({ created: false, path: first.path });
    expect(await readFile(first.path, 'utf8')).toBe(content);
    expect(await store.activeCount()).toBe(1);
    expect(lines).toEqual([]);
  });

  it('mints a new one once every key is revoked', async () => {
    const store = new ApiKeyStore(sql);
    const first = await ensureAdminKey(store, root, recordingLogger().logger);
    const oldKey = (await readFile(first.path, 'utf8')).trim();
    await store.revoke(oldKey.slice(3, 19));

    expect((await ensureAdminKey(store, root, recordingLogger().logger)).created).toBe(true);
    const newKey = (await readFile(first.path, 'utf8')).trim();
    expect(newKey).not.toBe(oldKey);
    expect(await store.verify(newKey)).not.toBeNull();
  });

  it('mints one key when two processes start at once', async () => {
    const results = await Promise.all([
      ensureAdminKey(new ApiKeyStore(sql), root, recordingLogger().logger),
      ensureAdminKey(new ApiKeyStore(sql), root, recordingLogger().logger),
    ]);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await new ApiKeyStore(sql).activeCount()).toBe(1);
  });

  it('creates no key when the file cannot be written', async () => {
    const blocker = path.join(root, 'a-file');
    await writeFile(blocker, '');
    await expect(
      ensureAdminKey(new ApiKeyStore(sql), path.join(blocker, 'data'), recordingLogger().logger),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_CONFIG });
    expect(await new ApiKeyStore(sql).activeCount()).toBe(0);
  });
});

describe.each(testBackends())('ensureAdminKey with active keys on $name', (backend) => {
  let sql: Sql;
  let root: string;
  const created: string[] = [];
  beforeAll(async () => {
    sql = await backend.open();
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-admin-key-'));
  });
  afterAll(async () => {
    await sql.query('DELETE FROM rag_api_keys WHERE id = ANY($1)', [created]);
    await sql.close();
    await rm(root, { recursive: true, force: true });
  });

  it('creates nothing and writes no file', async () => {
    const started = Date.now() - 1000;
    const store = new ApiKeyStore(sql);
    created.push((await store.create({ workspaceId: 'acme', role: 'reader', createdBy: 'test' })).id);

    const result = await ensureAdminKey(store, root, recordingLogger().logger);

    expect(result).toEqual({ created: false, path: path.join(root, 'admin.key') });
    expect(await readdir(root)).toEqual([]);
    const bootstrapped = await store.list({ workspaceId: '*' });
    expect(
      bootstrapped.filter((key) => key.createdBy === 'bootstrap' && Date.parse(key.createdAt) > started),
    ).toEqual([]);
  });
});
