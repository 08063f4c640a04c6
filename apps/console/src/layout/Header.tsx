import { Link } from './Link.js';
import { WorkspacePicker } from '../session/WorkspacePicker.js';
import { useSession } from '../session/session.js';

const PAGES = [
  { path: '/', label: 'Documents' },
  { path: '/ask', label: 'Ask' },
  { path: '/crawl', label: 'Crawl' },
  { path: '/graph', label: 'Graph' },
  { path: '/jobs', label: 'Jobs' },
  { path: '/eval', label: 'Eval runs' },
] as const;

export function Header({ path }: { path: string }) {
  const { signOut } = useSession();
  const here = path === '/documents' ? '/' : path;
  return (
    <header className="header">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <span className="brand">agentic-rag</span>
      <nav aria-label="Console">
        <ul>
          {PAGES.map((page) => (
            <li key={page.path}>
              <Link href={page.path} aria-current={here === page.path ? 'page' : undefined}>
                {page.label}
              </Link>
            </li>
          ))}
          <li>
            <a href="/explorer">GraphQL explorer</a>
          </li>
        </ul>
      </nav>
      <WorkspacePicker />
      <button type="button" className="quiet" onClick={signOut}>
        Sign out
      </button>
    </header>
  );
}
