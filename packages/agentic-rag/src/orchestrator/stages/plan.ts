import { extractArithmetic } from '../../tools/index.js';
import type { Understanding } from '../../understand/index.js';
import type { Plan, PlanIntent } from '../types.js';

/**
 * What the question asks for, from its understanding: an API endpoint, schema or error (the
 * understanding's intent, decided once with its confidence); a numbered entity ("Algorithm 3.2");
 * arithmetic the calc tool should do rather than anything retrieved; or a general question.
 * Tools are requested only when allowed.
 */
export function plan(understanding: Understanding, options: { useTools: boolean; useHyde: boolean }): Plan {
  const { intent, entity } = understanding;
  const expression = options.useTools ? extractArithmetic(understanding.searchText) : null;
  const tools: Plan['tools'] = [];
  if (expression)
    tools.push({ name: 'calc', input: { expression }, reason: 'the question contains arithmetic' });
  if (options.useTools && entity) {
    tools.push({
      name: 'lookup',
      input: { type: entity.type, number: entity.number },
      reason: `the question names ${entity.type} ${entity.number}`,
    });
  }
  const kind: PlanIntent =
    intent.kind !== 'general' ? intent.kind : entity ? 'entity' : expression ? 'arithmetic' : 'general';
  return {
    intent: kind,
    confidence: intent.confidence,
    entity,
    operationType: intent.operationType ?? null,
    tools,
    useHyde: options.useHyde,
  };
}
