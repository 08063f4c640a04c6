import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import type { Sql } from '../sql.js';
import { openEmbedded } from './open-embedded.js';

const run = promisify(execFile);
const TSX_LOADER = import.meta.resolve('tsx');
const OPEN_EMBEDDED = fileURLToPath(new URL('./open-embedded.ts', import.meta.url));

/** Another process on the same data directory: it runs `statements` and prints the last rows. */
async function otherProcess(dataDir: string, statements: string[]): Promise<unknown> {
  const script = `
    import { openEmbedded } from ${JSON.stringify(OPEN_EMBEDDED)};
    const sql = await openEmbedded(${JSON.stringify(dataDir)});
    let rows = [];
    for (const statement of ${JSON.stringify(statements)}) rows = (await sql.query(statement)).rows;
    await sql.close();
    process.stdout.write(JSON.stringify(rows));
  `;
  const { stdout } = await run(
    process.execPath,
    ['--import', TSX_LOADER, '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

/** The longest the event loop went without a turn while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

describe('the embedded database server', () => {
  let root: string;
  let dataDir: string;
  let sql: Sql;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-embedded-'));
    dataDir = path.join(root, 'pglite');
    sql = await openEmbedded(dataDir);
    await sql.query('CREATE TABLE notes (who text NOT NULL, n integer NOT NULL)');
  }, 60_000);

  afterAll(async () => {
    await sql?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves a second process on the same directory while this one holds it', async () => {
    await sql.query(`INSERT INTO notes VALUES ('owner', 1)`);
    const rows = await otherProcess(dataDir, [
      `INSERT INTO notes VALUES ('guest', 2)`,
      'SELECT who, n FROM notes ORDER BY n',
    ]);
    expect(rows).toEqual([
      { who: 'owner', n: 1 },
      { who: 'guest', n: 2 },
    ]);
    const here = await sql.query('SELECT who FROM notes ORDER BY n');
    expect(here.rows.map((row) => row.who)).toEqual(['owner', 'guest']);
  }, 60_000);

  it('never lets one client see or join another client’s open transaction', async () => {
    let inside!: () => void;
    const began = new Promise<void>((resolve) => (inside = resolve));
    const rolledBack = sql
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO notes VALUES ('uncommitted', 99)`);
        inside();
        await new Promise((resolve) => setTimeout(resolve, 300));
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await began;
    // One backend: without the gate this statement would run inside the open transaction.
    const seen = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notes WHERE who = 'uncommitted'`,
    );
    expect(seen.rows[0]!.n).toBe(0);
    expect(await rolledBack).toMatch(/roll back/);
  });

  it('runs many interleaved parameterised statements and transactions without mixing them', async () => {
    const work = Array.from({ length: 60 }, (_, index) =>
      index % 2 === 0
        ? sql.query<{ v: string }>('SELECT $1::text AS v', [`q${index}`]).then((result) => result.rows[0]!.v)
        : sql.transaction(async (tx) => {
            await tx.query('INSERT INTO notes VALUES ($1, $2)', [`t${index}`, 1000 + index]);
            const result = await tx.query<{ who: string }>('SELECT who FROM notes WHERE n = $1', [
              1000 + index,
            ]);
            return result.rows[0]!.who;
          }),
    );
    const answers = await Promise.all(work);
    expect(answers).toEqual(
      Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? `q${index}` : `t${index}`)),
    );
  });

  it('keeps this thread’s event loop turning while a long statement runs', async () => {
    const started = performance.now();
    const stall = await longestStall(() =>
      sql.query('SELECT count(*) FROM generate_series(1, 3000000) AS g WHERE g % 7 = 0'),
    );
    const took = performance.now() - started;
    // The statement itself runs for hundreds of milliseconds; on the caller's thread (PGlite
    // in-process) the loop would have stalled for all of it.
    expect(took).toBeGreaterThan(150);
    expect(stall).toBeLessThan(Math.min(100, took / 2));
  });

  it('rolls back what a client that vanished mid-transaction left open', async () => {
    const rows = await otherProcess(dataDir, [
      'BEGIN',
      `INSERT INTO notes VALUES ('abandoned', 7)`,
      // The process ends here without COMMIT: its socket closes with the transaction open.
      `SELECT count(*)::int AS n FROM notes WHERE who = 'abandoned'`,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
    const after = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notes WHERE who = 'abandoned'`,
    );
    expect(after.rows[0]!.n).toBe(0);
  }, 60_000);
});

describe('the embedded database when its owner goes away', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-embedded-owner-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('takes the directory over in a client whose owner was killed, and serves the next process', async () => {
    const dataDir = path.join(root, 'pglite');
    // The owner is another process that stays up until it is killed.
    const owner = spawn(
      process.execPath,
      [
        '--import',
        TSX_LOADER,
        '--input-type=module',
        '-e',
        `import { openEmbedded } from ${JSON.stringify(OPEN_EMBEDDED)};
         const sql = await openEmbedded(${JSON.stringify(dataDir)});
         await sql.query('CREATE TABLE kept (n integer)');
         await sql.query('INSERT INTO kept VALUES (1)');
         process.stdout.write('ready');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      owner.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      owner.once('exit', (code) => reject(new Error(`the owner exited with ${code}`)));
    });
    const client = await openEmbedded(dataDir);
    try {
      expect((await client.query('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
      const gone = new Promise((resolve) => owner.once('exit', resolve));
      owner.kill('SIGKILL');
      await gone;
      // The next call finds no server, takes the lock of the dead owner and serves itself. Whether
      // the pool still held the dead owner's idle connection is a race with the kernel: if it did,
      // that call may have reached the owner, so it fails retryable (never runs twice), and the
      // retry is served by the takeover.
      await client.query('INSERT INTO kept VALUES (2)').catch(async (error: { code?: string }) => {
        expect(error.code).toBe(ErrorCode.STORE_UNAVAILABLE);
        await client.query('INSERT INTO kept VALUES (2)');
      });
      expect((await client.query('SELECT n FROM kept ORDER BY n')).rows).toEqual([{ n: 1 }, { n: 2 }]);
      // A newcomer is now this process's client.
      expect(await otherProcess(dataDir, ['SELECT count(*)::int AS n FROM kept'])).toEqual([{ n: 2 }]);
    } finally {
      await client.close();
      if (owner.exitCode === null && owner.signalCode === null) owner.kill('SIGKILL');
    }
  }, 90_000);
});

describe('an embedded data directory that cannot be opened', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-embedded-damaged-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is refused with DATA_DIR_DAMAGED and a way out, never Aborted()', async () => {
    // Two databases, then one's control file over the other's: what a process whose directory
    // was replaced under it left behind when it stopped (the repro of issue 15).
    const first = path.join(root, 'first');
    const second = path.join(root, 'second');
    for (const dir of [first, second]) await (await openEmbedded(dir)).close();
    await copyFile(path.join(first, 'global', 'pg_control'), path.join(second, 'global', 'pg_control'));
    const error = await openEmbedded(second).then(
      () => null,
      (failure: unknown) => failure as { code: string; message: string },
    );
    expect(error?.code).toBe(ErrorCode.DATA_DIR_DAMAGED);
    expect(error?.message).toMatch(
      /cannot be opened: its control file belongs to database system \d+ but its log/,
    );
    expect(error?.message).toMatch(/Move the directory away/);
    expect(error?.message).not.toMatch(/Aborted/);
    expect(error?.message.split('\n')).toHaveLength(1);
  }, 60_000);

  it('opens a directory whose newest log segment was allocated but never written', async () => {
    // A kill between creating the next WAL segment (zero-filled) and writing its first page.
    const dataDir = path.join(root, 'allocated');
    const first = await openEmbedded(dataDir);
    await first.query('CREATE TABLE kept (n integer)');
    await first.query('INSERT INTO kept VALUES (1)');
    await first.close();
    const walDir = path.join(dataDir, 'pg_wal');
    const newest = (await readdir(walDir))
      .filter((name) => /^[0-9A-F]{24}$/.test(name))
      .sort()
      .at(-1)!;
    const next = (BigInt(`0x${newest.slice(16)}`) + 1n).toString(16).toUpperCase().padStart(8, '0');
    await writeFile(path.join(walDir, `${newest.slice(0, 16)}${next}`), Buffer.alloc(16 * 1024 * 1024));
    const reopened = await openEmbedded(dataDir);
    expect((await reopened.query<{ n: number }>('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
    await reopened.close();
  }, 90_000);

  it('does not write into a directory that replaced the one it opened', async () => {
    const dataDir = path.join(root, 'replaced');
    const owner = await openEmbedded(dataDir);
    await owner.query('CREATE TABLE kept (n integer)');
    // The directory is deleted and a new database made in its place while the owner still runs.
    await rm(dataDir, { recursive: true, force: true });
    await rm(`${dataDir}.lock`, { force: true });
    const replacement = await otherProcess(dataDir, ['CREATE TABLE fresh (n integer)', 'SELECT 1 AS ok']);
    expect(replacement).toEqual([{ ok: 1 }]);
    await owner.close();
    // The owner's shutdown left the new database alone: it opens, with its own table.
    const reopened = await openEmbedded(dataDir);
    const tables = await reopened.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE tablename IN ('kept', 'fresh') ORDER BY 1`,
    );
    expect(tables.rows.map((row) => row.name)).toEqual(['fresh']);
    await reopened.close();
  }, 90_000);
});
