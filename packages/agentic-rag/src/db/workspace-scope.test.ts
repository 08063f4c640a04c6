import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentWorkspaceScope, scopedBeginText, withWorkspaceScope } from './workspace-scope.js';

describe('withWorkspaceScope', () => {
  it('scopes the work and everything it awaits, and nothing after it', async () => {
    expect(currentWorkspaceScope()).toBeUndefined();
    const seen = await withWorkspaceScope('docs', async () => {
      await sleep(1);
      return currentWorkspaceScope();
    });
    expect(seen).toBe('docs');
    expect(currentWorkspaceScope()).toBeUndefined();
  });

  it('keeps concurrent scopes apart, and an inner scope replaces the outer one for its own work', async () => {
    const look = (workspaceId: string, delay: number) =>
      withWorkspaceScope(workspaceId, async () => {
        await sleep(delay);
        const inner = await withWorkspaceScope(`${workspaceId}-inner`, async () => currentWorkspaceScope());
        return [currentWorkspaceScope(), inner];
      });
    expect(await Promise.all([look('a', 5), look('b', 1)])).toEqual([
      ['a', 'a-inner'],
      ['b', 'b-inner'],
    ]);
  });

  it.each(['', ' a', "a'b", 'a;b', 'a b', '-a', 'a\\b', 'x'.repeat(65)])(
    'refuses the workspace id %j before any SQL is built',
    async (workspaceId) => {
      await expect(withWorkspaceScope(workspaceId, async () => 'ran')).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      expect(() => scopedBeginText(workspaceId)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    },
  );

  it.each(['a', 'docs-2026.v1', 'A_b', 'x'.repeat(64)])('accepts %j', async (workspaceId) => {
    expect(await withWorkspaceScope(workspaceId, async () => currentWorkspaceScope())).toBe(workspaceId);
    expect(scopedBeginText(workspaceId)).toContain(`set_config('app.workspace', '${workspaceId}', true)`);
  });
});
