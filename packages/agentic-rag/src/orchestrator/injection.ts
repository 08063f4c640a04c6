/**
 * Text in a retrieved document that tries to instruct the model reading it. Such text is data:
 * it is never followed, never quoted into an answer, and reported as a warning. The patterns are
 * the common shapes of prompt injection; a document that merely discusses them (a security guide
 * quoting one) is flagged too, which costs a warning, not an answer.
 */
const PATTERNS: ReadonlyArray<RegExp> = [
  /\b(ignore|disregard|forget|override)\b[^.\n]{0,40}\b(previous|prior|above|earlier|all|any|your|system)\b[^.\n]{0,20}\b(instructions?|prompts?|rules|guidelines|directions)\b/i,
  /\byou are now\b/i,
  /\b(reveal|print|output|show|repeat|leak)\b[^.\n]{0,30}\b(system prompt|hidden instructions|api keys?|secrets?|credentials|passwords?)\b/i,
  /\bnew instructions?\s*:/i,
  /<\/?\s*(system|assistant|instructions?)\s*>/i,
  /\b(do not|don't|never)\s+(cite|mention|reveal)\b[^.\n]{0,30}\b(sources?|citations?|this)\b/i,
  /\b(respond|answer|reply)\s+only\s+with\b/i,
];

/** The injected phrases in a text (empty when there are none). */
export function findInjections(text: string): string[] {
  const found: string[] = [];
  for (const pattern of PATTERNS) {
    const match = pattern.exec(text);
    if (match) found.push(match[0]);
  }
  return found;
}
