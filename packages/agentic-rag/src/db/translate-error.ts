import { ErrorCode, RagError } from '../errors/index.js';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE']);

/**
 * Connection-level failures become STORE_UNAVAILABLE (retryable); SQL errors keep their
 * Postgres SQLSTATE in `details.sqlState` so callers can branch on it without parsing text.
 */
export function translateDatabaseError(error: unknown): RagError {
  if (error instanceof RagError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08') || code === '57P01')) {
    return new RagError(ErrorCode.STORE_UNAVAILABLE, `database unavailable: ${message}`, { cause: error });
  }
  if (/Connection terminated|connection is closed|PGlite is closed/i.test(message)) {
    return new RagError(ErrorCode.STORE_UNAVAILABLE, `database unavailable: ${message}`, { cause: error });
  }
  return new RagError(ErrorCode.INTERNAL, `database error: ${message}`, {
    cause: error,
    details: typeof code === 'string' ? { sqlState: code } : undefined,
  });
}

export function sqlStateOf(error: unknown): string | undefined {
  if (error instanceof RagError) return error.details?.sqlState as string | undefined;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
