import { createContext, useContext } from 'react';

/**
 * This tab's key. The explorer (/explorer) keeps its own under the same name; shared-session.ts passes
 * the key from tab to tab.
 */
export const API_KEY_ITEM = 'agentic-rag.apiKey';
export const WORKSPACE_ITEM = 'agentic-rag.workspace';
/** The API's own default (AGENTIC_RAG_WORKSPACE's default). */
export const DEFAULT_WORKSPACE = 'demo';

export interface Session {
  apiKey: string;
  workspaceId: string;
  setWorkspaceId: (workspaceId: string) => void;
  signOut: () => void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; components under <SignedIn> only. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}
