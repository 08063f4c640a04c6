import { ErrorMessage } from '../layout/ErrorMessage.js';
import { AnswerText } from './AnswerText.js';
import { AskForm } from './AskForm.js';
import { CitationList } from './CitationList.js';
import { useAsk } from './use-ask.js';
import { WhyPanel } from './WhyPanel.js';

/** Ask the workspace a question: the answer streams in with its sources, and why they were found. */
export function AskPage() {
  const { state, ask } = useAsk();
  const busy = state !== null && state.stage !== null;
  return (
    <>
      <h1>Ask</h1>
      <AskForm onAsk={ask} busy={busy} />
      {state && (
        <div className="answer-layout">
          <section className="answer" aria-labelledby="answer-heading" aria-busy={busy}>
            <h2 id="answer-heading">Answer</h2>
            {busy && (
              <p role="status" className="muted">
                {state.stage}…
              </p>
            )}
            <ErrorMessage error={state.error} />
            <AnswerText text={state.text} citations={state.citations} />
            {state.final && (
              <p className="muted" role="status">
                {state.final.refused ? 'Nothing in the workspace covers this question. ' : ''}
                Self-check {state.final.selfCheck.passed ? 'passed' : 'failed'} (citation coverage{' '}
                {Math.round(state.final.selfCheck.citationCoverage * 100)}%)
                {state.final.selfCheck.warnings.map((warning) => ` · ${warning}`).join('')}
              </p>
            )}
            <CitationList citations={state.citations} />
          </section>
          <WhyPanel hits={state.hits} error={state.hitsError} />
        </div>
      )}
    </>
  );
}
