import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server standing in for an OpenAI-style chat-completions API, for tests of anything
 * that calls an Llm. Test-only: not exported from the folder's index, and free of vitest so any
 * test runner can use it.
 */

export interface ChatCompletionsBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
  [field: string]: unknown;
}

/** One request as the server received it. */
export interface RecordedChatRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when the body was not JSON. */
  body: ChatCompletionsBody | undefined;
}

/** Answers one request. Not answering at all is allowed: that is how tests simulate a hang. */
export type ChatHandler = (request: RecordedChatRequest, response: ServerResponse) => void;

export interface ChatServer {
  /** `http://127.0.0.1:<port>`, without `/v1`. */
  url: string;
  /** Every request so far, oldest first. Clear it with `requests.length = 0`. */
  requests: RecordedChatRequest[];
  /** Drops open connections (hung handlers included) and stops listening. */
  close(): Promise<void>;
}

export interface CompletionFields {
  content?: string | null;
  model?: string;
  finishReason?: string | null;
  usage?: { promptTokens: number; completionTokens: number };
}

/** The body of a successful chat completion, as OpenAI shapes it. */
export function chatCompletion(fields: CompletionFields = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: fields.model ?? 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: fields.content === undefined ? 'ok' : fields.content },
        finish_reason: fields.finishReason === undefined ? 'stop' : fields.finishReason,
      },
    ],
    ...(fields.usage
      ? {
          usage: {
            prompt_tokens: fields.usage.promptTokens,
            completion_tokens: fields.usage.completionTokens,
            total_tokens: fields.usage.promptTokens + fields.usage.completionTokens,
          },
        }
      : {}),
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Starts listening on a free loopback port. The default handler answers "ok" to everything. */
export async function startChatServer(
  handler: ChatHandler = (_request, response) => sendJson(response, 200, chatCompletion()),
): Promise<ChatServer> {
  const requests: RecordedChatRequest[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      let body: ChatCompletionsBody | undefined;
      try {
        body = JSON.parse(raw) as ChatCompletionsBody;
      } catch {
        body = undefined;
      }
      const recorded: RecordedChatRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      };
      requests.push(recorded);
      try {
        handler(recorded, response);
      } catch (error) {
        if (response.headersSent) response.destroy();
        else sendJson(response, 500, { error: { message: `test handler threw: ${String(error)}` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
