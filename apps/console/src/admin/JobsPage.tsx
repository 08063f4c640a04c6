import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { DEAD_LETTERS, JOB, RETRY_DEAD_LETTERS } from '../api/operations.js';
import type { Job } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';

interface DeadLetter {
  id: string;
  kind: string;
  document: string;
  workspaceId: string;
  error: string;
  attempts: number;
  failedAt: string;
}

/** Look up a job; list dead letters and put them back on the queue (admin keys; needs the queue). */
export function JobsPage() {
  const { apiKey } = useSession();
  const [jobId, setJobId] = useState('');
  const [job, setJob] = useState<Job | null | undefined>(undefined);
  const [jobError, setJobError] = useState<ApiError | null>(null);
  const [letters, setLetters] = useState<DeadLetter[] | null>(null);
  const [lettersError, setLettersError] = useState<ApiError | null>(null);

  const loadLetters = useCallback(async () => {
    try {
      setLetters((await graphql<{ deadLetters: DeadLetter[] }>(apiKey, DEAD_LETTERS)).deadLetters);
      setLettersError(null);
    } catch (caught) {
      setLettersError(asApiError(caught));
    }
  }, [apiKey]);
  useEffect(() => void loadLetters(), [loadLetters]);

  const lookUp = async (event: FormEvent) => {
    event.preventDefault();
    setJobError(null);
    try {
      setJob((await graphql<{ job: Job | null }>(apiKey, JOB, { id: jobId.trim() })).job);
    } catch (caught) {
      setJobError(asApiError(caught));
    }
  };
  const retry = async (ids: string[] | null) => {
    try {
      await graphql(apiKey, RETRY_DEAD_LETTERS, { ids });
      await loadLetters();
    } catch (caught) {
      setLettersError(asApiError(caught));
    }
  };

  return (
    <>
      <h1>Jobs</h1>
      <form className="row" onSubmit={(event) => void lookUp(event)}>
        <label htmlFor="job-id">Job id</label>
        <input id="job-id" required value={jobId} onChange={(event) => setJobId(event.target.value)} />
        <button type="submit">Look up</button>
      </form>
      <ErrorMessage error={jobError} />
      {job === null && <p role="status">No such job.</p>}
      {job && (
        <dl className="job" role="status">
          {Object.entries(job).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value === null ? '—' : String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <section aria-labelledby="dead-heading">
        <div className="row">
          <h2 id="dead-heading">Dead letters</h2>
          {letters && letters.length > 0 && (
            <button type="button" onClick={() => void retry(null)}>
              Retry all
            </button>
          )}
        </div>
        <ErrorMessage error={lettersError} />
        {letters?.length === 0 && <p>No dead letters.</p>}
        <ul className="dead-letters">
          {letters?.map((letter) => (
            <li key={letter.id}>
              <strong>{letter.document}</strong>{' '}
              <span className="muted">
                ({letter.kind}, {letter.workspaceId}, {letter.attempts} attempts,{' '}
                {new Date(letter.failedAt).toLocaleString()})
              </span>
              <div className="error">{letter.error}</div>
              <button
                type="button"
                className="quiet"
                aria-label={`Retry ${letter.document}`}
                onClick={() => void retry([letter.id])}
              >
                Retry
              </button>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
