import { ErrorCode, isRagError } from '../errors/index.js';
import type { Config } from '../config/index.js';
import { environmentConfig, EXIT } from '../runtime/index.js';
import { createJsonLogger, silentLogger, type Logger, type LogLevel } from '../telemetry/index.js';

// The commands share the services' exit codes.
export { EXIT };

/** The environment for a child process this command starts: ours (less `without`), with some variables set. */
export function childEnvironment(
  overrides: Record<string, string>,
  options: { without?: RegExp } = {},
): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !options.without?.test(name)),
  );
  return { ...inherited, ...overrides };
}

/** A command's configuration: `.env`, then the environment. */
export function cliConfig(): Config {
  return environmentConfig();
}

export type Verbosity = 'quiet' | 'normal' | 'verbose';

/**
 * Logs go to stderr as JSON lines, so stdout stays clean for `--json` output. A CLI's own output
 * is its summary: library logs are kept to warnings unless --verbose asks for LOG_LEVEL.
 */
export function cliLogger(config: Config, verbosity: Verbosity): Logger {
  if (verbosity === 'quiet') return silentLogger;
  const level: LogLevel = verbosity === 'verbose' ? config.LOG_LEVEL : 'warn';
  return createJsonLogger({ level, write: (line) => process.stderr.write(line) });
}

/** Runs a command's main function and turns any error into one line and an exit code. */
export function runCli(main: () => Promise<number>): void {
  main().then(
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
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
