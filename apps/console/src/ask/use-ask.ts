import { operations } from '@agentic-rag/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { streamAnswer } from '../api/answer-stream.js';
import { ApiError, asApiError, graphql } from '../api/graphql.js';
import type { AnswerEvent, Citation, SearchHit } from '../api/types.js';
import { useSession } from '../session/session.js';
import { appendTurn } from './history.js';

export interface AskState {
  /** The thread (its URL /ask?t=<id>) the question belongs to. */
  threadId: string;
  question: string;
  /** The stage running now (plan, retrieve, synthesize, ...), null once the answer is final. */
  stage: string | null;
  text: string;
  citations: Citation[];
  final: AnswerEvent['answer'];
  error: ApiError | null;
  hits: SearchHit[] | null;
  hitsError: ApiError | null;
}

/**
 * Asks a question in a thread: the answer streams from ragAnswerStream while a search for the same
 * question fetches the retrieved passages with each channel's score and rank, for the "why" panel.
 * A thread's first question starts an API conversation; a follow-up continues it, so the API's
 * rewrite makes it stand alone. The final answer is kept in the history (history.ts).
 */
export function useAsk() {
  const { apiKey, workspaceId } = useSession();
  const [state, setState] = useState<AskState | null>(null);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const ask = useCallback(
    (question: string, threadId: string, conversationId: string | null) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const change = (update: (state: AskState) => Partial<AskState>) => {
        if (!controller.signal.aborted)
          setState((current) => (current ? { ...current, ...update(current) } : current));
      };
      setState({
        threadId,
        question,
        stage: 'plan',
        text: '',
        citations: [],
        final: null,
        error: null,
        hits: null,
        hitsError: null,
      });

      graphql<{ search: { hits: SearchHit[] } }>(
        apiKey,
        operations.SEARCH,
        { input: { query: question, workspaceId, k: 10 } } satisfies operations.SearchQueryVariables,
        controller.signal,
      )
        .then(({ search }) => change(() => ({ hits: search.hits })))
        .catch((error: unknown) => change(() => ({ hitsError: asApiError(error) })));

      const run = async (continuing: string | null): Promise<void> => {
        const input = continuing
          ? { query: question, workspaceId, conversationId: continuing }
          : { query: question, workspaceId, startConversation: true };
        for await (const event of streamAnswer(apiKey, input, controller.signal)) {
          if (event.type === 'stage' && event.status === 'started') change(() => ({ stage: event.stage }));
          else if (event.type === 'delta') change((current) => ({ text: current.text + (event.text ?? '') }));
          else if (event.type === 'citation' && event.citation) {
            const citation = event.citation;
            change((current) => ({ citations: [...current.citations, citation] }));
          } else if (event.type === 'final' && event.answer) {
            const answer = event.answer;
            if (controller.signal.aborted) return;
            appendTurn(localStorage, workspaceId, threadId, answer.conversation?.id ?? continuing, {
              question,
              answer: answer.answer,
              citations: answer.citations,
              refused: answer.refused,
              selfCheck: answer.selfCheck,
              standaloneQuery: answer.conversation?.rewritten ? answer.conversation.standaloneQuery : null,
            });
            change(() => ({ final: answer, text: answer.answer, citations: answer.citations, stage: null }));
          } else if (event.type === 'error' && event.error) {
            const { code, message } = event.error;
            // The API forgot the conversation (it expired): the follow-up starts a new one.
            if (code === 'NOT_FOUND' && continuing) return run(null);
            change(() => ({ error: new ApiError(code, message), stage: null }));
          }
        }
      };
      const fail = (error: unknown) => change(() => ({ error: asApiError(error), stage: null }));
      run(conversationId).catch((error: unknown) => {
        if (asApiError(error).code === 'NOT_FOUND' && conversationId) run(null).catch(fail);
        else fail(error);
      });
    },
    [apiKey, workspaceId],
  );

  return { state, ask };
}
