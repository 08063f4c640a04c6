import type { SqlExecutor } from '../db/index.js';
import type { KnowledgePack } from '../ingest/index.js';
import type { Llm } from '../llm/index.js';
import { recordCheckIn } from './checkins.js';
import { structureWithLlm } from './llm-structurer.js';
import { structureByRules } from './rule-based.js';

export interface StructureOptions {
  text: string;
  workspaceId: string;
  entityId?: string;
  /** Names the input in ids and the audit record: the file's name, say. */
  source: string;
  /** With a model the notes are structured by it; without, by cue-word rules. */
  llm: Llm | null;
  maxRetries?: number;
  sql: SqlExecutor;
}

/** Free text to a knowledge pack, by a model when there is one, with its check-in recorded. */
export async function structureKnowledge(
  options: StructureOptions,
): Promise<{ pack: KnowledgePack; method: 'llm' | 'rules'; checkInId: string }> {
  const entity = options.entityId ? { entityId: options.entityId } : {};
  let pack: KnowledgePack;
  let output: unknown;
  let attempts = 1;
  if (options.llm) {
    const structured = await structureWithLlm(options.llm, options.text, {
      ...entity,
      source: options.source,
      maxRetries: options.maxRetries ?? 2,
    });
    pack = structured.pack;
    attempts = structured.attempts;
    output = { pack, replies: structured.replies };
  } else {
    pack = structureByRules(options.text, { ...entity, source: options.source });
    output = { pack };
  }
  const method = options.llm ? 'llm' : 'rules';
  const checkInId = await recordCheckIn(options.sql, {
    workspaceId: options.workspaceId,
    entityId: options.entityId ?? null,
    source: options.source,
    method,
    input: options.text,
    output,
    attempts,
  });
  return { pack, method, checkInId };
}
