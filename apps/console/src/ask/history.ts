import type { Citation } from '../api/types.js';

/** One question and what came back, as the history keeps it. */
export interface Turn {
  question: string;
  answer: string;
  citations: Citation[];
  refused: boolean;
  selfCheck: { passed: boolean; citationCoverage: number; warnings: string[] } | null;
  /** The follow-up made standalone by the API's rewrite, when it differs from the question. */
  standaloneQuery: string | null;
}

/** A conversation: the console's own id (its URL, /ask?t=<id>) and the API's, for follow-ups. */
export interface Thread {
  id: string;
  conversationId: string | null;
  turns: Turn[];
  updatedAt: string;
}

/** Threads kept per workspace, and turns per thread: the oldest go first. */
export const MAX_THREADS = 30;
export const MAX_TURNS = 20;

const PREFIX = 'agentic-rag.history.';
const itemOf = (workspaceId: string) => `${PREFIX}${workspaceId}`;

/**
 * The workspace's threads, newest first. Kept in the browser's localStorage, so a reload, Back and
 * a new tab find them; signing out clears them all (clearHistory). A damaged entry reads as none.
 */
export function listThreads(storage: Storage, workspaceId: string): Thread[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(itemOf(workspaceId)) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Thread[]).filter((thread) => Array.isArray(thread?.turns)) : [];
  } catch {
    return [];
  }
}

export function findThread(storage: Storage, workspaceId: string, id: string): Thread | null {
  return listThreads(storage, workspaceId).find((thread) => thread.id === id) ?? null;
}

/** Adds a turn to the thread (made if new) and moves it to the top of the list. */
export function appendTurn(
  storage: Storage,
  workspaceId: string,
  threadId: string,
  conversationId: string | null,
  turn: Turn,
  now = new Date(),
): Thread {
  const threads = listThreads(storage, workspaceId);
  const existing = threads.find((thread) => thread.id === threadId);
  const thread: Thread = {
    id: threadId,
    conversationId: conversationId ?? existing?.conversationId ?? null,
    turns: [...(existing?.turns ?? []), turn].slice(-MAX_TURNS),
    updatedAt: now.toISOString(),
  };
  const kept = [thread, ...threads.filter((other) => other.id !== threadId)].slice(0, MAX_THREADS);
  try {
    storage.setItem(itemOf(workspaceId), JSON.stringify(kept));
  } catch {
    // Storage full or refused (a private window): the answer is still on the page, just not kept.
  }
  return thread;
}

/** Forgets every workspace's history: what signing out does. */
export function clearHistory(storage: Storage): void {
  const items = Array.from({ length: storage.length }, (_, index) => storage.key(index));
  for (const item of items) if (item?.startsWith(PREFIX)) storage.removeItem(item);
}

/** An answer and its numbered sources as plain text, for the clipboard. */
export function answerWithSources(turn: Pick<Turn, 'answer' | 'citations'>): string {
  const sources = [...turn.citations]
    .sort((a, b) => a.index - b.index)
    .map((citation) => {
      const page = citation.pageNumber !== null ? `, page ${citation.pageNumber}` : '';
      const title = citation.title && citation.title !== citation.sourceId ? `${citation.title}, ` : '';
      return `[${citation.index}] ${title}${citation.sourceId}${page}${citation.url ? ` <${citation.url}>` : ''}`;
    });
  return sources.length > 0
    ? `${turn.answer.trim()}\n\nSources:\n${sources.join('\n')}\n`
    : `${turn.answer.trim()}\n`;
}
