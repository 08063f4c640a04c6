import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '../errors/index.js';
import { loadKnowledgePack } from '../ingest/index.js';
import type { Caller, RagService } from '../service/index.js';
import { EXIT } from './cli-support.js';

export interface KnowledgeOptions {
  file: string;
  entityId: string | undefined;
  maxRetries: number;
  json: boolean;
  quiet: boolean;
}

/**
 * `rag:ingest --knowledge FILE [--entity ID]`: the file's text goes to the service's
 * ingestKnowledge (a knowledge pack is stored as it is; free text is structured into one first,
 * by the model when RAG_LLM is set, else by rules, with a check-in recorded). Invalid or
 * secret-bearing pieces are reported and skipped.
 */
export async function ingestKnowledge(
  service: RagService,
  caller: Caller,
  workspaceId: string,
  options: KnowledgeOptions,
): Promise<number> {
  const text = await readFile(options.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RagError(
      ErrorCode.FILE_UNREADABLE,
      `cannot read ${options.file}: ${error.code ?? error.message}`,
    );
  });
  const name = path.basename(options.file).replace(/\.[^.]+$/, '');
  const { document, structuring, pack, summary } = await service.ingestKnowledge(caller, {
    workspaceId,
    name,
    text,
    entityId: options.entityId ?? null,
    maxRetries: options.maxRetries,
  });
  const how =
    structuring.method === 'pack'
      ? 'a knowledge pack, loaded as it is'
      : `free text, structured by ${structuring.method === 'llm' ? 'the model' : 'rules'} (check-in ${structuring.checkInId})`;
  if (options.json) console.log(JSON.stringify({ workspaceId, document, how, summary }));
  else if (!options.quiet) {
    const kinds = new Map<string, number>();
    for (const piece of pack.pieces as Array<{ knowledge_type?: string }>) {
      const kind = String(piece.knowledge_type).toLowerCase();
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    // What the pack holds besides its pieces, as loaded: so a profile or an edge is never missed unseen.
    const loaded = loadKnowledgePack(document, pack).documents;
    const graph = loaded.find((document) => document.metadata.info_type === 'graph')?.metadata;
    const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
    const profiles = loaded.filter((document) => document.metadata.info_type === 'user_profile').length;
    console.log(`${options.file}: ${how}`);
    console.log(
      `  pieces     ${[...kinds].map(([kind, number]) => `${kind} ${number}`).join('  ') || 'none'}`,
    );
    console.log(
      `  loaded     profiles ${profiles}  nodes ${count(graph?.nodes)}  edges ${count(graph?.edges)}`,
    );
    console.log(
      `  documents  added ${summary.documents.added}  updated ${summary.documents.updated}  unchanged ${summary.documents.unchanged}  failed ${summary.documents.failed}; corpus version ${summary.corpusVersion}`,
    );
    for (const failure of summary.failures)
      console.log(`  SKIPPED    ${failure.sourcePath}: ${failure.message}`);
  }
  return summary.failures.length > 0 ? EXIT.failed : EXIT.ok;
}
