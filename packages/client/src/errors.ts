/**
 * An error the service answered with (GraphQL `extensions.code`, REST `error_code`), or
 * `UNREACHABLE` when it could not be reached. `code` is the service's stable code: branch on it.
 */
export class AgenticRagError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status, when there was a response. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'AgenticRagError';
  }
}
