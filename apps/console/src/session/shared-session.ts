import { API_KEY_ITEM } from './session.js';

/**
 * The sign-in shared by this origin's tabs: console tabs and the GraphQL explorer (/explorer), whose
 * apps/api/src/explorer/browser/explorer.js speaks the same protocol in plain JS. Each tab keeps the key in
 * its own sessionStorage; a new tab asks the open ones for it over a BroadcastChannel of this name:
 *
 *   { type: 'key-request' }        sent by a tab without a key when it opens
 *   { type: 'key', apiKey }        sent by every signed-in console tab in answer, and by a console tab
 *                                  that signs in; a tab without a key keeps the first one it gets
 *   { type: 'signed-out' }         sent by a console tab that signs out; every tab forgets its key
 *
 * A tab that has a key ignores `key`, so a tab signed in with another key keeps it. BroadcastChannel
 * delivers only to documents of the same origin (and the same browser profile), so the key reaches no
 * other site; it never goes into a URL or localStorage.
 */
export const SESSION_CHANNEL = 'agentic-rag-session';

type SessionMessage = { type: 'key-request' } | { type: 'key'; apiKey: string } | { type: 'signed-out' };

export interface SharedSession {
  /** Keeps the key for this tab and offers it to the tabs that have none. */
  signIn(apiKey: string): void;
  /** Forgets the key in this tab and every other one. */
  signOut(): void;
  close(): void;
}

/** The key this tab signed in with, if any. */
export function storedApiKey(): string | null {
  return sessionStorage.getItem(API_KEY_ITEM);
}

/**
 * Joins the channel: answers requests while signed in, asks at once when not, and calls `onChange`
 * when another tab signs this one in or out.
 */
export function joinSharedSession(onChange: (apiKey: string | null) => void): SharedSession {
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  const post = (message: SessionMessage) => channel.postMessage(message);
  channel.onmessage = ({ data }: MessageEvent<Partial<Record<string, unknown>> | null>) => {
    const own = storedApiKey();
    if (data?.type === 'key-request' && own) {
      post({ type: 'key', apiKey: own });
    } else if (data?.type === 'key' && typeof data.apiKey === 'string' && data.apiKey && !own) {
      sessionStorage.setItem(API_KEY_ITEM, data.apiKey);
      onChange(data.apiKey);
    } else if (data?.type === 'signed-out' && own) {
      sessionStorage.removeItem(API_KEY_ITEM);
      onChange(null);
    }
  };
  if (!storedApiKey()) post({ type: 'key-request' });
  return {
    signIn(apiKey) {
      sessionStorage.setItem(API_KEY_ITEM, apiKey);
      post({ type: 'key', apiKey });
    },
    signOut() {
      sessionStorage.removeItem(API_KEY_ITEM);
      post({ type: 'signed-out' });
    },
    close: () => channel.close(),
  };
}
