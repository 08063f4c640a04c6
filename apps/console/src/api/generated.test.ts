import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config, { formatGenerated, outputPath } from '../../codegen.js';

describe('generated console types', () => {
  it('are what `pnpm codegen` makes from schema.graphql and operations.ts today', async () => {
    // In memory (no file is written), with plugins resolved from apps/console as `pnpm codegen` does.
    const [output, ...others] = await generate(
      { ...config, cwd: fileURLToPath(new URL('../..', import.meta.url)), silent: true },
      false,
    );
    expect(others).toEqual([]);
    expect(output?.filename).toBe(outputPath);
    const expected = await formatGenerated(outputPath, output?.content ?? '');
    const committed = await readFile(outputPath, 'utf8');
    expect(committed, 'generated/graphql.ts is stale: run `pnpm codegen` and commit it').toBe(expected);
  });
});
