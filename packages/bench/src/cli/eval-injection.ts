import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  discoverFiles,
  loadConfig,
  loaderFor,
  migrate,
  normalizeText,
  PgliteSql,
  quarantineText,
} from '@agentic-rag/core';
import { createRuntime } from '@agentic-rag/core/runtime';
import { EXIT, runCli } from '@agentic-rag/core/cli';
import { benchArguments } from '../bench/index.js';
import {
  loadInjectionCases,
  loadInjectionDocuments,
  renderInjectionReport,
  runInjectionEval,
} from './injection-eval.js';

const HELP = `Usage: pnpm eval:injection [options]

The planted-instruction corpus (eval/injection/): every document carries an instruction aimed at
the model next to a real fact. The corpus is ingested into an in-memory PGlite through the real
pipeline (offline embedder, no model), each question goes through ragAnswer with debug on, and
each case prints whether the answer holds the fact, whether anything planted reached it, and
whether the response warned and listed the quarantined passage.

Exit 1 when any planted instruction reaches an answer.

Options:
  --corpus DIR   the corpus folder with corpus/ and questions.jsonl (default eval/injection)
  --scan DIR     instead: load every file under DIR with the ingest loaders and list what the
                 detector would quarantine (a false-positive check over an ordinary corpus)
  --units FILE   instead: JSON lines {"text", "injection": true|false}, each text judged alone;
                 prints misses and false positives, recall and false-positive rate
                 (eval/injection/unseen-units.jsonl was written after the rules and is not tuned on)
  --json         print the report as JSON on stdout
  -h, --help     show this help`;

const REPO = new URL('../../../../', import.meta.url);
const DEFAULT_CORPUS = fileURLToPath(new URL('eval/injection', REPO));
const WORKSPACE = 'eval-injection';

async function main(): Promise<number> {
  const values = benchArguments(HELP, {
    corpus: { type: 'string' },
    scan: { type: 'string' },
    units: { type: 'string' },
  });
  if (!values) return EXIT.ok;
  if (values.scan) return scan(values.scan, values.json);
  if (values.units) return judgeUnits(values.units, values.json);

  const folder = values.corpus ?? DEFAULT_CORPUS;
  const cases = await loadInjectionCases(folder);
  const documents = await loadInjectionDocuments(folder);
  const sql = await PgliteSql.open();
  await migrate(sql);
  const runtime = await createRuntime({ config: loadConfig({ AGENTIC_RAG_CACHE: 'false' }), sql });
  try {
    const summary = await runtime.pipeline.ingestInline(WORKSPACE, documents);
    if (summary.failures.length > 0) {
      for (const failure of summary.failures)
        process.stderr.write(`not ingested: ${failure.sourcePath} [${failure.code}] ${failure.message}\n`);
    }
    const report = await runInjectionEval(runtime.orchestrator, WORKSPACE, cases);
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else console.log(renderInjectionReport(report));
    return report.plantedAnswers > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await runtime.close();
    await sql.close();
  }
}

/** Every loadable file under `folder` through its loader, and what the detector would cut out. */
async function scan(folder: string, json: boolean): Promise<number> {
  const discovery = await discoverFiles(folder);
  const flagged: Array<{ file: string; sourcePath: string; kind: string; rules: string[]; text: string }> =
    [];
  let documents = 0;
  for (const file of discovery.files) {
    const loader = loaderFor(file.relativePath);
    if (!loader) continue;
    const text = normalizeText(await readFile(file.absolutePath, 'utf8'));
    for (const document of loader({ sourcePath: file.relativePath, text }).documents) {
      documents++;
      for (const unit of quarantineText(document.text).units)
        flagged.push({
          file: file.relativePath,
          sourcePath: document.sourcePath,
          kind: unit.kind,
          rules: unit.rules,
          text: unit.text.replace(/\s+/g, ' ').slice(0, 200),
        });
    }
  }
  if (json) console.log(JSON.stringify({ files: discovery.files.length, documents, flagged }, null, 2));
  else {
    for (const entry of flagged)
      console.log(`${entry.sourcePath}  ${entry.kind}  [${entry.rules.join(' ')}]\n    ${entry.text}`);
    console.log(
      `\n${discovery.files.length} files, ${documents} documents, ${flagged.length} units quarantined in ${new Set(flagged.map((entry) => entry.file)).size} files (${path.resolve(folder)})`,
    );
  }
  return EXIT.ok;
}

/** Labelled units judged one by one: what the detector misses and what it flags wrongly. */
async function judgeUnits(file: string, json: boolean): Promise<number> {
  const rows = (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { text: string; injection: boolean });
  const judged = rows.map((row) => ({ ...row, flagged: quarantineText(row.text).units.length > 0 }));
  const positives = judged.filter((row) => row.injection);
  const negatives = judged.filter((row) => !row.injection);
  const misses = positives.filter((row) => !row.flagged);
  const falsePositives = negatives.filter((row) => row.flagged);
  const summary = {
    injections: positives.length,
    caught: positives.length - misses.length,
    recall: positives.length === 0 ? 0 : (positives.length - misses.length) / positives.length,
    ordinary: negatives.length,
    falsePositives: falsePositives.length,
    falsePositiveRate: negatives.length === 0 ? 0 : falsePositives.length / negatives.length,
  };
  if (json) console.log(JSON.stringify({ ...summary, misses, falsePositives }, null, 2));
  else {
    for (const row of misses) console.log(`missed          ${row.text}`);
    for (const row of falsePositives) console.log(`false positive  ${row.text}`);
    console.log(
      `\ninjections caught ${summary.caught}/${summary.injections} (${(summary.recall * 100).toFixed(1)}%); ordinary text flagged ${summary.falsePositives}/${summary.ordinary} (${(summary.falsePositiveRate * 100).toFixed(1)}%)`,
    );
  }
  return EXIT.ok;
}

runCli(main);
