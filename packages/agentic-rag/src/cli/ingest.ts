import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { ingestMode } from '../config/index.js';
import type { Caller, RagService } from '../service/index.js';
import { assertWorkspaceId } from '../store/index.js';
import { SUPPORTED_EXTENSIONS, type IngestSummary } from '../ingest/index.js';
import { asLocalOperator, cliConfig, cliLogger, EXIT, formatNumber, runCli } from './cli-support.js';
import { crawlCommand, ingestCrawl } from './ingest-crawl.js';
import { ingestKnowledge } from './ingest-knowledge.js';
import { ProgressBar } from './progress-bar.js';

const HELP = `Usage: pnpm rag:ingest [options]

Loads files (or a web site, --url) into a workspace: chunks them, embeds the chunks and stores
them. Unchanged files are skipped (content hash); changed files have their chunks replaced in one
transaction.

Options:
  --source DIR      directory or file to ingest; repeatable (default: AGENTIC_RAG_CORPUS_DIR,
                    which defaults to ./simulated_ingestion)
  --workspace ID    workspace to ingest into (default: AGENTIC_RAG_WORKSPACE, "demo")
  --prune           delete documents previously ingested from the same directory whose files
                    (or records) no longer exist (inline only)
  --queue           enqueue one job per file for the workers (pnpm worker) and return; the
                    default when REDIS_URL is set (AGENTIC_RAG_INGEST_MODE=auto)
  --inline          ingest in this process even when REDIS_URL is set
  --wait            with the queue: wait for the jobs, with a progress bar
  --knowledge FILE  a knowledge pack (JSON: metadata, pieces, graph) or free-text notes,
                    structured into a pack first (by the model when RAG_LLM is set, else by
                    cue-word rules; the raw text and the result are kept as a check-in)
  --entity ID       with --knowledge: whose knowledge it is (user:alice, team:ops)
  --max-retries N   with --knowledge and a model: asks after an invalid reply (default 2)
  --url URL         crawl a web site: from a start page (same-origin links followed) or a
                    sitemap (a URL ending in .xml; sitemap indexes followed); robots.txt obeyed,
                    recrawls conditional (304 = unchanged), vanished pages removed
                    (docs/web-sources.md). Queued like files when the queue is on
  --every DUR       with --url: crawl again every DUR (24h, 30m, 1d) while a worker runs;
                    needs the queue
  --max-pages N     with --url: pages requested per crawl (default 1000)
  --max-depth N     with --url: links followed from the start page (default 10)
  --max-bytes N     with --url: bytes downloaded per crawl (default 500 MiB)
  --rate R          with --url: requests per second (default 2; Crawl-delay may slow it)
  --concurrency N   with --url: requests in flight at once (default 2)
  --full            with --url: fetch every page in full, without conditional requests
  --resume          with the queue: put the workspace's dead-lettered jobs back on the queue
                    and enqueue again documents whose last ingest stopped before it stored
                    them while no job is left to finish it
  --json            print the summary as one JSON object on stdout instead of text
  --quiet           no progress bar and no log lines
  --verbose         log at LOG_LEVEL (default: warnings only) as JSON lines on stderr
  -h, --help        show this help

Supported files: ${SUPPORTED_EXTENSIONS.join(' ')}
(.json/.jsonl hold text records: {"id", "title", "text" | "content" | "body", "url", ...}; an
OpenAPI 3 description in .yaml, .yml or .json becomes one document per operation; .pdf and .docx
are read as text (limits and what is kept: docs/formats.md).

Exit status: 0 when every file ingested, 1 when any file failed (the others are still
ingested), 2 for bad options or configuration.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      source: { type: 'string', multiple: true },
      workspace: { type: 'string' },
      prune: { type: 'boolean', default: false },
      queue: { type: 'boolean', default: false },
      inline: { type: 'boolean', default: false },
      wait: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      knowledge: { type: 'string' },
      entity: { type: 'string' },
      'max-retries': { type: 'string', default: '2' },
      url: { type: 'string' },
      every: { type: 'string' },
      'max-pages': { type: 'string' },
      'max-depth': { type: 'string' },
      'max-bytes': { type: 'string' },
      rate: { type: 'string' },
      concurrency: { type: 'string' },
      full: { type: 'boolean', default: false },
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
  if (values.entity && !values.knowledge)
    throw new RagError(ErrorCode.INVALID_INPUT, '--entity goes with --knowledge');
  if (values.knowledge) {
    const maxRetries = Number(values['max-retries']);
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10)
      throw new RagError(ErrorCode.INVALID_INPUT, '--max-retries must be an integer from 0 to 10');
    // Knowledge is structured and written here and now: a model call is not a queue job.
    return asLocalOperator({ config, logger }, (service, caller) =>
      ingestKnowledge(service, caller, workspaceId, {
        file: values.knowledge!,
        entityId: values.entity,
        maxRetries,
        json: values.json,
        quiet: values.quiet,
      }),
    );
  }
  const sources = values.source ?? [config.AGENTIC_RAG_CORPUS_DIR];
  if (values.queue && values.inline)
    throw new RagError(ErrorCode.INVALID_INPUT, '--queue and --inline exclude each other');
  const crawlOnly = ['every', 'max-pages', 'max-depth', 'max-bytes', 'rate', 'concurrency', 'full'] as const;
  const stray = crawlOnly.find((flag) => values[flag] !== undefined && values[flag] !== false);
  if (!values.url && stray) throw new RagError(ErrorCode.INVALID_INPUT, `--${stray} goes with --url`);
  if (values.url && (values.source || values.prune || values.resume))
    throw new RagError(ErrorCode.INVALID_INPUT, '--url does not go with --source, --prune or --resume');
  const crawl = values.url
    ? crawlCommand({
        url: values.url,
        every: values.every,
        maxPages: values['max-pages'],
        maxDepth: values['max-depth'],
        maxBytes: values['max-bytes'],
        rate: values.rate,
        concurrency: values.concurrency,
        full: values.full,
      })
    : null;
  // The runtime opens the queue in queue mode only; the service ingests through it when it is there.
  const mode = ingestMode(config, values.inline ? 'inline' : values.queue ? 'queue' : undefined);
  if (mode === 'inline' && !crawl && (values.wait || values.resume))
    throw new RagError(ErrorCode.INVALID_INPUT, '--wait and --resume need the queue (REDIS_URL, or --queue)');
  const runtimeOptions = { config: { ...config, AGENTIC_RAG_INGEST_MODE: mode }, logger, queue: true };
  if (crawl) {
    return asLocalOperator(runtimeOptions, (service, caller) =>
      ingestCrawl(service, caller, workspaceId, crawl, {
        queued: mode === 'queue',
        wait: values.wait,
        json: values.json,
        quiet: values.quiet,
      }),
    );
  }
  if (mode === 'queue') {
    return asLocalOperator(runtimeOptions, (service, caller) =>
      enqueue(service, caller, workspaceId, sources, values),
    );
  }
  const showProgress = !values.quiet && !values.json;
  const bar = new ProgressBar({ label: 'ingest' });
  return asLocalOperator(runtimeOptions, async (service, caller) => {
    const { summary } = await service.ingest(
      caller,
      { workspaceId, paths: sources, prune: values.prune },
      showProgress
        ? {
            onProgress: (progress) =>
              bar.update(
                progress.filesDone,
                progress.filesTotal,
                `${progress.chunks} chunks  ${progress.currentFile}`,
              ),
          }
        : {},
    );
    if (showProgress) bar.finish();
    if (values.json) console.log(JSON.stringify(summary));
    else printSummary(summary!, sources);
    return summary!.failures.length > 0 ? EXIT.failed : EXIT.ok;
  });
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

/** Queue mode: one job per file, then (with --wait) a progress bar until every job ends. */
async function enqueue(
  service: RagService,
  caller: Caller,
  workspaceId: string,
  sources: readonly string[],
  options: { json: boolean; quiet: boolean; wait: boolean; resume: boolean; prune: boolean },
): Promise<number> {
  const say = (line: string) => {
    if (!options.quiet && !options.json) console.log(line);
  };
  const ids: string[] = [];
  if (options.resume) {
    const resumed = await service.resumeIngest(caller, { workspaceId });
    ids.push(...resumed.retried, ...resumed.requeued, ...resumed.alive);
    say(
      `resume: ${resumed.retried.length} dead jobs back on the queue, ${resumed.requeued.length} lost or stuck documents enqueued again, ${resumed.alive.length} still queued or running`,
    );
    for (const record of resumed.unfinished) {
      say(`  unfinished: ${record.sourcePath} stopped after ${record.stage} (${record.updatedAt})`);
    }
    for (const lost of resumed.unrecoverable) say(`  cannot resume ${lost.document}: ${lost.reason}`);
  } else {
    let removed = 0;
    for (const source of sources) {
      const { jobs, skipped, pruned } = await service.ingest(caller, {
        workspaceId,
        paths: [source],
        prune: options.prune,
      });
      removed += pruned;
      const queued = jobs.flatMap((job) => (job ? [job.id] : []));
      ids.push(...queued);
      say(
        `queued ${queued.length} files of ${source}${skipped.length > 0 ? ` (${skipped.length} missing or unreadable, skipped)` : ''}`,
      );
      for (const failure of skipped)
        say(`  skipped ${failure.sourcePath}: [${failure.code}] ${failure.message}`);
    }
    if (options.prune) say(`removed ${removed} documents whose files are gone`);
  }
  if (!options.wait) {
    if (options.json) console.log(JSON.stringify({ workspaceId, queued: ids }));
    else
      say(`${ids.length} jobs queued on "${service.config.AGENTIC_RAG_QUEUE_NAME}"; pnpm worker runs them`);
    return EXIT.ok;
  }
  const bar = new ProgressBar({ label: 'jobs' });
  const showProgress = !options.quiet && !options.json;
  const result = await service.waitForJobs(
    caller,
    { workspaceId, ids },
    {
      onProgress: (done, total, dead) => {
        if (showProgress) bar.update(done, total, dead > 0 ? `${dead} dead` : '');
      },
    },
  );
  if (showProgress) bar.finish();
  if (options.json) console.log(JSON.stringify({ workspaceId, jobs: ids.length, ...result }));
  else say(`${result.completed} completed, ${result.dead} dead-lettered (pnpm rag:jobs dlq list)`);
  return result.dead > 0 ? EXIT.failed : EXIT.ok;
}
