import { spawnSync } from 'node:child_process';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { isCorpusName, missingCorpusPackages, PROVISION_SCRIPT, type CorpusName } from './corpora/index.js';

/**
 * `--chunks 10000,100000,1M`: one corpus size per entry, in the order given. `k` and `M` suffixes
 * stand for thousands and millions.
 */
export function parseChunkSizes(value: string, minimum = 100): number[] {
  const sizes = value.split(',').map((entry) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(entry);
    const size = match
      ? Math.round(Number(match[1]) * (match[2] === '' ? 1 : /k/i.test(match[2]!) ? 1e3 : 1e6))
      : Number.NaN;
    if (!Number.isInteger(size) || size < minimum)
      throw new RagError(
        ErrorCode.INVALID_INPUT,
        `--chunks takes sizes >= ${minimum} separated by commas (10000,100k,1M), not "${entry}"`,
      );
    return size;
  });
  if (sizes.length === 0) throw new RagError(ErrorCode.INVALID_INPUT, '--chunks needs at least one size');
  return sizes;
}

export function parseCorpus(value: string): CorpusName {
  if (!isCorpusName(value))
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `--corpus must be zipf, postgres-docs, python-docs, linux-docs or debian-docs, not "${value}"`,
    );
  return value;
}

/**
 * Makes sure the corpus's Debian packages are installed: with `provision`, runs
 * provision-corpora.sh (apt-get; needs root or sudo) when some are missing; without, says how.
 */
export function ensureCorpusPackages(corpus: CorpusName, provision: boolean): void {
  const missing = missingCorpusPackages(corpus);
  if (missing.length === 0) return;
  if (!provision)
    throw new RagError(
      ErrorCode.NOT_FOUND,
      `--corpus ${corpus} reads Debian packages that are not installed (${missing.join(' ')}): run ` +
        `"sudo sh ${PROVISION_SCRIPT}" or pass --provision`,
    );
  const result = spawnSync('sh', [PROVISION_SCRIPT], { stdio: ['ignore', 'inherit', 'inherit'] });
  const still = missingCorpusPackages(corpus);
  if (result.status !== 0 || still.length > 0)
    throw new RagError(
      ErrorCode.NOT_FOUND,
      `${PROVISION_SCRIPT} did not install ${still.join(' ') || missing.join(' ')} (exit ${result.status})`,
    );
}
