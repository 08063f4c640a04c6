import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../errors/index.js';
import { GroupCommit } from './group-commit.js';
import { input, recorder } from './write-recorder.test-support.js';

const LIMITS = { documents: 16, chunks: 1000, parallel: 1 };

describe('GroupCommit', () => {
  it('writes documents prepared side by side in one batch, once the last of them is ready', async () => {
    const { write, batches } = recorder();
    const commits = new GroupCommit(write, LIMITS, 10_000);
    const tickets = ['a', 'b', 'c'].map(() => commits.begin('w'));
    const first = tickets[0]!.write(input('a'));
    const second = tickets[1]!.write(input('b'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([]);
    const third = tickets[2]!.write(input('c'));
    expect((await Promise.all([first, second, third])).map((result) => result.status)).toEqual([
      'added',
      'added',
      'added',
    ]);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('writes at once when a document has no company, and when the others turn out to have nothing to write', async () => {
    const { write, batches } = recorder();
    const commits = new GroupCommit(write, LIMITS, 10_000);
    await commits.begin('w').write(input('alone'));
    const waiting = commits.begin('w');
    const unchanged = commits.begin('w');
    const written = waiting.write(input('ready'));
    unchanged.release();
    unchanged.release();
    await written;
    expect(batches).toEqual([['alone'], ['ready']]);
  });

  it('keeps workspaces apart and waits no longer than the linger for a slow neighbour', async () => {
    const { write, batches } = recorder();
    const commits = new GroupCommit(write, LIMITS, 30);
    const slow = commits.begin('w');
    const other = commits.begin('v').write(input('elsewhere'));
    const started = performance.now();
    await commits.begin('w').write(input('quick'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    await other;
    await slow.write(input('slow'));
    expect(batches).toEqual([['elsewhere'], ['quick'], ['slow']]);
  });

  it('takes a cancelled document out of its batch and writes the rest', async () => {
    const { write, batches } = recorder();
    const commits = new GroupCommit(write, LIMITS, 10_000);
    const keeper = commits.begin('w');
    const cancelled = commits.begin('w');
    const last = commits.begin('w');
    const controller = new AbortController();
    const kept = keeper.write(input('kept'));
    const dropped = cancelled.write(input('dropped'), controller.signal);
    controller.abort();
    await expect(dropped).rejects.toMatchObject({ code: ErrorCode.ABORTED });
    await last.write(input('last'));
    await kept;
    expect(batches).toEqual([['kept', 'last']]);
  });

  it('gives each document its own outcome when their batch fails', async () => {
    const { write, batches } = recorder((paths) =>
      paths.includes('bad') ? new RagError(ErrorCode.INVALID_INPUT, 'bad document') : null,
    );
    const commits = new GroupCommit(write, LIMITS, 10_000);
    const tickets = ['good', 'bad'].map(() => commits.begin('w'));
    const good = tickets[0]!.write(input('good'));
    const bad = tickets[1]!.write(input('bad'));
    await expect(good).resolves.toMatchObject({ status: 'added' });
    await expect(bad).rejects.toMatchObject({ code: ErrorCode.INVALID_INPUT });
    expect(batches).toEqual([['good', 'bad'], ['good'], ['bad']]);
  });

  it('writes two versions of one document in separate batches, in order', async () => {
    const { write, batches } = recorder();
    const commits = new GroupCommit(write, LIMITS, 10_000);
    const tickets = [0, 1].map(() => commits.begin('w'));
    const older = tickets[0]!.write(input('same'));
    const newer = tickets[1]!.write(input('same'));
    await Promise.all([older, newer]);
    expect(batches).toEqual([['same'], ['same']]);
  });
});
