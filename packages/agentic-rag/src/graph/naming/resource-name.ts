import { singularize } from '../resolve.js';

/**
 * One naming of API resources, shared by the OpenAPI loader (which names an operation's
 * resource), the offline extractor (which names the resource a path in prose starts with) and
 * retrieval (which matches a question's words against the resources of a workspace). Before it,
 * `/rate-cards` became `rate-card` in the loader and nothing in the extractor, so the two never
 * met on one graph node.
 *
 * A resource name is kebab-case, lower case and singular in its last word: `rate-card`,
 * `shipment`, `address`. Every spelling a spec uses — `rate-cards`, `rate_cards`, `rateCards`,
 * `RateCard`, "rate cards" — folds to it.
 */

/** `v2`, `v1.1`, `3`, `api`: path segments that scope a version or a mount point, never a resource. */
export const VERSION_SEGMENT = /^(?:api|v?\d+(?:\.\d+)*)$/i;

/**
 * The lower-case words of a name in any casing: `rateCards`, `RateCards`, `rate_cards`,
 * `rate-cards`, `Rate cards` → `['rate', 'cards']`; `HTTPServer` → `['http', 'server']`.
 */
export function nameWords(name: string): string[] {
  return name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** `rate-cards` → `rate-card`, `RateCard` → `rate-card`, `addresses` → `address`: the last word singular. */
export function resourceName(name: string): string {
  const words = nameWords(name);
  const last = words.pop();
  return last === undefined ? '' : [...words, singularize(last)].join('-');
}

/** Whether a name is written in the plural (`rate-cards`, `locations`), as collections are named. */
export function isPluralName(name: string): boolean {
  const words = nameWords(name);
  return words.length > 0 && resourceName(name) !== words.join('-');
}

/** `location` → `locations`, `address` → `addresses`, `category` → `categories`: the usual English plural. */
export function pluralWord(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * The resource a path is about: its first segment that is neither a version nor a parameter,
 * as a resource name (`/v2/rate-cards/{id}` → `rate-card`); undefined for `/` or `/{id}`.
 */
export function resourceOfPath(path: string): string | undefined {
  const segment = path
    .split(/[/?#]/)
    .find((part) => part.length > 0 && !VERSION_SEGMENT.test(part) && !/^[{:]/.test(part));
  return segment === undefined ? undefined : resourceName(segment) || undefined;
}

// Words that name a schema's role rather than the thing it describes: `LocationList`,
// `CreateLocationRequest`, `ShipmentPage` are all about the `location` or `shipment` resource.
const SCHEMA_ROLE_WORDS: ReadonlySet<string> = new Set([
  'list',
  'page',
  'collection',
  'request',
  'response',
  'input',
  'output',
  'body',
  'payload',
  'create',
  'update',
  'patch',
  'new',
  'result',
  'results',
  'summary',
  'detail',
  'details',
  'dto',
]);

/**
 * The resource a component schema describes: its name without role words, as a resource name
 * (`LocationList` → `location`, `CreateRateCardRequest` → `rate-card`). A name made only of role
 * words (`Error`, `Page`) is kept whole: it is its own thing.
 */
export function resourceOfSchema(name: string): string {
  const words = nameWords(name);
  const kept = words.filter((word) => !SCHEMA_ROLE_WORDS.has(word));
  return resourceName((kept.length > 0 ? kept : words).join('-'));
}

/**
 * The ways a text may write a resource: singular and plural, as words, kebab, snake and camel
 * case (`rate-card` → `rate card`, `rate cards`, `rate-cards`, `rate_card`, `rateCards`, ...),
 * all lower case so a caller can match them against lower-cased text.
 */
export function resourceForms(resource: string): string[] {
  const words = nameWords(resource);
  const last = words.at(-1);
  if (last === undefined) return [];
  const singularWords = [...words.slice(0, -1), singularize(last)];
  const pluralWords = [...words.slice(0, -1), pluralWord(singularize(last))];
  const forms = new Set<string>();
  for (const parts of [singularWords, pluralWords]) {
    forms.add(parts.join(' '));
    forms.add(parts.join('-'));
    forms.add(parts.join('_'));
    forms.add(parts.join('').toLowerCase());
  }
  return [...forms];
}
