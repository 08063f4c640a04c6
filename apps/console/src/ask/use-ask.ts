import { useCallback, useEffect, useRef, useState } from 'react';
import { streamAnswer } from '../api/answer-stream.js';
import { ApiError, asApiError, graphql } from '../api/graphql.js';
import { SEARCH } from '../api/operations.js';
import type { AnswerEvent, Citation, SearchHit } from '../api/types.js';
import { useSession } from '../session/session.js';

export interface AskState {
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
 * Asks a question: the answer streams from ragAnswerStream while a search for the same question
 * fetches the retrieved passages with each channel's score and rank, for the "why" panel.
 */
export function useAsk() {
  const { apiKey, workspaceId } = useSession();
  const [state, setState] = useState<AskState | null>(null);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const ask = useCallback(
    (question: string) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      const change = (update: (state: AskState) => Partial<AskState>) => {
        if (!controller.signal.aborted)
          setState((current) => (current ? { ...current, ...update(current) } : current));
      };
      setState({
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
        SEARCH,
        { input: { query: question, workspaceId, k: 10 } },
        controller.signal,
      )
        .then(({ search }) => change(() => ({ hits: search.hits })))
        .catch((error: unknown) => change(() => ({ hitsError: asApiError(error) })));

      void (async () => {
        try {
          for await (const event of streamAnswer(
            apiKey,
            { query: question, workspaceId },
            controller.signal,
          )) {
            if (event.type === 'stage' && event.status === 'started') change(() => ({ stage: event.stage }));
            else if (event.type === 'delta')
              change((current) => ({ text: current.text + (event.text ?? '') }));
            else if (event.type === 'citation' && event.citation) {
              const citation = event.citation;
              change((current) => ({ citations: [...current.citations, citation] }));
            } else if (event.type === 'final' && event.answer) {
              const answer = event.answer;
              change(() => ({
                final: answer,
                text: answer.answer,
                citations: answer.citations,
                stage: null,
              }));
            } else if (event.type === 'error' && event.error) {
              const { code, message } = event.error;
              change(() => ({ error: new ApiError(code, message), stage: null }));
            }
          }
        } catch (error) {
          change(() => ({ error: asApiError(error), stage: null }));
        }
      })();
    },
    [apiKey, workspaceId],
  );

  return { state, ask };
}
