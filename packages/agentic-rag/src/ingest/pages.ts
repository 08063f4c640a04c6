import type { PageStart } from './document.js';

/** The page holding `offset`: the last page starting at or before it (the first page before any). */
export function pageAt(pages: readonly PageStart[], offset: number): number | undefined {
  if (pages.length === 0) return undefined;
  let low = 0;
  let high = pages.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (pages[middle]!.start <= offset) low = middle;
    else high = middle - 1;
  }
  return pages[low]!.page;
}

/**
 * A chunk's page metadata: `page_number` where it starts and `page_end` where its last character
 * is, only when that is another page (snake_case: it is stored JSON that the REST contract reads).
 */
export function chunkPages(
  pages: readonly PageStart[] | undefined,
  start: number,
  end: number,
): { page_number?: number; page_end?: number } {
  if (!pages || pages.length === 0) return {};
  const first = pageAt(pages, start)!;
  const last = pageAt(pages, Math.max(start, end - 1))!;
  return last === first ? { page_number: first } : { page_number: first, page_end: last };
}
