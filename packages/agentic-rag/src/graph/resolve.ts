/**
 * Entity resolution: the keys under which spellings of one thing become one graph node, and the
 * merge of several fact sets of one document (a loader's declared facts plus an extractor's
 * output) into one node per thing.
 *
 * Keys are deliberately conservative. A false merge (two things on one node) corrupts every
 * answer that walks through the node; a missed merge only costs a duplicate, which retrieval
 * tolerates. So folding rules are small and explicit rather than a stemmer.
 */
import {
  NUMBERED_ENTITY_TYPES,
  type DocumentFacts,
  type EntityFact,
  type EntityRef,
  type RelationFact,
  type RelationType,
  type Span,
} from './facts.js';

/**
 * Types whose identity is their number ("Algorithm 3.2" is "3.2" within its type). Equation is no
 * type of ours (an equation is a Formula) but facts from elsewhere may use it.
 */
const NUMBERED_TYPES: ReadonlySet<string> = new Set([...NUMBERED_ENTITY_TYPES, 'Equation']);

/** Types named in code, where a dot separates namespaces rather than being punctuation. */
const CODE_TYPES: ReadonlySet<string> = new Set(['Identifier', 'ErrorCode', 'Field']);

/** Relation types whose direction carries no meaning: A RELATED B is B RELATED A. */
const SYMMETRIC_RELATIONS: ReadonlySet<RelationType> = new Set(['RELATED', 'RELATED_TO']);

const LEADING_ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an']);

// Words ending in s that are singular. The suffix rules below already protect -ss, -us and -is;
// these are the ones they would still get wrong.
const INVARIANT_WORDS: ReadonlySet<string> = new Set([
  'series',
  'species',
  'news',
  'means',
  'lens',
  'always',
  'perhaps',
  'whereas',
  'chaos',
  'kudos',
  'cosmos',
  'ethos',
  'physics',
  'mathematics',
  'analytics',
  'economics',
  'logistics',
  'dynamics',
  'aerodynamics',
  'thermodynamics',
  'ethics',
  'aegis',
  'customs',
  'goods',
  'headquarters',
  'premises',
  'thanks',
]);

// -us words whose plural is -uses; without this list "statuses" would fold to "statuse".
const US_STEMS: ReadonlySet<string> = new Set([
  'status',
  'bus',
  'bonus',
  'campus',
  'virus',
  'census',
  'corpus',
  'focus',
  'radius',
  'nexus',
  'consensus',
  'stimulus',
  'syllabus',
  'prospectus',
  'apparatus',
  'surplus',
]);

// -ies plurals of words that end in -ie, and -ches plurals of words that end in -che.
const IE_PLURALS: ReadonlySet<string> = new Set(['movies', 'cookies', 'zombies', 'rookies', 'calories']);
const CHE_PLURALS: ReadonlySet<string> = new Set(['caches', 'niches', 'headaches', 'cliches', 'quiches']);

/**
 * Folds a simple English plural to its singular; leaves anything it is not sure about alone.
 * Exported for the extractor, which singularises resource names the same way.
 */
export function singularize(word: string): string {
  if (word.length < 4 || !/^\p{Ll}+$/u.test(word) || INVARIANT_WORDS.has(word)) return word;
  if (/(ss|us|is|ias|tlas|nvas)$/.test(word)) return word;
  if (word.endsWith('uses')) {
    const stem = word.slice(0, -2);
    return US_STEMS.has(stem) ? stem : word.slice(0, -1);
  }
  if (word.endsWith('ies')) {
    if (IE_PLURALS.has(word) || word.length <= 4) return word.slice(0, -1);
    return `${word.slice(0, -3)}y`;
  }
  if (word.endsWith('yses')) return `${word.slice(0, -4)}ysis`; // analyses → analysis
  if (word.endsWith('theses')) return `${word.slice(0, -6)}thesis`; // hypotheses → hypothesis
  if (/(sses|xes|zzes|shes)$/.test(word)) return word.slice(0, -2); // addresses, boxes, hashes
  if (word.endsWith('ches')) return CHE_PLURALS.has(word) ? word.slice(0, -1) : word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * Case-folded, NFKC, punctuation and whitespace collapsed, plurals folded, no leading article.
 * With `keepDots`, a dot stays a separator of its own: in code `carrier.suspended` (an event)
 * and `CARRIER_SUSPENDED` (an error code) are different names.
 */
function normalizeText(name: string, keepDots = false): string {
  const folded = name
    .normalize('NFKC')
    .toLowerCase()
    // Apostrophes join rather than split, so "Northwind's" folds onto "Northwind".
    .replace(/['’]/g, '');
  const words = (keepDots ? folded.replace(/\s*\.+\s*/g, ' . ') : folded)
    .split(keepDots ? /[^\p{L}\p{N}.]+/u : /[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  if (words.length > 1 && LEADING_ARTICLES.has(words[0]!)) words.shift();
  const singular = words.map(singularize).join(' ');
  return keepDots ? singular.replace(/ ?\. ?/g, '.').replace(/^\.+|\.+$/g, '') : singular;
}

/**
 * An HTTP path as a key: lower case, no query, no trailing slash, no leading version segment
 * (`/v2/locations` is the `/locations` the spec's server URL already scopes), and every
 * parameter (`{locationId}`, `{id}`, `:id`) reduced to `{}`.
 */
function normalizePath(path: string): string {
  const withoutQuery = path.normalize('NFKC').split(/[?#]/)[0]!;
  const segments = withoutQuery
    .split('/')
    .filter((segment) => segment.length > 0)
    .map((segment) => (/^\{[^}]*\}$|^:\w+$/.test(segment) ? '{}' : segment.toLowerCase()));
  if (segments.length > 1 && /^v\d+(\.\d+)?$/.test(segments[0]!)) segments.shift();
  return `/${segments.join('/')}`;
}

function normalizeEndpoint(name: string): string {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(name.normalize('NFKC'));
  if (match) return `${match[1]!.toUpperCase()} ${normalizePath(match[2]!)}`;
  const bare = name.trim();
  return bare.startsWith('/') ? normalizePath(bare) : normalizeText(name);
}

/** "Algorithm 3.2", "Equation A.8.", "3.2" → "3.2" / "A.8"; falls back to text when unnumbered. */
function normalizeNumbered(name: string): string {
  const match = /(?:^|[^\p{L}\p{N}.])((?:\d+|[A-Z])(?:\.\d+)*)(?=$|[^\p{L}\p{N}]|\.(?!\d))/u.exec(
    name.normalize('NFKC'),
  );
  return match ? match[1]! : normalizeText(name);
}

/** Letters and digits upper-cased, a plural `s` dropped: "POMDPs", "R-MAX", "U.S." → "POMDP", "RMAX", "US". */
function normalizeAcronym(name: string): string {
  const compact = name.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '');
  const singular = /^[\p{Lu}\p{N}]{2,}s$/u.test(compact) ? compact.slice(0, -1) : compact;
  return singular.toUpperCase();
}

/**
 * The resolution key of a name within its type. Endpoint keeps the method (upper case) and
 * path shape; numbered types are their number; Acronym is its letters; DocPage is its document
 * id as written; everything else is normalised text.
 */
export function normalizeEntityName(type: string, name: string): string {
  if (type === 'Endpoint') return normalizeEndpoint(name);
  // A page is its document id, a path: case, dots and plurals are part of it.
  if (type === 'DocPage') return name.normalize('NFKC').trim();
  if (NUMBERED_TYPES.has(type)) return normalizeNumbered(name);
  if (type === 'Acronym') return normalizeAcronym(name);
  return normalizeText(name, CODE_TYPES.has(type));
}

export function entityKey(type: string, name: string): string {
  return `${type}:${normalizeEntityName(type, name)}`;
}

// ---------------------------------------------------------------------------------------------
// mergeFacts

/** Union-find over entity keys; the root of a set is the key its entities merge into. */
class KeySets {
  private readonly parent = new Map<string, string>();
  private readonly rank = new Map<string, number>();

  /** Adds a key; a lower rank makes it the preferred root of any set it joins. */
  add(key: string, rank: number): void {
    if (!this.parent.has(key)) this.parent.set(key, key);
    this.rank.set(key, Math.min(rank, this.rank.get(key) ?? rank));
  }

  has(key: string): boolean {
    return this.parent.has(key);
  }

  find(key: string): string {
    let root = key;
    for (
      let next = this.parent.get(root);
      next !== undefined && next !== root;
      next = this.parent.get(root)
    ) {
      root = next;
    }
    return root;
  }

  union(a: string, b: string): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA === rootB) return;
    const rankA = this.rank.get(rootA) ?? Number.MAX_SAFE_INTEGER;
    const rankB = this.rank.get(rootB) ?? Number.MAX_SAFE_INTEGER;
    const [keep, drop] = rankA <= rankB ? [rootA, rootB] : [rootB, rootA];
    this.parent.set(drop, keep);
  }
}

interface Group {
  key: string;
  members: EntityFact[];
}

/** Values that do not count as "set" when properties are merged. */
function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function mergeProperties(
  sources: ReadonlyArray<Record<string, unknown> | undefined>,
): Record<string, unknown> | undefined {
  const merged: Record<string, unknown> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (isEmptyValue(merged[name]) && !isEmptyValue(value)) merged[name] = value;
    }
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function sortedUniqueSpans(spans: readonly Span[]): Span[] {
  const seen = new Set<string>();
  const unique: Span[] = [];
  for (const span of spans) {
    const id = `${span.start}:${span.end}`;
    if (!seen.has(id)) {
      seen.add(id);
      unique.push({ start: span.start, end: span.end });
    }
  }
  return unique.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The most used spelling (by mentions, at least one per fact), first seen on a tie. */
function preferredName(members: readonly EntityFact[]): string {
  const weight = new Map<string, number>();
  for (const member of members) {
    weight.set(member.name, (weight.get(member.name) ?? 0) + Math.max(1, member.mentions.length));
  }
  let best = members[0]!.name;
  for (const [name, count] of weight) if (count > weight.get(best)!) best = name;
  return best;
}

function mergeGroup(group: Group): EntityFact {
  const canonical = group.members.filter((member) => entityKey(member.type, member.name) === group.key);
  const named = canonical.length > 0 ? canonical : group.members;
  const name = preferredName(named);
  const aliases: string[] = [];
  for (const spelling of group.members.flatMap((member) => [member.name, ...(member.aliases ?? [])])) {
    if (spelling !== name && !aliases.includes(spelling)) aliases.push(spelling);
  }
  const merged: EntityFact = {
    type: named[0]!.type,
    name,
    mentions: sortedUniqueSpans(group.members.flatMap((member) => member.mentions)),
  };
  if (aliases.length > 0) merged.aliases = aliases;
  const properties = mergeProperties(group.members.map((member) => member.properties));
  if (properties) merged.properties = properties;
  const definition = group.members.find((member) => member.definition)?.definition;
  if (definition) merged.definition = { start: definition.start, end: definition.end };
  return merged;
}

/** Declared aliases (canonical name → spellings) as if the canonical entities carried them. */
function withDeclaredAliases(
  entities: readonly EntityFact[],
  declared: Record<string, string[]>,
): EntityFact[] {
  const byText = new Map<string, string[]>();
  for (const [canonical, spellings] of Object.entries(declared)) {
    const text = normalizeText(canonical);
    byText.set(text, [...(byText.get(text) ?? []), ...spellings]);
  }
  if (byText.size === 0) return [...entities];
  return entities.map((entity) => {
    const spellings = byText.get(normalizeText(entity.name));
    if (!spellings) return entity;
    const aliases = [...(entity.aliases ?? [])];
    for (const spelling of spellings) if (!aliases.includes(spelling)) aliases.push(spelling);
    return { ...entity, aliases };
  });
}

/**
 * A lookup from (type, spelling) to the key of the entity that carries the spelling as an alias.
 * Aliases are compared as plain text (an acronym's long form is not an acronym), and a spelling
 * found as a Concept also resolves: Concept is where free text lands when nothing typed it,
 * so "Large Eddy Simulation" the Concept is LES the Acronym once the document says so.
 */
function aliasLookup(entities: readonly EntityFact[]) {
  const byText = new Map<string, { type: string; key: string }[]>();
  for (const entity of entities) {
    const key = entityKey(entity.type, entity.name);
    for (const spelling of entity.aliases ?? []) {
      const text = normalizeText(spelling);
      const targets = byText.get(text) ?? [];
      if (text.length > 0 && !targets.some((target) => target.key === key))
        targets.push({ type: entity.type, key });
      byText.set(text, targets);
    }
  }
  return (type: string, name: string): string | undefined => {
    const targets = byText.get(normalizeText(name)) ?? [];
    const sameType = targets.find((target) => target.type === type);
    if (sameType) return sameType.key;
    return type === 'Concept' ? targets[0]?.key : undefined;
  };
}

/**
 * Merges fact sets of one document so that each thing is one entity: same-key entities and
 * declared aliases collapse; relations are re-pointed at the merged entities, deduplicated by
 * (from, to, type) with weights summed (a missing weight counts 1), and self-relations dropped.
 *
 * @param aliases canonical name → other spellings of it (matched against entity names of any type)
 */
export function mergeFacts(
  facts: readonly DocumentFacts[],
  aliases: Record<string, string[]> = {},
): DocumentFacts {
  const entities = withDeclaredAliases(
    facts.flatMap((fact) => fact.entities),
    aliases,
  );
  const sets = new KeySets();
  // Which key a merged set keeps: one that carries aliases (it names the canonical thing), of a
  // specific type rather than Concept (the catch-all), then the first seen, so the result does
  // not depend on hash order.
  entities.forEach((entity, index) => {
    const tier = ((entity.aliases?.length ?? 0) > 0 ? 0 : 2) + (entity.type === 'Concept' ? 1 : 0);
    sets.add(entityKey(entity.type, entity.name), tier * entities.length + index);
  });
  const lookup = aliasLookup(entities);
  for (const entity of entities) {
    const canonical = lookup(entity.type, entity.name);
    if (canonical !== undefined) sets.union(canonical, entityKey(entity.type, entity.name));
  }

  const groups = new Map<string, Group>();
  for (const entity of entities) {
    const root = sets.find(entityKey(entity.type, entity.name));
    const group = groups.get(root) ?? { key: root, members: [] };
    group.members.push(entity);
    groups.set(root, group);
  }
  const merged = new Map<string, EntityFact>();
  for (const [root, group] of groups) merged.set(root, mergeGroup(group));

  // A relation may name an entity no fact set lists, or one only by an alias spelling.
  const resolve = (ref: EntityRef): { key: string; ref: EntityRef } => {
    const own = entityKey(ref.type, ref.name);
    const key = sets.has(own) ? sets.find(own) : sets.find(lookup(ref.type, ref.name) ?? own);
    const entity = merged.get(key);
    return {
      key,
      ref: entity ? { type: entity.type, name: entity.name } : { type: ref.type, name: ref.name },
    };
  };

  const relations = new Map<string, { relation: RelationFact; sources: RelationFact[] }>();
  for (const relation of facts.flatMap((fact) => fact.relations)) {
    let from = resolve(relation.from);
    let to = resolve(relation.to);
    if (from.key === to.key) continue;
    if (SYMMETRIC_RELATIONS.has(relation.type) && from.key > to.key) [from, to] = [to, from];
    const id = `${from.key}\u0000${to.key}\u0000${relation.type}`;
    const existing = relations.get(id);
    if (existing) {
      existing.relation.weight = (existing.relation.weight ?? 1) + (relation.weight ?? 1);
      existing.sources.push(relation);
    } else {
      relations.set(id, {
        relation: { from: from.ref, to: to.ref, type: relation.type, weight: relation.weight ?? 1 },
        sources: [relation],
      });
    }
  }
  return {
    entities: [...merged.values()],
    relations: [...relations.values()].map(({ relation, sources }) => {
      const properties = mergeProperties(sources.map((source) => source.properties));
      return properties ? { ...relation, properties } : relation;
    }),
  };
}
