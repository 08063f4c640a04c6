/**
 * The readings of a text a detector should look at: the text as a person would read it once
 * the usual disguises are undone. An instruction hidden with zero-width characters, HTML
 * entities, look-alike letters from another script, letter spacing ("i g n o r e") or base64 is
 * still an instruction to a model that reads the raw text, so each disguise is undone here and
 * the rules run over every reading. The original text is never changed: only what is quarantined
 * is decided from these readings.
 */

/** Zero-width, joiner, bidi-control and soft-hyphen characters: invisible to a reader. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  colon: ':',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Cyrillic and Greek letters that look like Latin ones, as attackers use them to dodge a rule. */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ι: 'i',
  ν: 'v',
  τ: 't',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Χ: 'X',
};
const HOMOGLYPH = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'g');

/** Four or more single letters separated by a space, dot, dash or underscore: "i g n o r e". */
const SPACED_LETTERS =
  /(?<![\p{L}\p{N}])\p{L}(?:(?:[ \t]{1,3}|[ \t]?[._\-·*][ \t]?)\p{L}(?![\p{L}\p{N}])){3,}/gu;

/** A cheap test for ASCII text: could SPACED_LETTERS match at all? */
const SPACED_ASCII =
  /(?:^|[^A-Za-z0-9])[A-Za-z](?:(?:[ \t]{1,3}|[ \t]?[._*-][ \t]?)[A-Za-z](?![A-Za-z0-9])){3}/;
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;

/** A run that could be base64 (or base64url): long, no spaces, from the base64 alphabet. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/_-])/g;

const MAX_DECODED = 4;

export interface Readings {
  /** The text with invisible characters removed, entities decoded and compatibility forms folded. */
  plain: string;
  /** Every other reading worth checking (look-alikes mapped, spacing collapsed, base64 decoded). */
  extra: string[];
  /** Letters only, lower case, of the letter-spaced runs, for rules that cannot rely on spaces. */
  squashed: string[];
  /** The disguises found, for the report ("zero-width", "base64", ...). */
  disguises: string[];
}

export function readingsOf(text: string): Readings {
  const disguises: string[] = [];
  // Plain ASCII (most of any corpus) has no compatibility forms, invisible characters or
  // look-alikes to undo: the Unicode passes are skipped for it.
  const ascii = !NON_ASCII.test(text);
  let plain = ascii ? text : text.normalize('NFKC');
  if (!ascii && INVISIBLE.test(plain)) {
    disguises.push('invisible characters');
    plain = plain.replace(INVISIBLE, '');
  }
  if (plain.includes('&')) {
    const decoded = decodeEntities(plain);
    if (decoded !== plain) disguises.push('HTML entities');
    plain = decoded;
  }
  if (plain.includes('%')) {
    const percent = decodePercent(plain);
    if (percent !== plain) disguises.push('percent-encoding');
    plain = percent;
  }
  // Emphasis and inline-code markers split a phrase for a regular expression, not for a reader.
  plain = plain.replace(/[*`~]+/g, '');

  const extra: string[] = [];
  const squashed: string[] = [];
  if (!ascii && /[\p{Script=Latin}]/u.test(plain) && HOMOGLYPH.test(plain)) {
    HOMOGLYPH.lastIndex = 0;
    const mapped = plain.replace(HOMOGLYPH, (letter) => HOMOGLYPHS[letter] ?? letter);
    if (mapped !== plain) {
      extra.push(mapped);
      disguises.push('look-alike letters');
    }
  }
  HOMOGLYPH.lastIndex = 0;
  const spaced =
    ascii && !SPACED_ASCII.test(plain) ? [] : [...plain.matchAll(SPACED_LETTERS)].map((match) => match[0]);
  if (spaced.length > 0) {
    disguises.push('letter spacing');
    extra.push(plain.replace(SPACED_LETTERS, (run) => collapseSpacing(run)));
    for (const run of spaced) squashed.push(run.toLowerCase().replace(/[^\p{L}]+/gu, ''));
  }
  for (const blob of (plain.match(BASE64_RUN) ?? []).slice(0, MAX_DECODED)) {
    const text = decodeBase64(blob);
    if (text) {
      extra.push(text);
      disguises.push('base64');
    }
  }
  return { plain, extra, squashed, disguises: [...new Set(disguises)] };
}

/** "i g n o r e  a l l" → "ignore all": a double gap (or a slash) separates words, a single one letters. */
function collapseSpacing(run: string): string {
  // "i.g.n.o.r.e t.h.e" separates letters with dots and words with spaces; "i g n o r e  t h e"
  // separates letters with one space and words with two.
  const words = /[._\-·*]/.test(run) ? run.split(/\s+/) : run.split(/[ \t]{2,}|\s*[/|]\s*/);
  return words.map((word) => word.replace(/[ \t._\-·*]+/g, '')).join(' ');
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});?/gi, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** `%69%67%6E…`: three or more escapes in a row are a disguise, a lone %20 in a URL is not worth it. */
function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2}){3,}/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The text a base64 run decodes to, when it is readable prose (mostly printable, with spaces);
 * null for identifiers, hashes and binary that merely use the alphabet.
 */
function decodeBase64(blob: string): string | null {
  // Identifiers like `nwf_live_…` or camelCase names are not base64 payloads: a payload of
  // prose has no run of lower-case letters broken by underscores only.
  if (/^[a-z_]+$/i.test(blob)) return null;
  const text = Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  if (text.length < 12) return null;
  const printable = [...text].filter((character) => /[\p{L}\p{N}\p{P}\p{Zs}]/u.test(character)).length;
  const spaces = text.split(' ').length - 1;
  return printable / [...text].length >= 0.95 && spaces >= 2 ? text : null;
}
