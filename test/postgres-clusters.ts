import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chown, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sparePort } from './fault-harness.js';

/**
 * Private PostgreSQL 15 clusters for integration tests that need a server of their own (a streaming
 * replica, a real restart): initdb and pg_ctl run as the postgres user, on spare ports, under a
 * temporary directory, with trust auth and fsync off. The system cluster on 5432 is never touched.
 */

const BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

/** Whether this machine can make clusters: the PG 15 binaries are here and we are root. */
export const canMakeClusters =
  existsSync(`${BIN}/initdb`) && existsSync(`${BIN}/pg_basebackup`) && process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the postgres user (initdb and postgres refuse root). */
export const asPostgres = (binary: string, ...args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', `${BIN}/${binary}`, ...args], { timeout: 60_000 });

export interface Cluster {
  dir: string;
  port: number;
  url: string;
}

/** A temporary directory the postgres user owns, to hold clusters and their sockets. */
export async function clusterBase(prefix: string): Promise<string> {
  const base = await mkdtemp(path.join(tmpdir(), prefix));
  const { stdout } = await run('id', ['-u', 'postgres']);
  const uid = Number(stdout.trim());
  await chown(base, uid, uid);
  return base;
}

export const startCluster = (cluster: Cluster) =>
  asPostgres('pg_ctl', '-D', cluster.dir, '-l', `${cluster.dir}.log`, '-w', '-t', '60', 'start');

/** `fast` disconnects clients and writes a shutdown checkpoint; `immediate` is a crash. */
export const stopCluster = (cluster: Cluster, mode: 'fast' | 'immediate' = 'fast') =>
  asPostgres('pg_ctl', '-D', cluster.dir, '-m', mode, '-w', 'stop');

/** Stops the server (`fast`: clients are disconnected) and starts it again on the same port. */
export const restartCluster = (cluster: Cluster) =>
  asPostgres(
    'pg_ctl',
    '-D',
    cluster.dir,
    '-l',
    `${cluster.dir}.log`,
    '-m',
    'fast',
    '-w',
    '-t',
    '60',
    'restart',
  );

const settings = (base: string, port: number) =>
  [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${base}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'fsync = off',
    'max_connections = 60',
    '',
  ].join('\n');

const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;

/** A new cluster in `base`/`name`, started; ready to be a primary (wal_level replica). */
export async function makePrimary(base: string, name = 'primary'): Promise<Cluster> {
  const port = await sparePort();
  const cluster: Cluster = { dir: path.join(base, name), port, url: urlOf(port) };
  // trust covers the replication lines initdb writes for local and 127.0.0.1.
  await asPostgres('initdb', '-D', cluster.dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8');
  await appendFile(path.join(cluster.dir, 'postgresql.conf'), settings(base, port));
  await startCluster(cluster);
  return cluster;
}

/** A hot standby of `primary` cloned with pg_basebackup -R into `base`/`name`, started. */
export async function makeReplica(base: string, primary: Cluster, name = 'replica'): Promise<Cluster> {
  const port = await sparePort();
  const cluster: Cluster = { dir: path.join(base, name), port, url: urlOf(port) };
  await asPostgres(
    'pg_basebackup',
    ...['-R', '-D', cluster.dir, '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
    ...['-X', 'stream', '-c', 'fast', '--no-sync'],
  );
  await appendFile(path.join(cluster.dir, 'postgresql.conf'), settings(base, port));
  await startCluster(cluster);
  return cluster;
}
