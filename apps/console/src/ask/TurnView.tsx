import { useState } from 'react';
import type { ApiError } from '../api/graphql.js';
import type { Citation } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { AnswerText } from './AnswerText.js';
import { CitationList } from './CitationList.js';
import { answerWithSources, type Turn } from './history.js';

interface Props {
  /** Numbered from 1 in the thread: names the turn's region and its headings. */
  number: number;
  question: string;
  text: string;
  citations: Citation[];
  /** The finished turn; null while the answer still streams. */
  done: Turn | null;
  stage?: string | null;
  error?: ApiError | null;
}

/** One question and its answer: rendered text, the self-check, the sources, and a copy button. */
export function TurnView({ number, question, text, citations, done, stage = null, error = null }: Props) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(answerWithSources({ answer: text, citations }));
      setCopied('Copied the answer and its sources.');
    } catch {
      setCopied('The browser refused the clipboard: select the text to copy it.');
    }
  };
  const headingId = `turn-${number}`;
  return (
    <section className="turn" aria-labelledby={headingId} aria-busy={stage !== null}>
      <h2 id={headingId} className="question">
        {question}
      </h2>
      {done?.standaloneQuery && <p className="muted">Answered as: “{done.standaloneQuery}”</p>}
      {stage !== null && (
        <p role="status" className="muted">
          {stage}…
        </p>
      )}
      <ErrorMessage error={error} />
      <AnswerText text={text} citations={citations} />
      {done?.selfCheck && (
        <p className="muted" role="status">
          {done.refused ? 'Nothing in the workspace covers this question. ' : ''}
          Self-check {done.selfCheck.passed ? 'passed' : 'failed'} (citation coverage{' '}
          {Math.round(done.selfCheck.citationCoverage * 100)}%)
          {done.selfCheck.warnings.map((warning) => ` · ${warning}`).join('')}
        </p>
      )}
      <CitationList citations={citations} />
      {done && (
        <div className="row">
          <button type="button" className="quiet" onClick={() => void copy()}>
            Copy answer with sources
          </button>
          {copied && (
            <span role="status" className="muted">
              {copied}
            </span>
          )}
        </div>
      )}
    </section>
  );
}
