/**
 * `Endpoint:POST /locations` → type `Endpoint`, name `POST /locations`. Search hits name entities
 * only by id, so this is how the console shows them before the graph is asked for their names.
 */
export function splitEntityId(id: string): { type: string; name: string } {
  const colon = id.indexOf(':');
  // The API refuses ids without a type; an odd one is still shown whole rather than dropped.
  if (colon <= 0) return { type: '', name: id };
  return { type: id.slice(0, colon), name: id.slice(colon + 1) };
}

/** `RESOURCE_HAS_ENDPOINT` → `resource has endpoint`: relation types read as words. */
export function relationLabel(type: string): string {
  return type.toLowerCase().replaceAll('_', ' ');
}

/** `1 passage`, `3 passages`; `count(2, 'entity', 'entities')`. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/**
 * Ids typed as a comma-separated list. A comma starts a new id only before `Type:` (or at the
 * end), so a name with a comma in it (`Person:Smith, J.`) stays whole.
 */
export function splitIdList(text: string): string[] {
  return text
    .split(/,(?=\s*(?:[^\s,:]+:|$))/)
    .map((id) => id.trim())
    .filter(Boolean);
}
