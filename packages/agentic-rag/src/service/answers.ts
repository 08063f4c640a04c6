import { z } from 'zod';
import type { StoredConversation } from '../conversation/index.js';
import { ERROR_CODE_INFO, ErrorCode, RagError, toRagError } from '../errors/index.js';
import {
  MAX_TOP_K,
  type AnswerEvent,
  type AnswerEventListener,
  type RagAnswer,
} from '../orchestrator/index.js';
import type { Logger } from '../telemetry/index.js';
import type { Caller } from './caller.js';
import { corpusVersionInput, FiltersSchema, idText, integer, parseInput, queryText } from './inputs.js';
import {
  atCorpusVersion,
  knownCorpusVersion,
  type CallOptions,
  type OperationContext,
  type OperationHost,
  type WorkspaceCall,
} from './operation-host.js';

/** Where an answer stands in its conversation, when it was asked in one. */
export interface AnswerConversation {
  id: string;
  /** This answer's turn, from 1. */
  turn: number;
  /** The question the answer answers: a follow-up made standalone against the earlier turns. */
  standaloneQuery: string;
  rewritten: boolean;
  /** `none` for a conversation's first question, else how the follow-up was rewritten. */
  rewriter: 'none' | 'rules' | 'llm';
}

/** ragAnswer's result: the orchestrator's answer, with its conversation when it was asked in one. */
export type AnswerResult = Omit<RagAnswer, 'followUp'> & { conversation?: AnswerConversation };

export interface AnswerCallOptions extends CallOptions {
  /** Progress, text pieces and citations as the run makes them (what the streaming routes send). */
  onEvent?: AnswerEventListener;
}

/** What a streaming answer sends: the run's events, then `final` (the whole result) or `error`. */
export type AnswerStreamEvent =
  | AnswerEvent
  | { type: 'final'; answer: AnswerResult }
  | { type: 'error'; code: ErrorCode; message: string; retryable: boolean };

export const AnswerInput = z
  .object({
    query: queryText(),
    topK: integer('topK', 1, MAX_TOP_K).nullish(),
    useHyde: z.boolean({ error: 'useHyde must be a boolean' }).nullish(),
    useTools: z.boolean({ error: 'useTools must be a boolean' }).nullish(),
    filters: FiltersSchema.optional(),
    debug: z.boolean({ error: 'debug must be a boolean' }).nullish(),
    minCorpusVersion: corpusVersionInput().nullish(),
    conversationId: idText('conversationId', 64).nullish(),
    startConversation: z.boolean({ error: 'startConversation must be a boolean' }).nullish(),
  })
  .refine((input) => !(input.conversationId != null && input.startConversation === true), {
    error: 'give conversationId to continue a conversation or startConversation to begin one, not both',
  });

/**
 * ragAnswer: one guarded read (role, scope, existence, row security) whatever the transport, and
 * streamed or not. In a conversation the earlier turns go to the run (its rewrite stage makes a
 * follow-up stand alone) and the new turn is recorded once the answer is complete; a conversation
 * of another key or workspace is NOT_FOUND, like one that never existed.
 */
export function answer(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof AnswerInput>,
  options: AnswerCallOptions = {},
): Promise<AnswerResult> {
  const { workspaceId, ...fields } = input;
  return service.guard(
    caller,
    'answer',
    workspaceId,
    (context) => run(context, parseInput(AnswerInput, fields), options),
    options,
  );
}

async function run(
  context: OperationContext,
  parsed: z.output<typeof AnswerInput>,
  options: AnswerCallOptions,
): Promise<AnswerResult> {
  const { runtime, workspaceId, signal, logger, caller } = context;
  const conversation: StoredConversation | null =
    parsed.conversationId != null
      ? await runtime.conversations.open(workspaceId, caller.keyId, parsed.conversationId)
      : parsed.startConversation === true
        ? await runtime.conversations.start(workspaceId, caller.keyId)
        : null;
  // An answer is cached under the corpus version read where its chunks are read. Without a
  // replica that is the guard's read, and the run need not read it again; with one, the run reads
  // it on the connection that serves it (a replica no older than the client's version may):
  // keying on the guard's primary read would force every answer to the primary while it lags.
  const result = await atCorpusVersion(context, parsed.minCorpusVersion, () =>
    runtime.orchestrator.answer({
      query: parsed.query,
      workspaceId,
      ...(parsed.topK != null ? { topK: parsed.topK } : {}),
      ...(parsed.useHyde != null ? { useHyde: parsed.useHyde } : {}),
      ...(parsed.useTools != null ? { useTools: parsed.useTools } : {}),
      filters: parsed.filters ?? {},
      debug: parsed.debug === true,
      ...(signal ? { signal } : {}),
      logger,
      ...(conversation && conversation.history.length > 0 ? { history: conversation.history } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      corpusVersion: knownCorpusVersion(context),
    }),
  );
  const { followUp, ...answered } = result;
  if (!conversation) return answered;
  const standaloneQuery = followUp?.standaloneQuery ?? parsed.query;
  const turn = await runtime.conversations.append(workspaceId, conversation.id, {
    question: parsed.query,
    standaloneQuery,
    answer: answered.answer,
  });
  return {
    ...answered,
    conversation: {
      id: conversation.id,
      turn,
      standaloneQuery,
      rewritten: followUp?.rewritten ?? false,
      rewriter: followUp ? followUp.rewriter : 'none',
    },
  };
}

/**
 * ragAnswer as a stream of events: the same operation (same checks, same result as `final`),
 * with the run's progress in between. An error ends the stream as an `error` event with its code
 * (an unexpected one is logged and sent as INTERNAL, never with its message or stack). Leaving
 * the loop early (a client that disconnected) aborts the run, and the generator returns only once
 * the run has stopped and let go of what it held.
 */
export async function* answerStream(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof AnswerInput>,
  options: CallOptions = {},
): AsyncGenerator<AnswerStreamEvent, void, undefined> {
  const abort = new AbortController();
  const forward = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  options.signal?.addEventListener('abort', forward, { once: true });
  const queue: AnswerStreamEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (event: AnswerStreamEvent) => {
    queue.push(event);
    wake?.();
    wake = null;
  };
  const logger = options.logger ?? service.runtime.logger;
  const running = answer(service, caller, input, { ...options, signal: abort.signal, onEvent: push }).then(
    (result) => push({ type: 'final', answer: result }),
    (error: unknown) => push(errorEvent(error, logger)),
  );
  try {
    for (;;) {
      const event = queue.shift();
      if (!event) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      yield event;
      if (event.type === 'final' || event.type === 'error') return;
    }
  } finally {
    abort.abort(new RagError(ErrorCode.ABORTED, 'the stream was closed'));
    options.signal?.removeEventListener('abort', forward);
    await running;
  }
}

function errorEvent(error: unknown, logger: Logger): AnswerStreamEvent {
  const ragError = toRagError(error);
  if (ragError.code === ErrorCode.INTERNAL) {
    logger.error('answer stream failed', { event: 'answer-stream-failed', error: ragError });
    return { type: 'error', code: ErrorCode.INTERNAL, message: 'internal error', retryable: false };
  }
  return {
    type: 'error',
    code: ragError.code,
    message: ragError.message,
    retryable: ERROR_CODE_INFO[ragError.code].retryable,
  };
}
