import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ErrorCode,
  firstDirtyString,
  RagError,
  toRagError,
  type AnswerStreamEvent,
  type Logger,
  type RagService,
} from '@agentic-rag/core';
import { BodyTooLarge, MalformedBody, readJson } from '../http-body.js';
import { sendError } from '../http-errors.js';
import { refuseRest } from '../refusals.js';

export const ANSWER_STREAM_PATH = '/answer/stream';
/** A comment line this often keeps proxies from closing a stream that waits on a slow stage. */
export const KEEP_ALIVE_MS = 15_000;

export interface AnswerStreamOptions {
  /** The keep-alive comment's interval; tests shorten it to see comments without waiting 15 s. */
  keepAliveMs?: number;
}

/** One Server-Sent Event: its name is the event's type, its data the event as JSON (one line). */
export const sseFrame = (event: AnswerStreamEvent) =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * `POST /answer/stream`: ragAnswer as Server-Sent Events. The body is ragAnswer's input as GraphQL
 * takes it (`query`, `topK`, `conversationId`, ...); the workspace is `workspaceId` in the body,
 * else `?workspace=`, else the default. A request refused before the run starts (no key, a bad
 * input, a workspace out of scope, rate limited, RAG disabled) gets the REST error body with its
 * status; after that every error is an `error` event, and the stream ends after `final` or
 * `error`. A client that disconnects aborts the run. Returns false for other paths.
 */
export async function handleAnswerStream(
  request: IncomingMessage,
  response: ServerResponse,
  service: RagService,
  logger: Logger,
  options: AnswerStreamOptions = {},
): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== ANSWER_STREAM_PATH) return false;
  if (request.method !== 'POST') {
    response.setHeader('allow', 'POST');
    sendError(response, ErrorCode.INVALID_INPUT, `${ANSWER_STREAM_PATH} takes POST`, 405);
    return true;
  }
  const abort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  let events: AsyncGenerator<AnswerStreamEvent, void, undefined>;
  let first: IteratorResult<AnswerStreamEvent, void>;
  try {
    const caller = await service.authenticate(request.headers.authorization, request.socket.remoteAddress);
    const input = await readInput(request, url, service);
    events = service.answerStream(caller, input, { signal: abort.signal, logger });
    // The first event says whether the run started: a refusal is an HTTP error, not a stream.
    first = await events.next();
  } catch (error) {
    refuse(response, error, logger);
    return true;
  }
  if (!first.done && first.value.type === 'error') {
    const { code, message } = first.value;
    refuseRest(response, new RagError(code, message));
    return true;
  }
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx would otherwise buffer the stream until it ends.
    'x-accel-buffering': 'no',
  });
  const keepAlive = setInterval(
    () => response.write(': keep-alive\n\n'),
    options.keepAliveMs ?? KEEP_ALIVE_MS,
  );
  try {
    if (!first.done) response.write(sseFrame(first.value));
    for await (const event of events) {
      if (abort.signal.aborted) break;
      response.write(sseFrame(event));
    }
  } finally {
    clearInterval(keepAlive);
    // Leaving the loop early (the client went away) closes the generator, which aborts the run.
    await events.return();
    response.end();
  }
  return true;
}

/** ragAnswer's fields as the client sent them, unchecked: the service validates them once. */
type AnswerRequest = Parameters<RagService['answerStream']>[1];

async function readInput(request: IncomingMessage, url: URL, service: RagService): Promise<AnswerRequest> {
  const body = await readJson(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RagError(ErrorCode.INVALID_INPUT, 'the body must be a JSON object with a "query"');
  const dirty = firstDirtyString(body);
  if (dirty !== null)
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `${dirty} must not contain NUL characters or unpaired surrogates`,
    );
  const fields = body as AnswerRequest;
  return {
    ...fields,
    workspaceId: fields.workspaceId ?? url.searchParams.get('workspace') ?? service.defaultWorkspace,
  };
}

function refuse(response: ServerResponse, error: unknown, logger: Logger): void {
  if (error instanceof BodyTooLarge)
    sendError(response, ErrorCode.INVALID_INPUT, 'request body exceeds 1 MiB', 413);
  else if (error instanceof MalformedBody) sendError(response, ErrorCode.INVALID_INPUT, error.message);
  else {
    const ragError = toRagError(error);
    if (ragError.code === ErrorCode.INTERNAL) {
      logger.error('answer stream refused', {
        event: 'http-error',
        route: ANSWER_STREAM_PATH,
        error: ragError,
      });
      sendError(response, ErrorCode.INTERNAL, 'internal error');
    } else refuseRest(response, ragError);
  }
}
