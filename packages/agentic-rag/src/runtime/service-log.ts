import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.js';
import { ErrorCode, RagError } from '../errors/index.js';
import { createJsonLogger, type Logger } from '../telemetry/index.js';

/** Where a service's JSON log lines go, and how it speaks to the person who started it. */
export interface ServiceLog {
  logger: Logger;
  /** The file the JSON lines are appended to; null when they go to stdout (LOG_FORMAT=json). */
  file: string | null;
  /**
   * A line for a person (the ready line): stdout with LOG_FORMAT=pretty. With json it is dropped,
   * stdout being JSON only: the matching log event carries the same facts as fields.
   */
  announce(line: string): void;
  close(): void;
}

/** LOG_FILE, or `<DATA_DIR>/logs/agentic-rag.log`; absolute, so the ready line can name it. */
export function logFilePath(config: Pick<Config, 'LOG_FILE' | 'DATA_DIR'>): string {
  return path.resolve(config.LOG_FILE ?? path.join(config.DATA_DIR, 'logs', 'agentic-rag.log'));
}

// Lines pino writes at these levels are also shown on stderr: a person should see trouble at once.
const PROBLEM = /^\{"level":"(warn|error|fatal)"/;

/**
 * The log of a long-running service. LOG_FORMAT=json: JSON lines on stdout, for containers and log
 * shippers. LOG_FORMAT=pretty (the default): JSON lines appended to LOG_FILE, warnings and errors
 * repeated on stderr as `<level>: <message>`, and stdout left to `announce`. A log file that cannot
 * be opened is INVALID_CONFIG naming LOG_FILE, so the start fails in one line.
 */
export function serviceLog(config: Config): ServiceLog {
  if (config.LOG_FORMAT === 'json') {
    return {
      logger: createJsonLogger({ level: config.LOG_LEVEL, write: (line) => process.stdout.write(line) }),
      file: null,
      announce: () => {},
      close: () => {},
    };
  }
  const file = logFilePath(config);
  let descriptor: number;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    descriptor = openSync(file, 'a', 0o600);
  } catch (error) {
    throw new RagError(
      ErrorCode.INVALID_CONFIG,
      `cannot write the log file ${file} (set LOG_FILE, or LOG_FORMAT=json): ${(error as Error).message}`,
      { cause: error, details: { path: file } },
    );
  }
  // Synchronous appends: a line logged just before process.exit() is never lost, and a service's
  // log volume (requests, jobs) is far below what a blocking write of a few hundred bytes costs.
  const write = (line: string) => {
    writeSync(descriptor, line);
    if (PROBLEM.test(line)) {
      const { level, msg } = JSON.parse(line) as { level: string; msg: string };
      process.stderr.write(`${level}: ${msg}\n`);
    }
  };
  return {
    logger: createJsonLogger({ level: config.LOG_LEVEL, write }),
    file,
    announce: (line) => process.stdout.write(`${line}\n`),
    close: () => closeSync(descriptor),
  };
}
