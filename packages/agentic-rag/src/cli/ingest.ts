import { parseArgs } from 'node:util';
import { createRuntime } from '../runtime/index.js';
import { assertWorkspaceId } from '../store/index.js';
import type { IngestSummary } from '../ingest/index.js';
import { cliConfig, cliLogger, EXIT, formatNumber, runCli } from './cli-support.js';
import { ProgressBar } from './progress-bar.js';

const HELP = `Usage: pnpm rag:ingest [options]

Loads files into a workspace: chunks them, embeds the chunks and stores them. Unchanged files
are skipped (content hash); changed files have their chunks replaced in one transaction.

Options:
  --source DIR      directory or file to ingest; repeatable (default: AGENTIC_RAG_CORPUS_DIR,
                    which defaults to ./simulated_ingestion)
  --workspace ID    workspace to ingest into (default: AGENTIC_RAG_WORKSPACE, "demo")
  --prune           delete documents previously ingested from the same directory whose files
                    (or records) no longer exist
  --json            print the summary as one JSON object on stdout instead of text
  --quiet           no progress bar and no log lines
  --verbose         log at LOG_LEVEL (default: warnings only) as JSON lines on stderr
  -h, --help        show this help

Supported files: .md .markdown .mdx .txt .text .html .htm .json .jsonl .ndjson .yaml .yml
(.json/.jsonl hold text records: {"id", "title", "text" | "content" | "body", "url", ...}).

Exit status: 0 when every file ingested, 1 when any file failed (the others are still
ingested), 2 for bad options or configuration.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      source: { type: 'string', multiple: true },
      workspace: { type: 'string' },
      prune: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  const config = cliConfig();
  const logger = cliLogger(config, values.quiet ? 'quiet' : values.verbose ? 'verbose' : 'normal');
  const workspaceId = values.workspace ?? config.AGENTIC_RAG_WORKSPACE;
  assertWorkspaceId(workspaceId);
  const sources = values.source ?? [config.AGENTIC_RAG_CORPUS_DIR];
  const runtime = await createRuntime({ config, logger });
  const showProgress = !values.quiet && !values.json;
  const bar = new ProgressBar({ label: 'ingest' });
  try {
    const summary = await runtime.pipeline.ingestSources({
      workspaceId,
      sources,
      prune: values.prune,
      ...(showProgress
        ? {
            onProgress: (progress) =>
              bar.update(
                progress.filesDone,
                progress.filesTotal,
                `${progress.chunks} chunks  ${progress.currentFile}`,
              ),
          }
        : {}),
    });
    if (showProgress) bar.finish();
    if (values.json) console.log(JSON.stringify(summary));
    else printSummary(summary, sources);
    return summary.failures.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await runtime.close();
  }
}

function printSummary(summary: IngestSummary, sources: readonly string[]): void {
  const { documents } = summary;
  console.log(
    `Ingested ${sources.join(', ')} into workspace "${summary.workspaceId}" in ${summary.seconds.toFixed(2)} s`,
  );
  console.log(
    `  documents  added ${documents.added}  updated ${documents.updated}  unchanged ${documents.unchanged}  removed ${documents.removed}  skipped ${documents.skipped}  failed ${documents.failed}`,
  );
  console.log(
    `  chunks     ${formatNumber(summary.chunks)} written (${formatNumber(summary.tokens)} tokens), ${formatNumber(summary.chunksPerSecond, 1)} chunks/s`,
  );
  console.log(`  files      ${summary.files} read; corpus version ${summary.corpusVersion}`);
  for (const failure of summary.failures)
    console.log(`  FAILED     ${failure.sourcePath}: [${failure.code}] ${failure.message}`);
}

runCli(main);
