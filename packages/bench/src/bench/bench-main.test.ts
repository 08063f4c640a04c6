import { describe, expect, it } from 'vitest';
import { loadConfig } from '@agentic-rag/core';
import {
  formatTable,
  latency,
  measureConcurrently,
  parseBackends,
  requireBenchServer,
  target,
} from './bench-main.js';

describe('bench-main', () => {
  it('lays out a table as wide as its widest cells, numbers right-aligned', () => {
    const rows = [
      { mode: 'cold', clients: 1, p50: 12.5 },
      { mode: 'cached, key', clients: 16, p50: 0.25 },
    ];
    expect(
      formatTable(
        [
          { header: 'mode', value: (row: (typeof rows)[number]) => row.mode },
          { header: 'clients', value: (row) => row.clients },
          { header: 'p50 ms', value: (row) => row.p50.toFixed(2), align: 'right' },
        ],
        rows,
      ),
    ).toBe(
      ['mode         clients  p50 ms', 'cold               1   12.50', 'cached, key       16    0.25'].join(
        '\n',
      ),
    );
  });

  it.each([
    ['p95', 20, 20, false, 'p95<=20 met'],
    ['p95', 20.1, 20, false, 'p95<=20 MISSED'],
    ['p95', 100, 100, true, 'p95<100 MISSED'],
    ['p50', 99, 100, true, 'p50<100 met'],
  ])('target %s %d against %d (strict %s) is "%s"', (metric, value, limit, strict, expected) => {
    expect(target(metric, value, limit, strict)).toBe(expected);
  });

  it('summarises latencies', () => {
    expect(latency([4, 1, 3, 2])).toEqual({ p50: expect.any(Number), p95: 4, mean: 2.5 });
  });

  it('picks backends from the configuration and refuses what cannot run', () => {
    const withServer = loadConfig({ BENCH_DATABASE_URL: 'postgres://127.0.0.1:5432/x' });
    const without = loadConfig({});
    expect(parseBackends(undefined, withServer)).toEqual(['pglite', 'postgres']);
    expect(parseBackends(undefined, without)).toEqual(['pglite']);
    expect(() => parseBackends('mysql', without)).toThrow('unknown backend mysql (pglite or postgres)');
    expect(() => parseBackends('postgres', without)).toThrow(
      'postgres needs BENCH_DATABASE_URL or DATABASE_URL',
    );
    expect(() => requireBenchServer(without, 'bench:answer')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('runs every call once across the clients, at most `clients` at a time', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const { latencies } = await measureConcurrently({
      count: 10,
      clients: 3,
      run: async (index) => {
        most = Math.max(most, ++running);
        seen.push(index);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
      },
    });
    expect(latencies).toHaveLength(10);
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
  });
});
