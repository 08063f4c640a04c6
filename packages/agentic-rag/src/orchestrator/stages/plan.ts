import { parseEntityReference } from '../../graph/index.js';
import { detectIntent } from '../../retrieve/index.js';
import { extractArithmetic } from '../../tools/index.js';
import type { Plan, PlanIntent } from '../types.js';

/**
 * What the question asks for, from its wording alone: an API endpoint, schema or error; a
 * numbered entity ("Algorithm 3.2"); arithmetic the calc tool should do rather than anything
 * retrieved; or a general question. Tools are requested only when allowed.
 */
export function plan(query: string, options: { useTools: boolean; useHyde: boolean }): Plan {
  const intent = detectIntent(query);
  const reference = parseEntityReference(query);
  const expression = options.useTools ? extractArithmetic(query) : null;
  const tools: Plan['tools'] = [];
  if (expression)
    tools.push({ name: 'calc', input: { expression }, reason: 'the question contains arithmetic' });
  if (options.useTools && reference) {
    tools.push({
      name: 'lookup',
      input: { type: reference.type, number: reference.number },
      reason: `the question names ${reference.type} ${reference.number}`,
    });
  }
  const kind: PlanIntent =
    intent.kind !== 'general' ? intent.kind : reference ? 'entity' : expression ? 'arithmetic' : 'general';
  return {
    intent: kind,
    entity: reference ? { type: reference.type, number: reference.number } : null,
    operationType: intent.operationType ?? null,
    tools,
    useHyde: options.useHyde,
  };
}
