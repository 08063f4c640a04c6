import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../db/index.js';
import { redactFields, redactText } from '../telemetry/index.js';

export interface CheckIn {
  workspaceId: string;
  entityId: string | null;
  source: string;
  method: 'llm' | 'rules';
  /** The free text as given. */
  input: string;
  /** What came out: the pack, and for a model every reply. */
  output: unknown;
  attempts: number;
}

/**
 * The audit record of one structuring ("check-in"): what went in, what came out, how. Kept so a
 * piece in the knowledge base can be traced back to the words it was made from; secrets in the
 * notes (the reason such a piece was refused) are redacted here too, or the audit would leak them.
 */
export async function recordCheckIn(sql: SqlExecutor, checkIn: CheckIn): Promise<string> {
  const id = randomUUID();
  await sql.query(
    `INSERT INTO rag_knowledge_checkins (id, workspace_id, entity_id, source, method, input, output, attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      checkIn.workspaceId,
      checkIn.entityId,
      checkIn.source,
      checkIn.method,
      redactText(checkIn.input),
      JSON.stringify(redactFields({ output: checkIn.output }).output),
      checkIn.attempts,
    ],
  );
  return id;
}
