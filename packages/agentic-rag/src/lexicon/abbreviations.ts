/**
 * Shorthand developers type for the words documentation spells out. Two sources:
 *
 * 1. This table: clippings and acronyms of general software vocabulary, the kind any developer
 *    types ("repo", "PR", "creds", "2FA"), never the name of one product's resources. A word is
 *    here only when its long form is unambiguous in software documentation; each entry is a
 *    sentence in docs/search.md's list.
 * 2. The corpus (see `learnedAbbreviations`): acronyms of the multi-word names a workspace uses
 *    ("merge request" → MR, "pull request" → PR) and clippings of its words ("proj" → project).
 *
 * An expansion is searched beside the word as typed, weighted as the word itself: "repo" and
 * "repository" are one thing.
 */
export const DEVELOPER_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  '2fa': ['two factor authentication'],
  mfa: ['multi factor authentication'],
  acct: ['account'],
  addr: ['address'],
  admin: ['administrator'],
  app: ['application'],
  arg: ['argument'],
  attr: ['attribute'],
  auth: ['authentication', 'authorization'],
  cert: ['certificate'],
  ci: ['continuous integration'],
  config: ['configuration'],
  creds: ['credentials'],
  cred: ['credential'],
  db: ['database'],
  dir: ['directory'],
  dm: ['direct message'],
  doc: ['document'],
  env: ['environment'],
  info: ['information'],
  msg: ['message'],
  mr: ['merge request'],
  org: ['organization', 'organisation'],
  param: ['parameter'],
  perm: ['permission'],
  perms: ['permissions'],
  pkg: ['package'],
  pr: ['pull request'],
  prod: ['production'],
  pw: ['password'],
  pwd: ['password'],
  repo: ['repository'],
  sso: ['single sign on'],
  stats: ['statistics'],
  sub: ['subscription'],
  tz: ['timezone', 'time zone'],
  txn: ['transaction'],
  var: ['variable'],
  vm: ['virtual machine'],
};

/** The table as a map: an object would answer "constructor" or "__proto__" with its own members. */
const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(DEVELOPER_ABBREVIATIONS),
);

/** Plurals and possessives of the table's words: "repos", "PRs", "orgs". */
export function tableExpansions(word: string): readonly string[] {
  const lower = word.toLowerCase().replace(/['’]s$/, '');
  const direct = ABBREVIATIONS.get(lower);
  if (direct) return direct;
  if (lower.endsWith('s')) {
    const singular = ABBREVIATIONS.get(lower.slice(0, -1));
    if (singular) return singular.map(plural);
  }
  return [];
}

function plural(phrase: string): string {
  if (/(s|x|z|ch|sh)$/.test(phrase)) return `${phrase}es`;
  if (/[^aeiou]y$/.test(phrase)) return `${phrase.slice(0, -1)}ies`;
  return `${phrase}s`;
}

/** A name's words in order: `merge_requests` and "Merge requests" both give merge, requests. */
function nameParts(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Acronyms of the multi-word names a corpus uses, each with its long forms ("mr" → "merge
 * requests", "merge request"): every run of two or three words of a name whose initials spell it.
 * Names are what a corpus calls its things (path segments, identifiers, headings, titles), so their
 * acronyms are what a reader would abbreviate them to.
 */
export function learnedAcronyms(names: Iterable<string>): Map<string, string[]> {
  const found = new Map<string, Map<string, number>>();
  for (const name of names) {
    const words = nameParts(name);
    for (let length = 2; length <= 3; length++) {
      for (let start = 0; start + length <= words.length; start++) {
        const run = words.slice(start, start + length);
        if (run.some((word) => word.length < 2 || /\d/.test(word))) continue;
        const acronym = run.map((word) => word[0]).join('');
        const phrase = run.join(' ');
        const counts = found.get(acronym) ?? new Map<string, number>();
        counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
        found.set(acronym, counts);
      }
    }
  }
  const acronyms = new Map<string, string[]>();
  for (const [acronym, phrases] of found) {
    acronyms.set(
      acronym,
      [...phrases.entries()]
        .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
        .map(([phrase]) => phrase),
    );
  }
  return acronyms;
}

/**
 * The words of a vocabulary that a clipped word shortens ("proj" → project, projects; "env" →
 * environment): words that start with it and are at least half again as long. Only for a word
 * that is neither English nor in the vocabulary itself, so "log" never becomes "login".
 */
export function clippingsOf(word: string, vocabulary: Iterable<string>): string[] {
  const lower = word.toLowerCase();
  if (lower.length < 3) return [];
  const found: string[] = [];
  for (const candidate of vocabulary) {
    if (candidate.length >= lower.length * 1.5 && candidate.startsWith(lower)) found.push(candidate);
  }
  return found;
}
