import { createClient, NetworkError } from 'graphql-sse';
import { ANSWER_STREAM } from './operations.js';
import { ApiError, apiErrorOf } from './graphql.js';
import type { AnswerEvent } from './types.js';

/**
 * ragAnswerStream over GraphQL over SSE (/graphql/stream, graphql-sse's distinct-connections mode):
 * yields the answer's events as they come. A refusal before the stream opens (bad key, rate limit)
 * and an `errors` result throw ApiError with the API's code; an `error` event is yielded.
 */
export async function* streamAnswer(
  apiKey: string,
  input: { query: string; workspaceId: string; conversationId?: string; startConversation?: boolean },
  signal: AbortSignal,
): AsyncGenerator<AnswerEvent> {
  const client = createClient({
    url: '/graphql/stream',
    headers: { authorization: `Bearer ${apiKey}` },
    // A failed answer is reported, not asked again: every ask counts against the rate limit.
    retryAttempts: 0,
  });
  const results = client.iterate<{ ragAnswerStream: AnswerEvent }>({
    query: ANSWER_STREAM,
    variables: { input },
  });
  const stop = () => void results.return?.();
  signal.addEventListener('abort', stop);
  try {
    for await (const result of results) {
      if (result.errors?.length) throw apiErrorOf(result.errors as Parameters<typeof apiErrorOf>[0]);
      if (result.data) yield result.data.ragAnswerStream;
    }
  } catch (error) {
    throw await streamError(error);
  } finally {
    signal.removeEventListener('abort', stop);
    client.dispose();
  }
}

/** What a failed stream says: the API's error body when it answered one, else the error's text. */
async function streamError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (Array.isArray(error)) return apiErrorOf(error as Parameters<typeof apiErrorOf>[0]);
  if (error instanceof NetworkError && error.response) {
    const { response } = error;
    const body = (await response.json().catch(() => null)) as Parameters<typeof apiErrorOf>[0] extends infer E
      ? { errors?: E }
      : never;
    return apiErrorOf(body?.errors, response.status);
  }
  return new ApiError('NETWORK', error instanceof Error ? error.message : String(error));
}
