import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliScript } from '../../../../test/cli.js';

/** `pnpm rag:ingest --knowledge notes.txt --entity user:alice`, as a user runs it, on an embedded database. */
describe('pnpm rag:ingest --knowledge', () => {
  let root: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-knowledge-cli-'));
    env = { DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'silent' };
    await writeFile(
      path.join(root, 'alice.txt'),
      [
        'Alice prefers short status updates in the incident channel.',
        'Always page the carrier team before failing over the label service.',
        'My password is hunter2.',
      ].join('\n\n'),
    );
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('structures free text by rules, skips the piece holding a secret, and searches the rest by entity', async () => {
    const args = [
      '--knowledge',
      path.join(root, 'alice.txt'),
      '--entity',
      'user:alice',
      '--workspace',
      'notes',
    ];
    const first = await runCliScript('ingest.ts', args, env);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/free text, structured by rules \(check-in [0-9a-f-]{36}\)/);
    expect(first.stdout).toContain('pieces     preference 1  instruction 1  fact 1');
    expect(first.stdout).toContain('documents  added 2');
    expect(first.stdout).toMatch(/SKIPPED .*piece rejected: it contains a password/);
    expect(first.stdout).not.toContain('hunter2');

    const search = await runCliScript(
      'search.ts',
      [
        '--workspace',
        'notes',
        '--filter',
        'entity_id=user:alice',
        '--filter',
        'info_type=instructions',
        '--json',
        'before a failover',
      ],
      env,
    );
    expect(search.code).toBe(0);
    const hits = (JSON.parse(search.stdout) as { hits: Array<{ text: string }> }).hits;
    expect(hits.map((hit) => hit.text)).toEqual([
      'Always page the carrier team before failing over the label service.',
    ]);
  });

  it('loads design document 004’s pack whole: piece, profile, both nodes and the edge', async () => {
    const pack = new URL('../knowledge/fixtures/004-data-loader-pack.json', import.meta.url);
    const result = await runCliScript(
      'ingest.ts',
      ['--knowledge', pack.pathname, '--entity', 'user:alice', '--workspace', 'cfd'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('a knowledge pack, loaded as it is');
    expect(result.stdout).toContain('pieces     procedure 1');
    expect(result.stdout).toContain('loaded     profiles 1  nodes 2  edges 1');
    expect(result.stdout).toContain('documents  added 3');
    expect(result.stdout).not.toContain('SKIPPED');
  });

  it('refuses --entity without --knowledge', async () => {
    const result = await runCliScript('ingest.ts', ['--entity', 'user:alice'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error [INVALID_INPUT]: --entity goes with --knowledge');
  });
});
