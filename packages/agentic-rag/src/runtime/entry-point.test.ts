import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TSX_LOADER = import.meta.resolve('tsx');
const ENTRY_POINT = fileURLToPath(new URL('./entry-point.ts', import.meta.url));

/** Runs `main` under runCli in a fresh process; resolves with its exit code, stderr and run time. */
function command(main: string): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX_LOADER,
      '--input-type=module',
      '-e',
      `import { runCli } from ${JSON.stringify(ENTRY_POINT)};
       runCli(${main});`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr, ms: performance.now() - started })),
  );
}

describe('runCli', () => {
  it('ends a finished command that left a handle open, with its exit code', async () => {
    const run = await command(`async () => { setInterval(() => {}, 1000); return 3; }`);
    expect(run.code).toBe(3);
    expect(run.ms).toBeLessThan(20_000);
  }, 30_000);

  it('ends a failed command that left a handle open, with the error on one line', async () => {
    const run = await command(
      `async () => { setInterval(() => {}, 1000); throw Object.assign(new Error('boom'), {}); }`,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error [INTERNAL]: boom\n');
  }, 30_000);

  it('does not wait out the grace period when nothing is left open', async () => {
    const idle = await command(`async () => 0`);
    const held = await command(`async () => { setInterval(() => {}, 1000); return 0; }`);
    expect(idle.code).toBe(0);
    // The held command waits the grace period (3 s); the idle one ends as soon as main does.
    expect(held.ms - idle.ms).toBeGreaterThan(2_000);
  }, 30_000);
});
