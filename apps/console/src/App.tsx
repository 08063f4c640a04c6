import { useEffect, useMemo, useRef, useState } from 'react';
import { AskPage } from './ask/AskPage.js';
import { clearHistory } from './ask/history.js';
import { CrawlPage } from './admin/CrawlPage.js';
import { EvalRunsPage } from './admin/EvalRunsPage.js';
import { GraphPage } from './graph/GraphPage.js';
import { JobsPage } from './admin/JobsPage.js';
import { DocumentsPage } from './documents/DocumentsPage.js';
import { Header } from './layout/Header.js';
import { useLocation } from './layout/router.js';
import { DEFAULT_WORKSPACE, SessionContext, WORKSPACE_ITEM, type Session } from './session/session.js';
import { joinSharedSession, storedApiKey, type SharedSession } from './session/shared-session.js';
import { SignIn } from './session/SignIn.js';

/** The console: sign in, then one page per path (the API serves index.html for each). */
export function App() {
  const [apiKey, setApiKey] = useState(storedApiKey);
  const [workspaceId, setWorkspace] = useState(
    () => sessionStorage.getItem(WORKSPACE_ITEM) ?? DEFAULT_WORKSPACE,
  );
  const location = useLocation();
  // Console tabs sign each other in and out, and give the key to an explorer tab that asks for it.
  const shared = useRef<SharedSession | null>(null);
  useEffect(() => {
    const joined = joinSharedSession(setApiKey);
    shared.current = joined;
    return () => joined.close();
  }, []);

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
              shared.current?.signOut();
              // The questions asked are the signed-in person's: the browser keeps none after them.
              clearHistory(localStorage);
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
          shared.current?.signIn(key);
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
          <AskPage params={location.params} />
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
