/**
 * The words of a question, each with what kind of thing it is. Only plain words are language:
 * a flag (`--allow-unrelated-histories`, `-x`), an identifier (`listLocations`, `pickup_cutoff`,
 * `os.path.join`), a path (`/v1/customers`, `~/.gitconfig`), a file extension (`.psd`), a number
 * or a code span is a name, and nothing may spell-correct, stem away or expand it.
 */

export type TokenKind = 'word' | 'acronym' | 'flag' | 'identifier' | 'path' | 'extension' | 'number' | 'code';

export interface Token {
  /** As written. */
  text: string;
  /** Lower case. */
  lower: string;
  kind: TokenKind;
  start: number;
  end: number;
}

/** Checked in order at each position: the first that matches there takes the characters. */
const PATTERNS: ReadonlyArray<[TokenKind, RegExp]> = [
  ['code', /`[^`\n]+`/y],
  // A leading hyphen after a space or the start: "-x", "--no-ff"; "re-run" is a word.
  ['flag', /--?[A-Za-z0-9][\w-]*(?:=[^\s,;)]+)?/y],
  ['path', /(?:~|\.{1,2})?\/[\w.{}~:@%+-]+(?:\/[\w.{}~:@%+-]*)*|[\w.-]+(?:\/[\w.{}-]+)+/y],
  ['extension', /\.[A-Za-z][A-Za-z0-9]{0,7}(?:\.[A-Za-z0-9]{1,4})?(?![\w/])/y],
  ['number', /\d+(?:[.,]\d+)*(?:%|[a-z]{1,3}\b)?(?![A-Za-z_])/y],
  // camelCase, PascalCase with an inner capital, snake_case, dotted names, mixed letters and digits.
  [
    'identifier',
    /[A-Za-z_][A-Za-z0-9]*(?:[._:][A-Za-z0-9_]+)+(?:\(\))?|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Za-z]+\d+[A-Za-z0-9]*|\d+[A-Za-z]+[A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*\(\)/y,
  ],
  ['acronym', /[A-Z]{2,}s?(?![a-z])/y],
  ['word', /[\p{L}][\p{L}'’]*(?:-[\p{L}]+)*/uy],
];

/** What may stand before a flag or an extension: the start, a space or an opening bracket/quote. */
const OPENER = /[\s("'[{,;:]/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const before = position === 0 ? ' ' : text[position - 1]!;
    let matched: Token | null = null;
    for (const [kind, pattern] of PATTERNS) {
      if ((kind === 'flag' || kind === 'extension') && !OPENER.test(before)) continue;
      // A dot ends a sentence more often than it starts a name: "a .psd file" but "file.".
      pattern.lastIndex = position;
      const match = pattern.exec(text);
      if (!match || match[0].length === 0) continue;
      let value = match[0];
      // A sentence's final dot is not part of a name.
      if (kind !== 'code' && kind !== 'number') value = value.replace(/[.:]+$/, '');
      if (value.length === 0) continue;
      matched = {
        text: value,
        lower: value.toLowerCase(),
        kind,
        start: position,
        end: position + value.length,
      };
      break;
    }
    if (matched) {
      tokens.push(matched);
      position = matched.end;
    } else position++;
  }
  return tokens;
}

/** Whether a token is a name to keep exactly as written. */
export function isProtected(token: Token): boolean {
  return token.kind !== 'word';
}
