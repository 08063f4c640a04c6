import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { ErrorCode, RagError } from '../errors/index.js';

/**
 * PGlite is one process's database: a second process (or a second open in this one) on the same
 * directory corrupts it. The lock file holds the owner's pid and a token. It is created whole by
 * hard-linking a finished temporary file, so no one ever reads a half-written lock; a lock whose
 * process is dead is taken over; release removes the file only while it is still ours.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const lock = await tryAcquireDataDirLock(dataDir);
  if (typeof lock === 'function') return lock;
  throw new RagError(
    ErrorCode.STORE_UNAVAILABLE,
    `the embedded database in ${dataDir} is in use by process ${lock.heldBy}; stop it first, or set DATABASE_URL to share a Postgres server between processes`,
    { details: { pid: lock.heldBy } },
  );
}

/** The lock, or the live process that holds it. */
export async function tryAcquireDataDirLock(
  dataDir: string,
): Promise<(() => Promise<void>) | { heldBy: number }> {
  const lockPath = `${dataDir}.lock`;
  const token = `${process.pid} ${randomUUID()}`;
  const staging = `${lockPath}.${randomUUID()}`;
  await writeFile(staging, token);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(staging, lockPath);
        return async () => {
          const current = await readFile(lockPath, 'utf8').catch(() => null);
          if (current === token) await unlink(lockPath).catch(() => {});
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readFile(lockPath, 'utf8').catch(() => '');
      const owner = Number(holder.split(' ')[0]);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) return { heldBy: owner };
      // Left behind by a process that died: remove it, but only if it is still that same lock.
      if ((await readFile(lockPath, 'utf8').catch(() => null)) === holder)
        await unlink(lockPath).catch(() => {});
    }
    throw new RagError(ErrorCode.STORE_UNAVAILABLE, `could not lock ${dataDir}`);
  } finally {
    await unlink(staging).catch(() => {});
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
