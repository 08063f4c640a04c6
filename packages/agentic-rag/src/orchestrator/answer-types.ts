/**
 * The answer's own shapes, which the stages, the events, the quarantine and the orchestrator all
 * use: a leaf that imports nothing of the orchestrator, so none of them reaches another for a type.
 */
import type { CitableChunk } from '../store/index.js';

/** Something an answer may cite: a context chunk, or a tool's result. */
export interface Source extends CitableChunk {
  score: number;
  /** The page the cited chunk starts on, for a paged source (PDF). */
  pageNumber?: number;
  /** 0 for the context's first chunk, then the rest in context order; tools are -1 so they lead. */
  rank: number;
  origin: 'primary' | 'reference' | 'tool';
}

export interface Citation {
  /** The [n] the answer uses. */
  index: number;
  /** The document's stable id (its source path), or `tool:<name>` for a tool's result. */
  sourceId: string;
  chunkId: string;
  title: string | null;
  url: string | null;
  snippet: string;
  startOffset: number;
  endOffset: number;
  score: number;
  /** The 1-based page the cited passage starts on, for a paged source (PDF); null otherwise. */
  pageNumber: number | null;
}

export interface SelfCheck {
  passed: boolean;
  /** Share of answer sentences whose words the cited source supports. */
  citationCoverage: number;
  unsupportedSentences: string[];
  warnings: string[];
}

/**
 * What a run reports while it works, in order: each stage as it starts and finishes, then the
 * answer's text in pieces with each citation just before the first piece that cites it. The
 * answer is reported only once it is final (the self-check cannot replace it any more), so no
 * piece of text and no citation is ever taken back; the pieces join to exactly the answer.
 */
export type AnswerEvent =
  | { type: 'stage'; stage: string; status: 'started' }
  | { type: 'stage'; stage: string; status: 'finished'; ms: number }
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Citation };

export type AnswerEventListener = (event: AnswerEvent) => void;
