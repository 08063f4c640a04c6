import { navigate } from '../layout/router.js';
import { useSession } from '../session/session.js';
import { AskForm } from './AskForm.js';
import { findThread, listThreads } from './history.js';
import { HistoryList } from './HistoryList.js';
import { TurnView } from './TurnView.js';
import { useAsk } from './use-ask.js';
import { WhyPanel } from './WhyPanel.js';

/**
 * Ask the workspace: each question opens a thread at its own URL (/ask?t=<id>), follow-ups continue
 * it, and Back or Forward shows a thread again from the history. The answer streams in with its
 * sources; the "why" panel shows how the latest question's passages were found.
 */
export function AskPage({ params }: { params: URLSearchParams }) {
  const { workspaceId } = useSession();
  const { state, ask } = useAsk();
  const threadId = params.get('t');
  const thread = threadId ? findThread(localStorage, workspaceId, threadId) : null;
  const threads = listThreads(localStorage, workspaceId);
  // The answer in flight belongs to one thread; another thread's page does not show it.
  const live = state && state.threadId === threadId ? state : null;
  const busy = live !== null && live.stage !== null;
  const kept = thread?.turns ?? [];
  // Once final, the live turn is in the history too: shown once.
  const turns = live?.final ? kept.slice(0, -1) : kept;

  const onAsk = (question: string) => {
    if (thread || (threadId && live)) {
      ask(question, threadId!, thread?.conversationId ?? null);
      return;
    }
    const id = crypto.randomUUID();
    navigate(`/ask?t=${id}`);
    ask(question, id, null);
  };

  return (
    <>
      <h1>Ask</h1>
      <div className="ask-layout">
        <HistoryList threads={threads} current={threadId} />
        <div className="ask-main">
          {threadId && !thread && !live && (
            <p role="status" className="notice">
              This conversation is not in this browser's history (it was asked elsewhere, or you signed out
              since). Ask a new question below.
            </p>
          )}
          {turns.map((turn, index) => (
            <TurnView
              key={index}
              number={index + 1}
              question={turn.question}
              text={turn.answer}
              citations={turn.citations}
              done={turn}
            />
          ))}
          {live && (
            <div className="answer-layout">
              <TurnView
                number={turns.length + 1}
                question={live.question}
                text={live.text}
                citations={live.citations}
                done={live.final ? (thread?.turns.at(-1) ?? null) : null}
                stage={live.stage}
                error={live.error}
              />
              <WhyPanel hits={live.hits} error={live.hitsError} />
            </div>
          )}
          <AskForm
            key={threadId ?? 'new'}
            onAsk={onAsk}
            busy={busy}
            label={thread || live ? 'Ask a follow-up' : 'Ask a question'}
          />
        </div>
      </div>
    </>
  );
}
