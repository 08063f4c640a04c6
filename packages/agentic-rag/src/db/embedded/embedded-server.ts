import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServerThreadData } from './server-thread.js';
import { SOCKET_FILE, socketDirFor } from './socket.js';

/**
 * PGlite in a worker thread of this process, serving the Postgres protocol on a local socket:
 * a long write there no longer stops this thread's event loop (health checks, other requests),
 * and other processes on the same data directory reach it through the socket.
 */
export class EmbeddedServer {
  private constructor(
    private readonly worker: Worker,
    readonly socketDir: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedServer> {
    const socketDir = socketDirFor(dataDir);
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    const data: ServerThreadData = { dataDir, socketPath: path.join(socketDir, SOCKET_FILE) };
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...data, ...threadEntry() },
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'error') reject(new Error(message.message));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the embedded database thread exited (${code})`)));
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return new EmbeddedServer(worker, socketDir);
  }

  /**
   * Drops the clients (rolling back what they left open) and closes PGlite cleanly. Resolves with
   * the reason when it could not close cleanly (the directory was replaced under it).
   */
  async stop(): Promise<string | null> {
    const closed = new Promise<string | null>((resolve) => {
      this.worker.on('message', (message: { type: string; message?: string }) => {
        if (message.type === 'closed') resolve(null);
        else if (message.type === 'error') resolve(message.message ?? 'unknown error');
      });
      this.worker.once('exit', () => resolve('the database thread had already stopped'));
    });
    this.worker.postMessage({ type: 'close' });
    const problem = await closed;
    await this.worker.terminate();
    return problem;
  }
}

/**
 * The thread runs what its parent runs. Compiled (this file is dist/…/embedded-server.js), it loads
 * server-thread.js beside it with plain Node. From source, whatever started the parent
 * (`node --import tsx`, a test runner with its own transform), it registers tsx itself before
 * loading server-thread.ts.
 */
function threadEntry(): { loader: string | null; entry: string } {
  const compiled = import.meta.url.endsWith('.js');
  return {
    loader: compiled ? null : import.meta.resolve('tsx/esm/api'),
    entry: new URL(compiled ? './server-thread.js' : './server-thread.ts', import.meta.url).href,
  };
}

/** Only dynamic imports, so the code means the same whether Node reads it as a script or a module. */
const BOOTSTRAP = `
import('node:worker_threads')
  .then(({ workerData }) =>
    workerData.loader ? import(workerData.loader).then((tsx) => (tsx.register(), workerData)) : workerData,
  )
  .then((workerData) => import(workerData.entry));
`;
