import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chunkFileTexts, type ChunkFileOptions } from './chunk-file.js';
import { manualPages, pageDocument, type ManualName } from './debian-manuals.js';

export interface RealTextCorpusOptions {
  manuals: readonly ManualName[];
  /** Stop adding documents once their chunks reach this many. */
  targetChunks: number;
  directory: string;
  chunker: ChunkFileOptions;
  /** Where each manual's files are (tests point these at fixtures); default: the Debian package's. */
  roots?: Partial<Record<ManualName, string>>;
  onProgress?: (progress: { chunks: number; targetChunks: number; documents: number }) => void;
}

export interface RealTextCorpus {
  documents: number;
  /** Chunks the pipeline's chunker makes of the written files (copies counted like their original). */
  chunks: number;
  /** How many times the manuals were written: 1 unless the text ran out before the target. */
  copies: number;
  /**
   * Section headings of the first pass. A copy's are the same with " (copy K)" appended, which a
   * query would not say, so they are not listed again.
   */
  headings: string[];
}

/**
 * Writes Markdown documents made from the manuals into `directory` until the pipeline's chunker
 * would make `targetChunks` chunks of them. The manuals' pages go in a fixed order, so a smaller
 * corpus is a prefix of a larger one. When the manuals run out (about 1M chunks needs it), copies
 * follow: copy N of a page is written under `copy-N/`, with " (copy N)" appended to its title and
 * every heading, so no two documents have the same text; the first pass is under `copy-1/`.
 */
export async function writeRealTextCorpus(options: RealTextCorpusOptions): Promise<RealTextCorpus> {
  const written: Array<{ path: string; chunks: number }> = [];
  const headings: string[] = [];
  let chunks = 0;
  let documents = 0;
  const report = () => options.onProgress?.({ chunks, targetChunks: options.targetChunks, documents });

  for (const page of await manualPages(options.manuals, options.roots)) {
    if (chunks >= options.targetChunks) break;
    const document = await pageDocument(page, options.roots);
    if (!document) continue;
    const relative = path.join('copy-1', document.path);
    const count = chunkFileTexts(relative, document.markdown, options.chunker).length;
    if (count === 0) continue;
    await writeDocument(options.directory, relative, document.markdown);
    written.push({ path: document.path, chunks: count });
    headings.push(...document.headings);
    chunks += count;
    if (++documents % 20 === 0) report();
  }
  if (written.length === 0) throw new Error(`no text found in ${options.manuals.join(', ')}`);

  let copies = 1;
  while (chunks < options.targetChunks) {
    copies++;
    for (const original of written) {
      if (chunks >= options.targetChunks) break;
      const text = await readFile(path.join(options.directory, 'copy-1', original.path), 'utf8');
      const copy = markCopy(text, copies);
      await writeDocument(options.directory, path.join(`copy-${copies}`, original.path), copy.markdown);
      chunks += original.chunks;
      if (++documents % 20 === 0) report();
    }
  }
  report();
  return { documents, chunks, copies, headings };
}

/** Appends " (copy N)" to every Markdown heading outside code fences. */
export function markCopy(markdown: string, copy: number): { markdown: string; headings: string[] } {
  const headings: string[] = [];
  let fenced = false;
  const lines = markdown.split('\n').map((line) => {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6} \S/.exec(line);
    if (!heading) return line;
    const marked = `${line.trimEnd()} (copy ${copy})`;
    headings.push(marked.replace(/^#+ /, ''));
    return marked;
  });
  return { markdown: lines.join('\n'), headings };
}

async function writeDocument(directory: string, relative: string, markdown: string): Promise<void> {
  const file = path.join(directory, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, markdown);
}
