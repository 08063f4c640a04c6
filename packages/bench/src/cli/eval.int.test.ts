import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliScript } from '../../../../test/cli.js';

const EVAL = path.join(import.meta.dirname, 'eval.ts');
const evalCli = (args: string[], env: Record<string, string>) => runCliScript(EVAL, args, env);

/** `pnpm rag:eval --dataset` and `--compare` as a user runs them, on an embedded database. */
describe('pnpm rag:eval --dataset / --compare', () => {
  let root: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-eval-cli-'));
    await mkdir(path.join(root, 'corpus'));
    await writeFile(
      path.join(root, 'corpus', 'carriers.md'),
      '# Carriers\n\nA carrier is suspended after three failed pickups in a week.\n',
    );
    await writeFile(
      path.join(root, 'corpus', 'labels.md'),
      '# Labels\n\nVoid a label within 30 days to get the postage refunded.\n',
    );
    await writeFile(
      path.join(root, 'golden.jsonl'),
      [
        '{"id":"general-01","category":"general","question":"When is a carrier suspended?","expected_sources":["corpus/carriers.md"],"expected_facts":["three failed pickups"]}',
        '{"id":"general-02","category":"general","question":"How long do I have to void a label for a refund?","expected_sources":["corpus/labels.md"],"expected_facts":["30 days"]}',
        '{"id":"out-of-corpus-01","category":"out-of-corpus","question":"How do I tune Kafka consumer lag alerts?","must_refuse":true}',
      ].join('\n'),
    );
    env = { DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'silent' };
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('ingests the corpus, evaluates, writes JSON, markdown and SVG, and compares two runs', async () => {
    const args = ['--dataset', path.join(root, 'golden.jsonl'), '--corpus', path.join(root, 'corpus')];
    const first = await evalCli([...args, '--out', path.join(root, 'a')], env);
    expect(first.stderr).not.toContain('error [');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('hit rate@10');
    expect(first.stdout).toMatch(/refusals\s+1\/1 out-of-corpus refused, 0 answerable refused/);
    const written = (await readdir(path.join(root, 'a'))).map((file) => path.extname(file)).sort();
    expect(written).toEqual(['.json', '.md', '.svg']);

    const second = await evalCli([...args, '--no-ingest', '--out', path.join(root, 'b'), '--json'], env);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout) as { summary: { hitRate: number }; files: { json: string } };
    expect(report.summary.hitRate).toBe(1);

    const [a] = (await readdir(path.join(root, 'a'))).filter((file) => file.endsWith('.json'));
    const compared = await evalCli(['--compare', path.join(root, 'a', a!), report.files.json], env);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toMatch(/^hit rate\s+1\.0000\s+1\.0000\s+\+0\.0000$/m);
    expect(compared.stdout).toContain('0 questions changed');
  });

  it('exits 1 when the endpoint precision target is missed', async () => {
    await writeFile(
      path.join(root, 'precision.jsonl'),
      '{"id":"endpoint-01","category":"endpoint","question":"Which endpoint suspends a carrier?","expected_sources":["corpus/missing.md"],"precision_set":true}\n',
    );
    const result = await evalCli(
      [
        '--dataset',
        path.join(root, 'precision.jsonl'),
        '--corpus',
        path.join(root, 'corpus'),
        '--out',
        path.join(root, 'c'),
        '--no-warm',
      ],
      env,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('endpoint precision@1');
    expect(result.stdout).toContain('MISSED');
  });

  it('runs the suite saying what it does between progress bars, from a checkout', async () => {
    // The suite reads its datasets relative to the working directory, as from the repository root.
    const checkout = path.join(root, 'checkout');
    await cp(
      path.resolve(import.meta.dirname, '../../../../eval/fixtures/beir-sample'),
      path.join(checkout, 'eval', 'fixtures', 'beir-sample'),
      { recursive: true },
    );
    const result = await runCliScript(
      EVAL,
      [
        '--suites',
        'retrieval',
        '--only',
        'sample',
        '--modes',
        'lexical,hybrid',
        '--out',
        path.join(root, 'd'),
      ],
      { ...env, DATA_DIR: path.join(root, 'suite-data') },
      checkout,
    );
    expect(result.stderr).toContain('rag:eval: retrieval (sample); splits dev, test.');
    expect(result.stderr).toContain('sample/dev: ingesting eval/fixtures/beir-sample/corpus.jsonl');
    expect(result.stderr).toMatch(
      /sample\/dev: 199 documents added, 0 updated, 0 unchanged; \d+ chunks written/,
    );
    expect(result.stderr).toContain('sample/dev lexical 100% (59/59) questions');
    expect(result.stdout).toMatch(/sample\s+dev\s+59\s+0\.\d{4}\s+0\.\d{4}/);
    // Only retrieval ran: no line about answer rows that were never asked.
    expect(result.stdout).not.toContain('answer rows');
    expect(result.code).toBe(0);
  }, 180_000);

  it('rejects a broken golden set with every problem and its line, exit 2', async () => {
    await writeFile(path.join(root, 'broken.jsonl'), '{"id":"a","category":"general"}\nnot json\n');
    const result = await evalCli(['--dataset', path.join(root, 'broken.jsonl')], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error [INVALID_INPUT]: invalid golden set:');
    expect(result.stderr).toContain('broken.jsonl:1: question:');
    expect(result.stderr).toContain('broken.jsonl:2: not JSON');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
