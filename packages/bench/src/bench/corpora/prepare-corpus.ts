import { fileURLToPath } from 'node:url';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { writeSyntheticCorpus } from '../synthetic-corpus.js';
import type { ChunkFileOptions } from './chunk-file.js';
import { manualPackage, missingManuals, type ManualName } from './debian-manuals.js';
import { sampleHeadingQueries } from './heading-queries.js';
import { writeRealTextCorpus } from './real-text-corpus.js';
import { sampleZipfQueries } from './zipf-queries.js';

export const CORPUS_NAMES = ['zipf', 'postgres-docs', 'python-docs', 'linux-docs', 'debian-docs'] as const;
export type CorpusName = (typeof CORPUS_NAMES)[number];

const MANUALS_OF: Record<Exclude<CorpusName, 'zipf'>, ManualName[]> = {
  'postgres-docs': ['postgres-docs'],
  'python-docs': ['python-docs'],
  'linux-docs': ['linux-docs'],
  'debian-docs': ['postgres-docs', 'python-docs', 'linux-docs'],
};

/** The script that installs the manuals' Debian packages (run as root). */
export const PROVISION_SCRIPT = fileURLToPath(new URL('../provision-corpora.sh', import.meta.url));

/** Sections per synthetic document: one chunk each at the default chunk size. */
const ZIPF_SECTIONS_PER_DOCUMENT = 10;

export interface PrepareCorpusOptions {
  corpus: CorpusName;
  targetChunks: number;
  directory: string;
  chunker: ChunkFileOptions;
  /** Seed of the Zipf text (bench:ingest and bench:search have always used different ones). */
  zipfSeed?: number;
  onProgress?: (progress: { chunks: number; targetChunks: number; documents: number }) => void;
}

export interface PreparedCorpus {
  corpus: CorpusName;
  directory: string;
  documents: number;
  /** Chunks expected from the chunker (the Zipf corpus: one per section). */
  chunks: number;
  copies: number;
  /** `count` queries, the same for the same corpus and size. */
  queries: (count: number) => Promise<string[]>;
}

export function isCorpusName(name: string): name is CorpusName {
  return (CORPUS_NAMES as readonly string[]).includes(name);
}

/** The Debian packages a corpus needs that are not installed, and the command that installs them. */
export function missingCorpusPackages(corpus: CorpusName): string[] {
  return corpus === 'zipf' ? [] : missingManuals(MANUALS_OF[corpus]).map(manualPackage);
}

/** Writes the corpus's files into `directory` and says how to query it. */
export async function prepareCorpus(options: PrepareCorpusOptions): Promise<PreparedCorpus> {
  if (options.corpus === 'zipf') {
    const documents = Math.ceil(options.targetChunks / ZIPF_SECTIONS_PER_DOCUMENT);
    await writeSyntheticCorpus({
      directory: options.directory,
      documents,
      sectionsPerDocument: ZIPF_SECTIONS_PER_DOCUMENT,
      wordsPerSection: 80,
      ...(options.zipfSeed !== undefined ? { seed: options.zipfSeed } : {}),
    });
    return {
      corpus: 'zipf',
      directory: options.directory,
      documents,
      chunks: documents * ZIPF_SECTIONS_PER_DOCUMENT,
      copies: 1,
      queries: (count) => sampleZipfQueries(options.directory, count),
    };
  }
  const missing = missingCorpusPackages(options.corpus);
  if (missing.length > 0)
    throw new RagError(
      ErrorCode.NOT_FOUND,
      `--corpus ${options.corpus} needs the Debian packages ${missing.join(' ')}: run ${PROVISION_SCRIPT} as root (or pass --provision)`,
    );
  const written = await writeRealTextCorpus({
    manuals: MANUALS_OF[options.corpus],
    targetChunks: options.targetChunks,
    directory: options.directory,
    chunker: options.chunker,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return {
    corpus: options.corpus,
    directory: options.directory,
    documents: written.documents,
    chunks: written.chunks,
    copies: written.copies,
    queries: async (count) => sampleHeadingQueries(written.headings, count),
  };
}
