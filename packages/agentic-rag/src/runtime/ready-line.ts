/** What the API's ready line reports; `adminKey` is the file's path, or why there is none to show. */
export interface ReadyFacts {
  url: string;
  adminKey: { file: string } | { none: 'auth-off' | 'not-on-disk' };
  corpus: { workspaceId: string; documents: number; chunks: number };
  logFile: string | null;
}

/** The browser's address for a listening socket: a wildcard host is reached as localhost. */
export function consoleUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}/`;
}

const count = (value: number, noun: string) =>
  `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;

/**
 * The one line `pnpm start` prints when it is ready: where to point a browser, where the admin key
 * is, what the corpus holds, and where the detailed log went.
 */
export function readyLine(facts: ReadyFacts): string {
  const key =
    'file' in facts.adminKey
      ? `admin key in ${facts.adminKey.file}`
      : facts.adminKey.none === 'auth-off'
        ? 'auth off (loopback only)'
        : 'admin key not on disk (pnpm rag:keys manages keys)';
  const { workspaceId, documents, chunks } = facts.corpus;
  const parts = [
    `agentic-rag ready: ${facts.url}`,
    key,
    `workspace ${workspaceId}: ${count(documents, 'document')}, ${count(chunks, 'chunk')}`,
  ];
  if (facts.logFile) parts.push(`log ${facts.logFile}`);
  return parts.join(' · ');
}
