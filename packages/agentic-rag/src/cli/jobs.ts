import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { documentLabel, IngestQueue } from '../queue/index.js';
import { createRuntime } from '../runtime/index.js';
import { cliConfig, cliLogger, EXIT, runCli } from './cli-support.js';

const HELP = `Usage: pnpm rag:jobs <command> [options]

Commands:
  show ID           one job's status, attempts, error and trace id (rag_jobs)
  dlq list          the dead-letter queue: jobs that exhausted their attempts, with their errors
  dlq retry [ID..]  put dead letters back on the queue (all, or the given ids)
  dlq purge         delete every dead letter

Options:
  --json            print JSON on stdout
  -h, --help        show this help

Needs REDIS_URL (dlq) and the database of DATABASE_URL (or the embedded one).`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
  });
  if (values.help || positionals.length === 0) {
    console.log(HELP);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const config = cliConfig();
  const runtime = await createRuntime({
    config: { ...config, AGENTIC_RAG_INGEST_MODE: 'inline' },
    logger: cliLogger(config, 'normal'),
  });
  const print = (json: unknown, text: () => void) =>
    values.json ? console.log(JSON.stringify(json)) : text();
  try {
    const [command, sub, ...ids] = positionals;
    if (command === 'show' && sub) {
      const job = await runtime.jobs.get(sub);
      if (!job) throw new RagError(ErrorCode.NOT_FOUND, `no job ${sub}`);
      print(job, () =>
        console.log(
          Object.entries(job)
            .map(([key, value]) => `${key.padEnd(12)} ${JSON.stringify(value)}`)
            .join('\n'),
        ),
      );
      return EXIT.ok;
    }
    if (command !== 'dlq' || !sub)
      throw new RagError(ErrorCode.INVALID_INPUT, `unknown command "${positionals.join(' ')}" (see --help)`);
    const queue = new IngestQueue(config, runtime.jobs);
    try {
      if (sub === 'list') {
        const letters = await queue.listDeadLetters(1000);
        print(letters, () => {
          for (const letter of letters) {
            const what = `${letter.payload.kind} ${documentLabel(letter.payload)}`;
            console.log(
              `${letter.id.slice(0, 12)}  ${letter.failedAt}  attempts ${letter.attempts}  ${what}\n    ${letter.error}`,
            );
          }
          console.log(`${letters.length} dead letters`);
        });
      } else if (sub === 'retry') {
        const retried = await queue.retryDeadLetters(ids.length > 0 ? ids : undefined);
        print({ retried }, () => console.log(`${retried.length} dead letters back on the queue`));
      } else if (sub === 'purge') {
        const purged = await queue.purgeDeadLetters();
        print({ purged }, () => console.log(`${purged} dead letters deleted`));
      } else {
        throw new RagError(ErrorCode.INVALID_INPUT, `unknown dlq command "${sub}" (list, retry, purge)`);
      }
    } finally {
      await queue.close();
    }
    return EXIT.ok;
  } finally {
    await runtime.close();
  }
}

runCli(main);
