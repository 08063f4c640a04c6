import { ErrorCode, RagError } from '../errors/index.js';

// ENOENT: a local socket (the embedded database's server) that is not there.
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'ENOENT']);
/** Server busy or starting: too_many_connections, cannot_connect_now, admin/crash shutdown. */
const UNAVAILABLE_SQLSTATES = new Set(['53300', '57P01', '57P02', '57P03']);
/** query_canceled: the server's statement_timeout, or pg_cancel_backend, stopped the statement. */
const CANCELLED_SQLSTATE = '57014';
/** serialization_failure, deadlock_detected: the same transaction run again normally succeeds. */
const CONFLICT_SQLSTATES = new Set(['40001', '40P01']);
/**
 * node-postgres reports a pool or connection that is gone with plain Errors that carry no code,
 * so these messages are the only signal there is.
 */
const DRIVER_CONNECTION_MESSAGES =
  /Connection terminated|Cannot use a pool after calling end|Client has encountered a connection error/i;

/**
 * Translates a driver error where it happens: connection failures become STORE_UNAVAILABLE,
 * conflicts TRANSACTION_CONFLICT and a statement the server cancelled STATEMENT_CANCELLED (all
 * retryable), an aborted signal ABORTED; any other SQL error keeps its SQLSTATE in `details.sqlState`.
 */
export function translateDatabaseError(error: unknown): RagError {
  if (error instanceof RagError) return error;
  if ((error as { name?: unknown } | null)?.name === 'AbortError') {
    return new RagError(ErrorCode.ABORTED, 'database call aborted', { cause: error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const sqlState = typeof code === 'string' ? code : undefined;
  if (
    sqlState &&
    (CONNECTION_CODES.has(sqlState) || sqlState.startsWith('08') || UNAVAILABLE_SQLSTATES.has(sqlState))
  ) {
    return new RagError(ErrorCode.STORE_UNAVAILABLE, `database unavailable: ${message}`, {
      cause: error,
      details: { sqlState },
    });
  }
  if (sqlState && CONFLICT_SQLSTATES.has(sqlState)) {
    return new RagError(ErrorCode.TRANSACTION_CONFLICT, `transaction conflict: ${message}`, {
      cause: error,
      details: { sqlState },
    });
  }
  if (sqlState === CANCELLED_SQLSTATE) {
    return new RagError(ErrorCode.STATEMENT_CANCELLED, `database cancelled the statement: ${message}`, {
      cause: error,
      details: { sqlState },
    });
  }
  if (!sqlState && DRIVER_CONNECTION_MESSAGES.test(message)) {
    return new RagError(ErrorCode.STORE_UNAVAILABLE, `database unavailable: ${message}`, { cause: error });
  }
  return new RagError(ErrorCode.INTERNAL, `database error: ${message}`, {
    cause: error,
    ...(sqlState ? { details: { sqlState } } : {}),
  });
}

/** The error for a database that this process has already closed. */
export function closedDatabaseError(): RagError {
  return new RagError(ErrorCode.STORE_UNAVAILABLE, 'database unavailable: it has been closed');
}

/** The error for a call whose signal was aborted before it ran, whatever the abort reason. */
export function abortedError(reason: unknown): RagError {
  return new RagError(ErrorCode.ABORTED, 'database call aborted', { cause: reason });
}
