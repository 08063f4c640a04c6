/** An error the API answered with: `code` is its stable error code (INVALID_INPUT, NOT_FOUND, ...). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface GraphqlBody<T> {
  data?: T | null;
  errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

/** The first error of a GraphQL answer, as an ApiError with the API's code. */
export function apiErrorOf(errors: GraphqlBody<unknown>['errors'], status?: number): ApiError {
  const first = errors?.[0];
  if (!first) return new ApiError(`HTTP_${status ?? 0}`, `the API answered ${status ?? 'nothing'}`);
  return new ApiError(first.extensions?.code ?? 'ERROR', first.message);
}

/**
 * Runs one operation against /graphql on this origin with the signed-in key. Throws ApiError with
 * the API's code: UNAUTHENTICATED for a bad key, FORBIDDEN for a role that may not, and so on.
 */
export async function graphql<T>(
  apiKey: string,
  query: string,
  variables: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
      },
      body: JSON.stringify({ query, variables }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('NETWORK', `cannot reach the API: ${(error as Error).message}`);
  }
  let body: GraphqlBody<T>;
  try {
    body = (await response.json()) as GraphqlBody<T>;
  } catch {
    throw new ApiError(`HTTP_${response.status}`, `the API answered ${response.status} without JSON`);
  }
  if (body.errors?.length || !body.data) throw apiErrorOf(body.errors, response.status);
  return body.data;
}

/** Any thrown value as an ApiError, so every message shows a code. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('ERROR', error instanceof Error ? error.message : String(error));
}
