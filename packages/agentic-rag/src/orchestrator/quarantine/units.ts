/**
 * The smallest pieces of a chunk that can be quarantined on their own: a sentence, a list item's
 * sentence, a table row, a heading, a fenced code block or an HTML comment. Each carries its
 * exact span in the chunk, so removing it leaves every other character of the chunk as it was,
 * and the block it belongs to (a paragraph, a list item, a table), so weak evidence next to a
 * quarantined unit can be judged in context.
 */
export type UnitKind = 'sentence' | 'item' | 'row' | 'heading' | 'code' | 'comment';

export interface Unit {
  kind: UnitKind;
  text: string;
  start: number;
  end: number;
  /** Units of one paragraph, list item or table share a block number. */
  block: number;
}

// A sentence ends at . ! or ? (and any closing quote or bracket) followed by space and something
// that starts one; "e.g. the" and "3.2 shows" stay whole.
const SENTENCE_END = /[.!?]["'”’)\]]*\s+(?=[\p{Lu}\p{N}"'“‘([<`*#¿¡])/gu;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|Fig|Eq|Sec|No|cf|Mr|Ms|Dr|St|approx)\.["'”’)\]]*\s+$/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+/;
const LIST_MARKER_ONLY = /^\s*(?:[-*+•]|\d+[.)]|[a-z][.)])\s*$/i;

export function splitUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let block = 0;
  // HTML comments may span lines and hide anywhere: they are units of their own, and the text
  // around them is split with the comment blanked out (same length, so spans stay true).
  let rest = text;
  for (const match of text.matchAll(/<!--[\s\S]*?(?:-->|$)/g)) {
    units.push({
      kind: 'comment',
      text: match[0],
      start: match.index,
      end: match.index + match[0].length,
      block: block++,
    });
    rest =
      rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice(match.index + match[0].length);
  }

  const lines = lineSpans(rest);
  let paragraph: Array<{ start: number; end: number }> = [];
  let paragraphKind: 'sentence' | 'item' = 'sentence';
  const flush = () => {
    if (paragraph.length > 0) {
      const start = paragraph[0]!.start;
      const end = paragraph.at(-1)!.end;
      for (const sentence of sentenceSpans(rest, start, end))
        units.push({
          kind: paragraphKind,
          ...sentence,
          text: text.slice(sentence.start, sentence.end),
          block,
        });
      block++;
    }
    paragraph = [];
    paragraphKind = 'sentence';
  };
  let inTable = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const trimmed = rest.slice(line.start, line.end).trim();
    if (!trimmed.startsWith('|') && inTable) {
      inTable = false;
      block++;
    }
    if (/^(```|~~~)/.test(trimmed)) {
      flush();
      const fence = trimmed.slice(0, 3);
      let end = line.end;
      while (++index < lines.length) {
        end = lines[index]!.end;
        if (rest.slice(lines[index]!.start, lines[index]!.end).trim().startsWith(fence)) break;
      }
      units.push({ kind: 'code', text: text.slice(line.start, end), start: line.start, end, block: block++ });
    } else if (trimmed === '') {
      flush();
    } else if (/^#{1,6}\s/.test(trimmed)) {
      flush();
      units.push({
        kind: 'heading',
        text: text.slice(line.start, line.end),
        start: line.start,
        end: line.end,
        block: block++,
      });
    } else if (trimmed.startsWith('|')) {
      flush();
      inTable = true;
      // The separator row (|---|---|) says nothing.
      if (!/^[|\s:-]+$/.test(trimmed))
        units.push({
          kind: 'row',
          text: text.slice(line.start, line.end),
          start: line.start,
          end: line.end,
          block,
        });
    } else if (LIST_ITEM.test(trimmed)) {
      flush();
      paragraphKind = 'item';
      paragraph.push(line);
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return units.filter((unit) => unit.text.trim() !== '').sort((left, right) => left.start - right.start);
}

function lineSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    spans.push({ start, end });
    if (newline === -1) return spans;
    start = newline + 1;
  }
}

/** Sentence spans of text[start, end), trimmed, rejoining splits after common abbreviations. */
function sentenceSpans(text: string, start: number, end: number): Array<{ start: number; end: number }> {
  const paragraph = text.slice(start, end);
  const spans: Array<{ start: number; end: number }> = [];
  let from = 0;
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    const cut = match.index + match[0].length;
    // "e.g. The" is one sentence, and so is "3. Assistant: …": a list marker starts its item.
    if (ABBREVIATION.test(paragraph.slice(from, cut)) || LIST_MARKER_ONLY.test(paragraph.slice(from, cut)))
      continue;
    spans.push({ start: from, end: cut });
    from = cut;
  }
  spans.push({ start: from, end: paragraph.length });
  return spans.flatMap((span) => {
    const piece = paragraph.slice(span.start, span.end);
    const leading = piece.length - piece.trimStart().length;
    const trimmed = piece.trim();
    return trimmed
      ? [{ start: start + span.start + leading, end: start + span.start + leading + trimmed.length }]
      : [];
  });
}
