import { Link } from '../layout/Link.js';
import type { Thread } from './history.js';

/** The workspace's earlier questions, newest first: each opens its thread at its own URL. */
export function HistoryList({ threads, current }: { threads: Thread[]; current: string | null }) {
  return (
    <nav className="history" aria-label="History">
      <h2>History</h2>
      <Link href="/ask">New question</Link>
      {threads.length === 0 ? (
        <p className="muted">Questions asked here are kept in this browser until you sign out.</p>
      ) : (
        <ol>
          {threads.map((thread) => (
            <li key={thread.id}>
              <Link
                href={`/ask?t=${encodeURIComponent(thread.id)}`}
                aria-current={thread.id === current ? 'page' : undefined}
              >
                {thread.turns[0]?.question ?? thread.id}
              </Link>
              {thread.turns.length > 1 && <span className="muted"> · {thread.turns.length} questions</span>}
            </li>
          ))}
        </ol>
      )}
    </nav>
  );
}
