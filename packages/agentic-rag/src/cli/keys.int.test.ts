import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueWorkspace } from '../../../../test/backends.js';
import { runCliScript } from '../../../../test/cli.js';
import { ApiKeyStore } from '../auth/index.js';
import { PgliteSql, PostgresSql } from '../db/index.js';

const databases = [
  { name: 'embedded PGlite', env: (dataDir: string) => ({ DATA_DIR: dataDir }) },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'Postgres', env: () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL }) }]
    : []),
];

interface Created {
  id: string;
  key: string;
  role: string;
  workspaceId: string;
  label: string | null;
}

describe.each(databases)('pnpm rag:keys on $name', (database) => {
  let root: string;
  let env: Record<string, string | undefined>;
  const workspace = uniqueWorkspace('cli-keys');
  const run = (args: string[]) => runCliScript('keys.ts', args, env);
  /** The same database, opened here after the CLI has exited (PGlite admits one process). */
  const withStore = async <T>(work: (store: ApiKeyStore) => Promise<T>): Promise<T> => {
    const sql = env.DATABASE_URL
      ? new PostgresSql({ connectionString: env.DATABASE_URL, maxConnections: 1 })
      : await PgliteSql.open({ dataDir: path.join(env.DATA_DIR!, 'pglite') });
    try {
      return await work(new ApiKeyStore(sql));
    } finally {
      await sql.close();
    }
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-keys-cli-'));
    env = database.env(path.join(root, 'data'));
  });
  afterAll(async () => {
    if (env.DATABASE_URL) {
      const sql = new PostgresSql({ connectionString: env.DATABASE_URL, maxConnections: 1 });
      await sql.query('DELETE FROM rag_api_keys WHERE workspace_id = $1', [workspace]);
      await sql.close();
    }
    await rm(root, { recursive: true, force: true });
  });

  it('creates a key with --json, lists it without the secret, and revokes it', async () => {
    const createdRun = await run([
      'create',
      '--workspace',
      workspace,
      '--role',
      'writer',
      '--label',
      'ci',
      '--json',
    ]);
    expect(createdRun.stderr).toBe('');
    expect(createdRun.code).toBe(0);
    const created = JSON.parse(createdRun.stdout) as Created;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      key: expect.stringMatching(/^ar_[0-9a-f]{16}_[\w-]{43}$/),
      role: 'writer',
      workspaceId: workspace,
      label: 'ci',
    });
    expect(await withStore((store) => store.verify(created.key))).toMatchObject({
      id: created.id,
      createdBy: 'cli',
    });

    const listed = await run(['list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(created.key.slice(20));
    expect(listed.stdout).not.toContain('scrypt');
    const records = JSON.parse(listed.stdout) as { id: string; workspaceId: string; role: string }[];
    expect(records.find((record) => record.id === created.id)).toMatchObject({
      workspaceId: workspace,
      role: 'writer',
    });

    const human = await run(['list']);
    expect(human.stdout).toContain(created.id);
    expect(human.stdout).not.toContain(created.key.slice(20));

    const revoked = await run(['revoke', created.id]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain(`revoked API key ${created.id}`);
    expect(await withStore((store) => store.verify(created.key))).toBeNull();

    const again = await run(['revoke', created.id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
    expect((await run(['list', '--json'])).stdout).not.toContain(created.id);
    expect((await run(['list', '--include-revoked', '--json'])).stdout).toContain(created.id);
  });

  it('prints the key once in human form and says to store it', async () => {
    const result = await run(['create', '--workspace', '*', '--role', 'reader']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}ar_[0-9a-f]{16}_[\w-]{43}$/m);
    expect(result.stdout).toContain('Store it now');
    const id = /created API key ([0-9a-f]{16})/.exec(result.stdout)![1]!;
    if (env.DATABASE_URL) await withStore((store) => store.revoke(id));
  });

  it.each([
    [['create', '--role', 'reader'], /needs --workspace/],
    [['create', '--workspace', workspace], /needs --role/],
    [['create', '--workspace', workspace, '--role', 'root'], /role "root" is invalid/],
    [['create', '--workspace', 'not valid', '--role', 'reader'], /workspace "not valid" is invalid/],
    [['revoke'], /revoke takes one key id/],
    [['rotate'], /unknown command "rotate"/],
    [['list', '--bogus'], /Unknown option '--bogus'/],
  ])('%j is a usage error: exit 2, one line, no stack trace', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error \[INVALID_INPUT\]: .+\n$/);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('says NOT_FOUND for an id that does not exist', async () => {
    const result = await run(['revoke', '0000000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error [NOT_FOUND]: API key "0000000000000000" does not exist (see pnpm rag:keys list)\n',
    );
  });
});
