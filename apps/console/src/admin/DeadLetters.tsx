import { useCallback, useEffect, useState } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import type { DeadLettersQuery } from '../api/generated/graphql.js';
import { DEAD_LETTERS, RETRY_DEAD_LETTERS } from '../api/operations.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';

type DeadLetter = DeadLettersQuery['deadLetters'][number];

/** Jobs that used up their attempts, put back on the queue one by one or all at once (admin keys). */
export function DeadLetters() {
  const { apiKey } = useSession();
  const [letters, setLetters] = useState<DeadLetter[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const load = useCallback(async () => {
    try {
      setLetters((await graphql<{ deadLetters: DeadLetter[] }>(apiKey, DEAD_LETTERS)).deadLetters);
      setError(null);
    } catch (caught) {
      setError(asApiError(caught));
    }
  }, [apiKey]);
  useEffect(() => void load(), [load]);

  const retry = async (ids: string[] | null) => {
    try {
      await graphql(apiKey, RETRY_DEAD_LETTERS, { ids });
      await load();
    } catch (caught) {
      setError(asApiError(caught));
    }
  };

  return (
    <section aria-labelledby="dead-heading">
      <div className="row">
        <h2 id="dead-heading">Dead letters</h2>
        {letters && letters.length > 0 && (
          <button type="button" onClick={() => void retry(null)}>
            Retry all
          </button>
        )}
      </div>
      {error?.code === 'FORBIDDEN' ? (
        <p className="muted">Only an admin key sees dead letters.</p>
      ) : (
        <ErrorMessage error={error} />
      )}
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
  );
}
