import { pino, type Level, type Logger as Pino } from 'pino';
import { redactFields, redactText } from './redact.js';

export type LogFields = Record<string, unknown>;
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

/**
 * The only logging surface the core sees. Apps inject an implementation; the core never writes
 * to the console. `fields.event` names what happened (noun-verb: `ingest-start`).
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

export interface JsonLoggerOptions {
  level: LogLevel;
  /** Receives each line, newline included (stdout for services, stderr for CLIs, a buffer in tests). */
  write: (line: string) => void;
  bindings?: LogFields;
}

/**
 * JSON lines through pino: `level` as a name, `time` in ISO 8601, child bindings (request, run,
 * job ids) on every line of the child. Messages, fields and bindings are redacted before pino
 * sees them (see redact.ts): pino's own `redact` only knows fixed paths, and free text is where
 * an e-mail address or a pasted key turns up.
 */
export function createJsonLogger(options: JsonLoggerOptions): Logger {
  const root = pino(
    {
      level: options.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: options.write },
  );
  return wrap(options.bindings ? root.child(redactFields(options.bindings)) : root);
}

function wrap(logger: Pino): Logger {
  const at = (level: Level) => (message: string, fields?: LogFields) => {
    // Redaction walks every field: skip it for lines the level drops anyway.
    if (!logger.isLevelEnabled(level)) return;
    logger[level](fields ? redactFields(fields) : {}, redactText(message));
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => wrap(logger.child(redactFields(fields))),
  };
}
