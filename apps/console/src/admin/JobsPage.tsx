import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { JOB, JOBS } from '../api/operations.js';
import type { Job } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';
import { DeadLetters } from './DeadLetters.js';
import { RecentJobs } from './RecentJobs.js';

/**
 * The workspace's latest jobs (queued, or run inline where there is no queue), one job in full by
 * its id, and, where there is a queue, the dead letters.
 */
export function JobsPage() {
  const { apiKey, workspaceId } = useSession();
  const [jobId, setJobId] = useState('');
  const [job, setJob] = useState<Job | null | undefined>(undefined);
  const [jobError, setJobError] = useState<ApiError | null>(null);
  const [recent, setRecent] = useState<{ queue: boolean; jobs: Job[] } | null>(null);
  const [recentError, setRecentError] = useState<ApiError | null>(null);

  const loadRecent = useCallback(async () => {
    try {
      const data = await graphql<{ jobs: { queue: boolean; jobs: Job[] } }>(apiKey, JOBS, {
        workspaceId,
        first: 50,
      });
      setRecent(data.jobs);
      setRecentError(null);
    } catch (caught) {
      setRecentError(asApiError(caught));
    }
  }, [apiKey, workspaceId]);
  useEffect(() => void loadRecent(), [loadRecent]);

  const lookUp = async (id: string) => {
    setJobId(id);
    setJobError(null);
    try {
      setJob((await graphql<{ job: Job | null }>(apiKey, JOB, { id })).job);
    } catch (caught) {
      setJobError(asApiError(caught));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void lookUp(jobId.trim());
  };

  return (
    <>
      <h1>Jobs</h1>
      <section aria-labelledby="recent-heading">
        <div className="row">
          <h2 id="recent-heading">Latest jobs in {workspaceId}</h2>
          <button type="button" className="quiet" onClick={() => void loadRecent()}>
            Refresh
          </button>
        </div>
        {recent && !recent.queue && (
          <p className="muted">
            This deployment has no queue (no REDIS_URL): each ingest runs inline, within its request, and is
            listed here once it has finished.
          </p>
        )}
        <ErrorMessage error={recentError} />
        {recent && <RecentJobs jobs={recent.jobs} onOpen={(id) => void lookUp(id)} />}
      </section>
      <section aria-labelledby="job-heading">
        <h2 id="job-heading">One job</h2>
        <form className="row" onSubmit={submit}>
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
      </section>
      {recent?.queue && <DeadLetters />}
    </>
  );
}
