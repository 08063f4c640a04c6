import type { GraphEntity } from './graph-store.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a passage holds an entity's numbered block: its bold label (`**Algorithm 3.2.**`), a
 * heading that opens with it, or for a formula the display equation numbered `(7.5)`. "3.2" never
 * matches "3.21" or "3.2.1".
 */
export function holdsDefinition(entity: GraphEntity, text: string): boolean {
  const label = `${escape(entity.name).replace(/\s+/g, '\\s+')}(?!\\d|\\.\\d)`;
  if (new RegExp(`\\*\\*${label}|^#{1,6}\\s+${label}`, 'im').test(text)) return true;
  const number = typeof entity.properties.number === 'string' ? entity.properties.number : null;
  return (
    entity.type === 'Formula' && number !== null && new RegExp(`\\$\\$\\s*\\(${escape(number)}\\)`).test(text)
  );
}

/**
 * The one rule for the passage that defines an entity, used by the lookup tool and the REST
 * contract's entity reads alike: among the chunks of its defining source that mention it, the one
 * holding its numbered block, else the one that mentions it most (the first given on a tie).
 */
export function definingPassage<Chunk extends { text: string }>(
  entity: GraphEntity,
  candidates: readonly { count: number; chunk: Chunk }[],
): Chunk | null {
  const ranked = [...candidates].sort((left, right) => right.count - left.count);
  return (ranked.find(({ chunk }) => holdsDefinition(entity, chunk.text)) ?? ranked[0])?.chunk ?? null;
}
