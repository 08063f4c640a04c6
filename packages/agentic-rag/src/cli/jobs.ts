import { parseArgs } from 'node:util';
import { ErrorCode, RagError } from '../errors/index.js';
import { documentLabel } from '../queue/index.js';
import { asLocalOperator, cliConfig, cliLogger, EXIT, printer, runCli } from './cli-support.js';

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
  const [command, sub, ...ids] = positionals;
  // The dead-letter queue is the queue's: these commands connect to it whatever the ingest mode.
  const dlq = command === 'dlq';
  // The operator at the machine, through the service: validated, and re-drives and purges audited.
  const print = printer(values.json);
  return asLocalOperator(
    {
      config: { ...config, AGENTIC_RAG_INGEST_MODE: dlq ? 'queue' : 'inline' },
      logger: cliLogger(config, 'normal'),
      queue: dlq,
    },
    async (service, caller) => {
      if (command === 'show' && sub) {
        const job = await service.job(caller, { id: sub });
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
      if (!dlq || !sub)
        throw new RagError(
          ErrorCode.INVALID_INPUT,
          `unknown command "${positionals.join(' ')}" (see --help)`,
        );
      if (sub === 'list') {
        const letters = await service.deadLetters(caller, { limit: 1000 });
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
        const retried = await service.retryDeadLetters(caller, { ids: ids.length > 0 ? ids : undefined });
        print({ retried }, () => console.log(`${retried.length} dead letters back on the queue`));
      } else if (sub === 'purge') {
        const purged = await service.purgeDeadLetters(caller);
        print({ purged }, () => console.log(`${purged} dead letters deleted`));
      } else {
        throw new RagError(ErrorCode.INVALID_INPUT, `unknown dlq command "${sub}" (list, retry, purge)`);
      }
      return EXIT.ok;
    },
  );
}

runCli(main);
