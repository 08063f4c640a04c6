import { useMemo, useState } from 'react';
import { AskPage } from './ask/AskPage.js';
import { CrawlPage } from './admin/CrawlPage.js';
import { EvalRunsPage } from './admin/EvalRunsPage.js';
import { GraphPage } from './admin/GraphPage.js';
import { JobsPage } from './admin/JobsPage.js';
import { DocumentsPage } from './documents/DocumentsPage.js';
import { Header } from './layout/Header.js';
import { useLocation } from './layout/router.js';
import {
  API_KEY_ITEM,
  DEFAULT_WORKSPACE,
  SessionContext,
  WORKSPACE_ITEM,
  type Session,
} from './session/session.js';
import { SignIn } from './session/SignIn.js';

/** The console: sign in, then one page per path (the API serves index.html for each). */
export function App() {
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(API_KEY_ITEM));
  const [workspaceId, setWorkspace] = useState(
    () => sessionStorage.getItem(WORKSPACE_ITEM) ?? DEFAULT_WORKSPACE,
  );
  const location = useLocation();

  const session = useMemo<Session | null>(
    () =>
      apiKey
        ? {
            apiKey,
            workspaceId,
            setWorkspaceId: (next) => {
              sessionStorage.setItem(WORKSPACE_ITEM, next);
              setWorkspace(next);
            },
            signOut: () => {
              sessionStorage.removeItem(API_KEY_ITEM);
              setApiKey(null);
            },
          }
        : null,
    [apiKey, workspaceId],
  );

  if (!session) {
    return (
      <SignIn
        onSignedIn={(key) => {
          sessionStorage.setItem(API_KEY_ITEM, key);
          setApiKey(key);
        }}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Header path={location.path} />
      {/* Keyed by workspace: a switch starts every page afresh, with nothing of the last one shown. */}
      <main id="main" key={workspaceId}>
        {location.path === '/ask' ? (
          <AskPage />
        ) : location.path === '/crawl' ? (
          <CrawlPage />
        ) : location.path === '/graph' ? (
          <GraphPage params={location.params} />
        ) : location.path === '/jobs' ? (
          <JobsPage />
        ) : location.path === '/eval' ? (
          <EvalRunsPage />
        ) : (
          <DocumentsPage params={location.params} />
        )}
      </main>
    </SessionContext.Provider>
  );
}
