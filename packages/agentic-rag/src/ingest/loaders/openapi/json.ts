import type { Span } from '../../../graph/index.js';

/** Small helpers over parsed YAML/JSON values and the sentences rendered from them. */

export type Json = Record<string, unknown>;

export function dedupeSpans(spans: Span[]): Span[] {
  const seen = new Set<string>();
  return spans
    .filter((span) => {
      const key = `${span.start}:${span.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.start - b.start);
}

export function sortedIds(ids: Iterable<string>, self: string): string[] {
  return [...new Set(ids)].filter((id) => id !== self).sort();
}

export function sentence(lead: string, description: unknown): string {
  const body = oneLine(typeof description === 'string' ? description : '');
  if (!body) return `${lead}.`;
  return `${lead}: ${/[.!?:]$/.test(body) ? body : `${body}.`}`;
}

export function withExample(line: string, holder: Json): string {
  const example =
    holder.example ?? Object.values(asObject(holder.examples)).map((entry) => asObject(entry).value)[0];
  if (example === undefined || isObject(example) || Array.isArray(example)) return line;
  return `${line} Example: ${format(example)}.`;
}

export function format(value: unknown): string {
  const rendered = typeof value === 'string' ? value : JSON.stringify(value);
  return rendered.length > 120 ? `${rendered.slice(0, 117)}...` : rendered;
}

export function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
