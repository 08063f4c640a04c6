import { readFile } from 'node:fs/promises';
import type { RagRuntime } from '@agentic-rag/core';

const SAMPLE = new URL('../../../simulated_ingestion/', import.meta.url);

/** Document ids of the fixture: an OpenAPI spec (one document per operation) and a textbook chapter. */
export const SPEC = 'northwind/api/openapi.yaml';
export const CHAPTER = 'textbook/ch03-inference.md';

/** The integration tests' corpus: small enough to ingest in seconds, real enough to answer from. */
export async function ingestTestCorpus(runtime: RagRuntime, workspaceId: string): Promise<void> {
  const documents = [
    { id: SPEC, content: await readFile(new URL('northwind-logistics/api/openapi.yaml', SAMPLE), 'utf8') },
    {
      id: CHAPTER,
      content: await readFile(
        new URL('textbook/decision-making-under-uncertainty/ch03-inference.md', SAMPLE),
        'utf8',
      ),
    },
  ];
  const summary = await runtime.pipeline.ingestInline(workspaceId, documents);
  if (summary.failures.length > 0)
    throw new Error(`fixture ingest failed: ${JSON.stringify(summary.failures)}`);
}

/** A workspace other than the fixture's, with one fact only it holds. */
export async function ingestOtherWorkspace(runtime: RagRuntime, workspaceId: string): Promise<void> {
  await runtime.pipeline.ingestInline(workspaceId, [
    { id: 'other/secret.md', content: '# Project Halcyon\n\nThe Halcyon launch code word is periwinkle.\n' },
  ]);
}
