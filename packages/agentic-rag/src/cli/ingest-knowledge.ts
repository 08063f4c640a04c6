import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, RagError } from '../errors/index.js';
import { isKnowledgePack, loadKnowledgePack, type KnowledgePack } from '../ingest/index.js';
import { structureKnowledge } from '../knowledge/index.js';
import type { RagRuntime } from '../runtime/index.js';
import { EXIT } from './cli-support.js';

export interface KnowledgeOptions {
  file: string;
  entityId: string | undefined;
  maxRetries: number;
  json: boolean;
  quiet: boolean;
}

/**
 * `rag:ingest --knowledge FILE [--entity ID]`: a knowledge pack (JSON) is ingested as it is; free
 * text is structured into one first (by the model when RAG_LLM is set, else by rules), with a
 * check-in recorded. Invalid or secret-bearing pieces are reported and skipped.
 */
export async function ingestKnowledge(
  runtime: RagRuntime,
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
  let pack: KnowledgePack;
  let how: string;
  const parsed = parseJson(text);
  if (isKnowledgePack(parsed)) {
    pack = parsed as KnowledgePack;
    how = 'a knowledge pack, loaded as it is';
  } else {
    const structured = await structureKnowledge({
      text,
      workspaceId,
      ...(options.entityId ? { entityId: options.entityId } : {}),
      source: name,
      llm: runtime.llm,
      maxRetries: options.maxRetries,
      sql: runtime.sql,
    });
    pack = structured.pack;
    how = `free text, structured by ${structured.method === 'llm' ? 'the model' : 'rules'} (check-in ${structured.checkInId})`;
  }
  const id = `knowledge/${(options.entityId ?? 'shared').replace(/[^A-Za-z0-9_.@-]/g, '_')}/${name}.json`;
  const summary = await runtime.pipeline.ingestInline(workspaceId, [{ id, content: JSON.stringify(pack) }]);
  if (options.json) console.log(JSON.stringify({ workspaceId, document: id, how, summary }));
  else if (!options.quiet) {
    const kinds = new Map<string, number>();
    for (const piece of pack.pieces as Array<{ knowledge_type?: string }>) {
      const kind = String(piece.knowledge_type).toLowerCase();
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    // What the pack holds besides its pieces, as loaded: so a profile or an edge is never missed unseen.
    const loaded = loadKnowledgePack(id, pack).documents;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
