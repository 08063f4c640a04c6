import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueWorkspace } from '../../../../test/backends.js';
import { runCliScript } from '../../../../test/cli.js';
import { PostgresSql } from '../db/index.js';
import { SUPPORTED_EXTENSIONS } from '../ingest/index.js';

const run = runCliScript;

const databases = [
  { name: 'embedded PGlite', env: (dataDir: string) => ({ DATA_DIR: dataDir }) },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'Postgres', env: () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL }) }]
    : []),
];

describe.each(databases)('pnpm rag:ingest / rag:search on $name', (database) => {
  let root: string;
  let env: Record<string, string | undefined>;
  const workspace = uniqueWorkspace('cli');

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-cli-'));
    await mkdir(path.join(root, 'corpus'));
    await writeFile(
      path.join(root, 'corpus', 'carriers.md'),
      '# Carriers\n\nA carrier is suspended after three failed pickups in a week.\n',
    );
    await writeFile(
      path.join(root, 'corpus', 'rates.txt'),
      'Rates\n\nRate shopping compares quotes from every active carrier.\n',
    );
    env = database.env(path.join(root, 'data'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    if (env.DATABASE_URL) {
      const sql = new PostgresSql({ connectionString: env.DATABASE_URL, maxConnections: 1 });
      await sql.query('DELETE FROM rag_workspaces WHERE id = $1', [workspace]);
      await sql.close();
    }
  });

  it('prints a JSON summary with --json, then reports everything unchanged on a second run', async () => {
    const args = ['--source', path.join(root, 'corpus'), '--workspace', workspace, '--json'];
    const first = await run('ingest.ts', args, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as {
      documents: Record<string, number>;
      chunks: number;
      corpusVersion: number;
    };
    expect(summary.documents).toEqual({
      added: 2,
      updated: 0,
      unchanged: 0,
      removed: 0,
      skipped: 0,
      failed: 0,
    });
    expect(summary.chunks).toBe(2);

    const second = JSON.parse((await run('ingest.ts', args, env)).stdout) as typeof summary;
    expect(second.documents.unchanged).toBe(2);
    expect(second.corpusVersion).toBe(summary.corpusVersion);
  });

  it('finds an ingested fact with rag:search and explains the channels', async () => {
    const result = await run(
      'search.ts',
      ['carrier suspended after failed pickups', '--workspace', workspace, '--k', '1', '--explain'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1. Carriers');
    expect(result.stdout).toMatch(/channels: vector [\d.]+ \(#1\)\s+lexical [\d.]+ \(#1\)/);
  });

  it('exits 1 and names the file when a file fails, after ingesting the others', async () => {
    await writeFile(path.join(root, 'corpus', 'diagram.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    const result = await run(
      'ingest.ts',
      ['--source', path.join(root, 'corpus'), '--workspace', workspace],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/unchanged 2 .*failed 1/);
    expect(result.stdout).toContain('FAILED     corpus/diagram.png: [UNSUPPORTED_FILE_TYPE]');
    await rm(path.join(root, 'corpus', 'diagram.png'));
  });
});

describe('rag:ingest argument and configuration errors', () => {
  it('documents every flag in --help', async () => {
    const result = await run('ingest.ts', ['--help'], {});
    expect(result.code).toBe(0);
    for (const flag of ['--source', '--workspace', '--prune', '--json', '--quiet', '--verbose', '--help'])
      expect(result.stdout).toContain(flag);
    // Every format a loader reads: the list is the loaders' own, so it cannot drift from them.
    const listed = /Supported files: (.*)/.exec(result.stdout)![1]!.split(' ');
    expect(listed).toEqual(expect.arrayContaining(['.md', '.html', '.pdf', '.docx', '.yaml', '.jsonl']));
    expect(listed).toEqual([...SUPPORTED_EXTENSIONS]);
  });

  it('fails with exit 2 and one line naming a bad variable and what it accepts', async () => {
    const result = await run('ingest.ts', ['--json'], { CHUNK_MAX_TOKENS: 'lots' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error [INVALID_CONFIG]: CHUNK_MAX_TOKENS="lots" is invalid: expected an integer from 32 to 8192\n',
    );
  });

  it('rejects a malformed workspace id with exit 2 before touching the database', async () => {
    const result = await run('ingest.ts', ['--workspace', 'has space', '--json'], {
      DATA_DIR: path.join(os.tmpdir(), 'never-created'),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error \[INVALID_INPUT\]: workspace "has space" is invalid/);
  });

  it('rejects an unknown flag with exit 2 and no stack trace', async () => {
    const result = await run('ingest.ts', ['--sauce', 'x'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error \[INVALID_INPUT\]: Unknown option '--sauce'/);
    expect(result.stderr).not.toContain('    at ');
  });
});
