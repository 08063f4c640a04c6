import type { Job } from '../api/types.js';
import { ColumnHeads } from '../layout/ColumnHeads.js';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A workspace's latest jobs as a table: what each worked on, how it went, what it left. */
export function RecentJobs({ jobs, onOpen }: { jobs: Job[]; onOpen: (id: string) => void }) {
  if (jobs.length === 0) return <p>No jobs in this workspace yet: an upload or a crawl starts one.</p>;
  return (
    <div className="table-scroll">
      <table className="jobs" aria-label="Latest jobs, newest first">
        <ColumnHeads
          names={['Started', 'Job', 'Status', 'Finished', 'Corpus version']}
          optional={['Finished', 'Corpus version']}
        />
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id}>
              <td>{when(job.createdAt)}</td>
              <th scope="row">
                <button type="button" className="link" onClick={() => onOpen(job.id)}>
                  {job.subject ?? job.id}
                </button>{' '}
                <span className="muted">{job.kind}</span>
                {job.error && <div className="error">{job.error}</div>}
              </th>
              <td className={`status ${job.status}`}>
                {job.status}
                {job.status === 'active' && ` ${Math.round(job.progress * 100)}%`}
              </td>
              <td className="optional">{when(job.finishedAt)}</td>
              <td className="number optional">{job.corpusVersion ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
