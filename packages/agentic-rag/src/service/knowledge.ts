import { z } from 'zod';
import { isKnowledgePack, type KnowledgePack } from '../ingest/index.js';
import { structureKnowledge } from '../knowledge/index.js';
import type { Caller } from './caller.js';
import { contentText, idText, integer, parseInput } from './inputs.js';
import type { CallOptions, OperationHost, WorkspaceCall } from './operation-host.js';

export const KnowledgeInput = z.object({
  /** What the knowledge is called: its document is knowledge/<entity or shared>/<name>.json. */
  name: idText('name', 200),
  /** A knowledge pack as JSON, or free text to structure into one. */
  text: contentText('text'),
  /** Whose knowledge it is (user:alice, team:ops). */
  entityId: idText('entityId', 200).nullish(),
  /** Asks of the model after an invalid reply. */
  maxRetries: integer('maxRetries', 0, 10).default(2),
});

/**
 * Expert knowledge into a workspace (rag:ingest --knowledge): a knowledge pack is stored as it
 * is; free text is structured into one first (by the model when RAG_LLM is set, else by rules),
 * with a check-in recorded. It runs now, whatever the ingest mode: a model call is not a queue
 * job. Invalid or secret-bearing pieces come back as the summary's failures, not stored.
 */
export async function ingestKnowledge(
  service: OperationHost,
  caller: Caller,
  input: WorkspaceCall<typeof KnowledgeInput>,
  options: CallOptions = {},
) {
  const { workspaceId: claimed, ...fields } = input;
  return service.guard(
    caller,
    'ingest',
    claimed,
    async ({ runtime, workspaceId, signal }) => {
      const { name, text, entityId, maxRetries } = parseInput(KnowledgeInput, fields);
      const parsed = parseJson(text);
      let pack: KnowledgePack;
      let structuring: { method: 'pack' } | { method: 'llm' | 'rules'; checkInId: string };
      if (isKnowledgePack(parsed)) {
        pack = parsed as KnowledgePack;
        structuring = { method: 'pack' };
      } else {
        const structured = await structureKnowledge({
          text,
          workspaceId,
          ...(entityId ? { entityId } : {}),
          source: name,
          llm: runtime.llm,
          maxRetries,
          sql: runtime.sql,
        });
        pack = structured.pack;
        structuring = { method: structured.method, checkInId: structured.checkInId };
      }
      const document = `knowledge/${(entityId ?? 'shared').replace(/[^A-Za-z0-9_.@-]/g, '_')}/${name}.json`;
      const summary = await runtime.pipeline.ingestInline(
        workspaceId,
        [{ id: document, content: JSON.stringify(pack) }],
        signal,
      );
      runtime.corpusVersions.note(workspaceId, summary.corpusVersion);
      return { workspaceId, document, structuring, pack, summary };
    },
    { ...options, workspace: 'create', target: typeof input.name === 'string' ? input.name : null },
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
