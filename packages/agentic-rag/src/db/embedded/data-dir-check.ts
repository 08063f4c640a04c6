import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '../../errors/index.js';

/**
 * Checks made without PGlite, because PGlite answers a directory it cannot open with a bare
 * `Aborted()`. Offsets are those of PostgreSQL 18's pg_control and WAL page headers, the version
 * PGlite 0.5 is built on.
 */
const WAL_SEGMENT_BYTES = 16n * 1024n * 1024n;

async function head(file: string, bytes: number): Promise<Buffer | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The database system identifier (set once, at creation) of a data directory, or null if new. */
export async function systemIdentifier(dataDir: string): Promise<string | null> {
  const control = await head(path.join(dataDir, 'global', 'pg_control'), 8);
  return control && control.length === 8 ? control.readBigUInt64LE(0).toString() : null;
}

/** What identifies the directory a server opened: if either changes, it is another directory now. */
export async function dataDirIdentity(dataDir: string): Promise<{ inode: number; system: string | null }> {
  const info = await stat(dataDir).catch(() => null);
  return { inode: info?.ino ?? -1, system: await systemIdentifier(dataDir) };
}

/**
 * Refuses, with one line that says how to recover, a directory whose files belong to two
 * databases (a directory deleted and recreated while a process still had it open: that process
 * later wrote its own control file over the new database's) or whose checkpoint's WAL is gone.
 */
export async function assertDataDirOpens(dataDir: string): Promise<void> {
  const control = await head(path.join(dataDir, 'global', 'pg_control'), 40);
  if (!control) return; // a new directory: PGlite creates it
  const damaged = (why: string) =>
    new RagError(
      ErrorCode.DATA_DIR_DAMAGED,
      `the embedded database in ${dataDir} cannot be opened: ${why}. Move the directory away and start again (the sample corpus is re-ingested; ingest your own documents again), or restore it from a copy; docs/operations.md#embedded-data-directory explains what happened and how to recover the newer database by hand`,
      { details: { dataDir } },
    );
  if (control.length < 40) throw damaged('its control file is truncated');
  const system = control.readBigUInt64LE(0);
  const checkpoint = control.readBigUInt64LE(32);
  const walDir = path.join(dataDir, 'pg_wal');
  const segments = (await readdir(walDir).catch(() => [] as string[])).filter((name) =>
    /^[0-9A-F]{24}$/.test(name),
  );
  for (const segment of segments) {
    const header = await head(path.join(walDir, segment), 32);
    if (!header || header.length < 32) continue;
    const walSystem = header.readBigUInt64LE(24);
    // A segment whose first page was never written (allocated, zero-filled, then a kill before
    // its first record) names no system: recovery reads it as the end of the log.
    if (walSystem === 0n) continue;
    if (walSystem !== system) {
      throw damaged(
        `its control file belongs to database system ${system} but its log (pg_wal/${segment}) to ${walSystem}: the directory was deleted or replaced while a process still had it open, and that process wrote into the new one when it stopped`,
      );
    }
  }
  const segmentNumber = checkpoint / WAL_SEGMENT_BYTES;
  // A segment's name is its timeline then the segment number in two 8-digit halves.
  const hex = (value: bigint) => value.toString(16).toUpperCase().padStart(8, '0');
  const expected = `${hex(segmentNumber / 256n)}${hex(segmentNumber % 256n)}`;
  if (segments.length > 0 && !segments.some((name) => name.endsWith(expected))) {
    throw damaged(`the log segment …${expected} that holds its last checkpoint is missing`);
  }
}
