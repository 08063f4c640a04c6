import { englishWords } from './english.js';

/** Parts shorter than this are not words a compound is made of ("a", "s"), except these. */
const MIN_PART = 3;
const SHORT_PARTS = new Set(['to', 'by', 'of', 'me', 'my', 'up', 'in', 'on', 'id', 'ip']);
const MAX_PARTS = 4;

const memo = new Map<string, string[]>();

/**
 * The English words a run-together name is made of: `worklog` → work, log; `issuelinktype` →
 * issue, link, type; `permissionscheme` → permission, scheme. Specs write path segments and
 * identifiers this way, and a question says "work log" or "link types". A word that is English
 * already, or that no split into dictionary words explains, gives nothing. The split with the
 * fewest parts wins; among those, the one whose first part is longest.
 */
export function compoundParts(word: string): string[] {
  const lower = word.toLowerCase();
  if (lower.length < 2 * MIN_PART || !/^[a-z]+$/.test(lower)) return [];
  const cached = memo.get(lower);
  if (cached) return cached;
  const english = englishWords();
  let parts: string[] = [];
  if (!english.isWord(lower)) {
    // best[i]: the best split of lower.slice(0, i), as parts.
    const best: Array<string[] | null> = Array.from({ length: lower.length + 1 }, () => null);
    best[0] = [];
    for (let end = 1; end <= lower.length; end++) {
      for (let start = 0; start < end; start++) {
        const before = best[start];
        if (!before || before.length >= MAX_PARTS) continue;
        const part = lower.slice(start, end);
        if ((part.length < MIN_PART && !SHORT_PARTS.has(part)) || !english.isWord(part)) continue;
        const candidate = [...before, part];
        const current = best[end];
        if (
          !current ||
          candidate.length < current.length ||
          (candidate.length === current.length && candidate[0]!.length > current[0]!.length)
        )
          best[end] = candidate;
      }
    }
    const whole = best[lower.length];
    parts = whole && whole.length > 1 ? whole : [];
  }
  if (memo.size > 20_000) memo.clear();
  memo.set(lower, parts);
  return parts;
}
