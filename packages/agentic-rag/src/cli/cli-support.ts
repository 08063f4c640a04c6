import type { Config } from '../config/index.js';
import {
  createRuntime,
  environmentConfig,
  EXIT,
  runCli,
  type CreateRuntimeOptions,
} from '../runtime/index.js';
import { localOperator, RagService, type Caller } from '../service/index.js';
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

/**
 * Runs `work` as the operator at this machine, through a service over a runtime opened for it, and
 * closes both. The service validates what the command asks and audits what it changes, as it does
 * for a keyed caller; no command reaches past it.
 */
export async function asLocalOperator<T>(
  options: CreateRuntimeOptions,
  work: (service: RagService, caller: Caller) => Promise<T>,
): Promise<T> {
  const runtime = await createRuntime(options);
  const service = new RagService(runtime, { limiter: null });
  try {
    return await work(service, localOperator('cli'));
  } finally {
    await service.close();
    await runtime.close();
  }
}

/** What a command prints of a result: the JSON on stdout under `--json`, its text otherwise. */
export type Printer = (json: unknown, text: () => void) => void;

export function printer(asJson: boolean): Printer {
  return (json, text) => (asJson ? console.log(JSON.stringify(json)) : text());
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
