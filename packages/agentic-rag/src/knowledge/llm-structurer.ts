import { ErrorCode, RagError } from '../errors/index.js';
import {
  INFO_TYPES,
  isKnowledgePack,
  KNOWLEDGE_TYPES,
  loadKnowledgePack,
  type KnowledgePack,
} from '../ingest/index.js';
import type { Llm } from '../llm/index.js';
import { redactText } from '../telemetry/index.js';

export interface LlmStructuring {
  pack: KnowledgePack;
  attempts: number;
  /** Every reply, in order: what the check-in keeps. */
  replies: string[];
}

/**
 * The structuring prompt: extract entities, facts, procedures and relationships into a pack in
 * the canonical form of docs/knowledge-packs.md, and never copy credentials.
 */
const PROMPT = `You turn an expert's notes into a knowledge pack for an AI agent: extract the entities,
facts, procedures and relationships the notes state.
Reply with one JSON object and nothing else:
{"metadata": {"<entity_id>": {"entity_type": "user", "properties": {"<key>": "<value>"}}},
 "pieces": [{"piece_id": "kebab-case-id", "content": "one self-contained statement",
   "knowledge_type": one of ${KNOWLEDGE_TYPES.map((type) => `"${type}"`).join(', ')},
   "info_type": one of ${INFO_TYPES.map((type) => `"${type}"`).join(', ')} (or another snake_case name),
   "tags": ["..."], "entity_id": "<entity_id>", "embedding_text": "keywords a search would use"}],
 "graph": {"nodes": [{"node_id": "<type>:<name>", "node_type": "user", "label": "..."}],
   "edges": [{"source_id": "<node_id>", "target_id": "<node_id>", "edge_type": "UPPER_SNAKE", "properties": {"piece_id": "<piece_id that states it>"}}]}}
knowledge_type says what a statement is; info_type where the agent uses it: user_profile (who the
user is, to personalise for), instructions (rules and procedures the agent must follow), context
(background to reason over, past events), skills (techniques the agent can perform).
Keep every fact of the notes, one statement per piece, in the notes' own words.
Never copy credentials or sensitive data: passwords, API keys, tokens.`;

/**
 * Free text to a knowledge pack by a chat model. The reply must be a pack that loads without a
 * single invalid item; otherwise the model is told what was wrong and asked again, up to
 * `maxRetries` more times.
 */
export async function structureWithLlm(
  llm: Llm,
  text: string,
  options: { entityId?: string; source: string; maxRetries: number },
): Promise<LlmStructuring> {
  const replies: string[] = [];
  const messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [
    { role: 'system', content: PROMPT },
    {
      role: 'user',
      // Secrets in the notes never reach the model's provider.
      content: `${options.entityId ? `entity_id: ${options.entityId}\n\n` : ''}Notes:\n${redactText(text)}`,
    },
  ];
  for (let attempt = 1; attempt <= options.maxRetries + 1; attempt++) {
    const response = await llm.complete({
      messages,
      temperature: 0,
      responseFormat: 'json',
      maxTokens: 4000,
    });
    replies.push(response.text);
    const problem = check(response.text, options.source);
    if (typeof problem !== 'string') return { pack: problem, attempts: attempt, replies };
    messages.push({ role: 'assistant', content: response.text });
    messages.push({
      role: 'user',
      content: `That reply cannot be used: ${problem}. Reply with the corrected JSON object only.`,
    });
  }
  throw new RagError(
    ErrorCode.LLM_REQUEST_REJECTED,
    `the model gave no valid knowledge pack in ${options.maxRetries + 1} attempts: ${String(check(replies.at(-1) ?? '', options.source))}`,
  );
}

/** The pack, or what is wrong with the reply. */
function check(reply: string, source: string): KnowledgePack | string {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  if (!json) return 'it holds no JSON object';
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`;
  }
  if (!isKnowledgePack(value)) return 'it has no "pieces" array';
  const loaded = loadKnowledgePack(`${source}.json`, value);
  if (loaded.failures.length > 0)
    return loaded.failures.map((failure) => `${failure.sourcePath}: ${failure.message}`).join('; ');
  if (!loaded.documents.some((document) => document.metadata.piece_id !== undefined))
    return 'it has no pieces';
  return value as KnowledgePack;
}
