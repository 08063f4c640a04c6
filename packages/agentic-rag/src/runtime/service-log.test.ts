import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/index.js';
import { consoleUrl, readyLine } from './ready-line.js';
import { logFilePath, serviceLog } from './service-log.js';

describe('serviceLog', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'rag-log-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });

  it('defaults the file to DATA_DIR/logs/agentic-rag.log, absolute', () => {
    expect(logFilePath(loadConfig({ DATA_DIR: 'data' }))).toBe(path.resolve('data/logs/agentic-rag.log'));
    expect(logFilePath(loadConfig({ LOG_FILE: '/var/log/rag.log' }))).toBe('/var/log/rag.log');
  });

  it('pretty: JSON lines go to the file, problems also to stderr, nothing to stdout but announce', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const log = serviceLog(loadConfig({ DATA_DIR: root }));
    log.logger.info('starting', { event: 'api-starting' });
    log.logger.warn('disk nearly full', { event: 'disk-low' });
    log.announce('ready line');
    log.close();
    const lines = (await readFile(path.join(root, 'logs', 'agentic-rag.log'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { level: 'info', msg: 'starting', event: 'api-starting' },
      { level: 'warn', msg: 'disk nearly full', event: 'disk-low' },
    ]);
    expect(log.file).toBe(path.join(root, 'logs', 'agentic-rag.log'));
    expect(stdout.mock.calls).toEqual([['ready line\n']]);
    expect(stderr.mock.calls).toEqual([['warn: disk nearly full\n']]);
  });

  it('json: JSON lines on stdout, no file, announce says nothing', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const log = serviceLog(loadConfig({ DATA_DIR: root, LOG_FORMAT: 'json' }));
    log.logger.info('ready', { event: 'api-ready' });
    log.announce('ready line');
    expect(log.file).toBeNull();
    expect(stdout.mock.calls).toHaveLength(1);
    expect(JSON.parse(String(stdout.mock.calls[0]![0]))).toMatchObject({ msg: 'ready', event: 'api-ready' });
  });

  it('names LOG_FILE when the file cannot be written', async () => {
    await writeFile(path.join(root, 'blocker'), '');
    const config = loadConfig({ LOG_FILE: path.join(root, 'blocker', 'rag.log') });
    expect(() => serviceLog(config)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining('(set LOG_FILE') }),
    );
  });
});

describe('readyLine', () => {
  it.each([
    [
      { file: '/srv/rag/.data/admin.key' } as const,
      'agentic-rag ready: http://127.0.0.1:4000/ · admin key in /srv/rag/.data/admin.key · workspace demo: 1 document, 12,345 chunks · log /srv/rag/.data/logs/agentic-rag.log',
    ],
    [
      { none: 'auth-off' } as const,
      'agentic-rag ready: http://127.0.0.1:4000/ · auth off (loopback only) · workspace demo: 1 document, 12,345 chunks · log /srv/rag/.data/logs/agentic-rag.log',
    ],
  ])('reports the URL, the admin key (%o), the counts and the log', (adminKey, expected) => {
    expect(
      readyLine({
        url: consoleUrl('127.0.0.1', 4000),
        adminKey,
        corpus: { workspaceId: 'demo', documents: 1, chunks: 12_345 },
        logFile: '/srv/rag/.data/logs/agentic-rag.log',
      }),
    ).toBe(expected);
  });

  it.each([
    ['0.0.0.0', 'http://localhost:80/'],
    ['::1', 'http://[::1]:80/'],
    ['rag.internal', 'http://rag.internal:80/'],
  ])('a browser reaches HOST=%s at %s', (host, url) => {
    expect(consoleUrl(host, 80)).toBe(url);
  });
});
