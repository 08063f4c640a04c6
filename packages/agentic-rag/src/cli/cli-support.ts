import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config/index.js';
import { environmentConfig, EXIT, runCli } from '../runtime/index.js';
import { createJsonLogger, silentLogger, type Logger, type LogLevel } from '../telemetry/index.js';

// The commands share the services' exit codes and error reporting (so do the benchmark mains in apps/).
export { EXIT, runCli };

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

/** Flags every subcommand-style command takes. */
const COMMON_FLAGS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * The arguments of a command with subcommands (`pnpm rag:keys create …`), with --json and
 * -h/--help besides its own flags. When help is asked for, or no subcommand is named, the help is
 * printed and the exit code to return comes back instead.
 */
export function subcommandArguments<const Options extends NonNullable<ParseArgsConfig['options']>>(
  options: Options,
  help: string,
) {
  const parsed = parseArgs({ options: { ...options, ...COMMON_FLAGS }, allowPositionals: true });
  // The flag is ours (COMMON_FLAGS); TypeScript cannot see it through the caller's generic options.
  const asked = (parsed.values as { help?: boolean }).help === true;
  if (asked || parsed.positionals.length === 0) {
    console.log(help);
    return { exit: asked ? EXIT.ok : EXIT.usage };
  }
  return parsed;
}

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
