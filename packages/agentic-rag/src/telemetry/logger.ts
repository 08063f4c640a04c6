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

const LEVEL_RANK: Record<LogLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

export interface JsonLoggerOptions {
  level: LogLevel;
  write: (line: string) => void;
  bindings?: LogFields;
  now?: () => Date;
}

/** JSON lines, one object per entry, with the child bindings merged in. */
export function createJsonLogger(options: JsonLoggerOptions): Logger {
  const threshold = LEVEL_RANK[options.level];
  const now = options.now ?? (() => new Date());
  const emit = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (LEVEL_RANK[level] < threshold) return;
    const entry = { level, time: now().toISOString(), msg: message, ...options.bindings, ...fields };
    options.write(`${JSON.stringify(entry, errorReplacer)}\n`);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
    child: (fields) => createJsonLogger({ ...options, bindings: { ...options.bindings, ...fields } }),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
  }
  return value;
}
