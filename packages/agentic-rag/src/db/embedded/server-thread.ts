import { createServer, type Socket } from 'node:net';
import { unlink } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { dataDirIdentity } from './data-dir-check.js';
import { BackendGate, WireSession } from './wire-session.js';

/**
 * The embedded database's own thread: PGlite runs here, never on the thread that serves HTTP, and
 * answers the Postgres protocol on a local socket for every client, in this process or another.
 * Messages to the parent: {type:'ready'}, {type:'error', message}, {type:'closed'}.
 */
export interface ServerThreadData {
  dataDir: string;
  socketPath: string;
}

const { dataDir, socketPath } = workerData as ServerThreadData;
const port = parentPort!;

async function main(): Promise<void> {
  const db = await PGlite.create(dataDir, { extensions: { vector, pg_trgm } });
  const opened = await dataDirIdentity(dataDir);
  const gate = new BackendGate(db);
  const sessions = new Map<Socket, WireSession>();
  // A socket file left by a process that died holds the name; the lock proved no one serves it.
  await unlink(socketPath).catch(() => {});
  const server = createServer((socket) => {
    const session = new WireSession(socket, gate);
    sessions.set(socket, session);
    void session.ended.then(() => sessions.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  port.postMessage({ type: 'ready' });

  port.on('message', (message: { type: string }) => {
    if (message.type !== 'close') return;
    // Stop taking clients, drop the ones left (their open transactions roll back), then close
    // PGlite cleanly: its last checkpoint is what makes the next open quick and safe.
    server.close();
    const open = [...sessions];
    for (const [socket] of open) socket.destroy();
    void Promise.all(open.map(([, session]) => session.ended))
      .then(async () => {
        // A directory deleted and recreated under a running server is another database now:
        // closing would write this one's control file over it (the Aborted() of issue 15).
        const now = await dataDirIdentity(dataDir);
        if (now.inode !== opened.inode || now.system !== opened.system) {
          port.postMessage({
            type: 'error',
            message: `${dataDir} was replaced while open; left as it is, this server's unsaved state is dropped`,
          });
          return;
        }
        await db.close();
        port.postMessage({ type: 'closed' });
      })
      .catch((error: unknown) => port.postMessage({ type: 'error', message: String(error) }));
  });
}

main().catch((error: unknown) => {
  port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
});
