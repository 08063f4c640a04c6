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

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
