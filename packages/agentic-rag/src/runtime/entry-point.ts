import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, isRagError } from '../errors/index.js';
import { EXIT } from './service-config.js';

/**
 * Listens on `port` (0: any free one) and says where; a taken port is one sentence naming the
 * variable that sets it, not a stack trace.
 */
export async function listen(
  server: Server,
  options: { port: number; host: string; what: string; variable: string },
): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `${options.what} ${options.port} is already in use (set ${options.variable})`
            : `cannot listen: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(options.port, options.host, resolve);
  });
  return server.address() as AddressInfo;
}

/**
 * Runs a service's start-up; a failure is one line, `<name> failed to start: ...`, and exit 2
 * for bad configuration, 1 for anything else.
 */
export function runService(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const message = isRagError(error)
      ? `[${error.code}] ${error.message}`
      : String((error as Error)?.message ?? error);
    process.stderr.write(`${name} failed to start: ${message}\n`);
    process.exit(isRagError(error) && error.code === ErrorCode.INVALID_CONFIG ? EXIT.usage : EXIT.failed);
  });
}

/**
 * Once a command's work is done it must end, even when a library left a handle open (a pool's idle
 * client, a PGlite worker thread, a Redis reconnect timer): benchmarks sometimes stayed alive after
 * printing their summary. The grace period lets ordinary cleanup finish first; the timer is unref'd,
 * so a command whose handles all close exits at once, as before.
 */
const EXIT_GRACE_MS = 3_000;

/** Runs a command's main function and turns any error into one line and an exit code. */
export function runCli(main: () => Promise<number>): void {
  const done = main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (isRagError(error)) {
        process.stderr.write(`error [${error.code}]: ${error.message}\n`);
        process.exitCode =
          error.code === ErrorCode.INVALID_CONFIG || error.code === ErrorCode.INVALID_INPUT
            ? EXIT.usage
            : EXIT.failed;
      } else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        process.stderr.write(`error [INVALID_INPUT]: ${(error as Error).message} (see --help)\n`);
        process.exitCode = EXIT.usage;
      } else {
        process.stderr.write(`error [INTERNAL]: ${(error as Error).message ?? String(error)}\n`);
        process.exitCode = EXIT.failed;
      }
    },
  );
  void done.finally(() => setTimeout(() => process.exit(), EXIT_GRACE_MS).unref());
}
