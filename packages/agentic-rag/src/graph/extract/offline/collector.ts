import type { RelationFact, Span } from '../../facts.js';

/** Mentions as the scanners find them, before types are settled and names merged. */

export interface Candidate {
  type: string;
  name: string;
  span: Span;
  properties?: Record<string, unknown>;
  /** Derived from another mention (an endpoint's resource): no co-mention edges of its own. */
  derived?: boolean;
  /** Only in a heading: kept only if the same thing is also named in the body. */
  headingOnly?: boolean;
  aliases?: string[];
  definition?: Span;
}

/** An identifier-shaped code name whose type depends on all its mentions in the document. */
export interface CodeName {
  name: string;
  span: Span;
  shape: 'snake' | 'word' | 'pascal' | 'pascal-word' | 'other';
  errorContext: boolean;
  schemaContext: boolean;
  properties?: Record<string, unknown>;
}

export interface AcronymDefinition {
  acronym: string;
  /** Where the acronym itself is written in the definition. */
  shortSpan: Span;
  longForm: string;
  longFormSpan: Span;
  definition: Span;
}

export class Collector {
  readonly candidates: Candidate[] = [];
  readonly codeNames: CodeName[] = [];
  readonly relations: RelationFact[] = [];
  /** One flag per UTF-16 unit of the text: taken by an earlier, more specific scanner. */
  private readonly claimed: Uint8Array;

  constructor(length: number) {
    this.claimed = new Uint8Array(length);
  }

  overlapsClaimed(start: number, end: number): boolean {
    return this.claimed.subarray(start, end).includes(1);
  }

  claim(start: number, end: number): void {
    this.claimed.fill(1, start, end);
  }

  add(candidate: Candidate): void {
    this.candidates.push(candidate);
    if (!candidate.derived) this.claim(candidate.span.start, candidate.span.end);
  }

  /**
   * Adds the unclaimed uses of a phrase in `prose` as mentions: its words apart by any run of
   * `separators` (the body of a character class), a plural ending allowed, whole words only.
   */
  addPhraseUses(
    prose: string,
    phrase: string,
    separators: string,
    mention: { type: string; name: string },
  ): void {
    const words = phrase
      .split(new RegExp(`[${separators}]+`))
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])${words.join(`[${separators}]+`)}(?:e?s)?(?![\\p{L}\\p{N}])`,
      'giu',
    );
    for (const use of prose.matchAll(pattern)) {
      const end = use.index + use[0].length;
      if (!this.overlapsClaimed(use.index, end)) this.add({ ...mention, span: { start: use.index, end } });
    }
  }

  addCodeName(codeName: CodeName): void {
    this.codeNames.push(codeName);
    this.claim(codeName.span.start, codeName.span.end);
  }
}
