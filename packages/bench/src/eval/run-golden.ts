import { ErrorCode, toRagError } from '@agentic-rag/core';
import type { AnswerObservation, Answerer } from './answerer.js';
import type { GoldenEntry } from './golden-dataset.js';
import {
  byCategory,
  scoreQuestion,
  summarize,
  type CategorySummary,
  type GoldenSummary,
  type JudgeScores,
  type QuestionResult,
} from './golden-score.js';
import type { LlmJudge } from './llm-judge.js';

export interface GoldenReport {
  kind: 'golden';
  dataset: string;
  answerer: string;
  workspaceId: string;
  k: number;
  startedAt: string;
  seconds: number;
  summary: GoldenSummary;
  categories: CategorySummary[];
  results: QuestionResult[];
}

export type GoldenPass = 'cold' | 'warm' | 'judge';

export interface RunGoldenOptions {
  dataset: string;
  entries: readonly GoldenEntry[];
  answerer: Answerer;
  workspaceId: string;
  /** Retrieved documents that count for hit rate and MRR. */
  k?: number;
  /** Ask every question a second time, to measure the answer cache. */
  warmPass?: boolean;
  judge?: LlmJudge | null;
  /** Empties the answer cache first, so the first pass is cold (library runs only). */
  clearCache?: () => Promise<void>;
  onProgress?: (pass: GoldenPass, done: number, total: number) => void;
}

/**
 * Every question of a golden set through a real `ragAnswer`: a cold pass (scored), a warm pass
 * (the same questions again: what the cache does), and the judge when configured. A question that
 * fails is recorded with its error code and scored as a miss; the run goes on.
 */
/**
 * A refused key fails every question the same way: a run that went on would report 0% on every
 * metric, with the reason only in the per-question report. It stops at the first one instead.
 */
const STOPS_THE_RUN: ReadonlySet<string> = new Set([ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN]);

export async function runGolden(options: RunGoldenOptions): Promise<GoldenReport> {
  const { entries, answerer, workspaceId } = options;
  const k = options.k ?? 10;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  await options.clearCache?.();

  const ask = async (
    entry: GoldenEntry,
  ): Promise<{ observation: AnswerObservation; error: string | null }> => {
    const begun = performance.now();
    try {
      // k is both what is asked for (topK) and what is scored: the ranking has k places.
      return { observation: await answerer.answer(entry.question, workspaceId, k), error: null };
    } catch (error) {
      const ragError = toRagError(error);
      if (STOPS_THE_RUN.has(ragError.code)) throw ragError;
      return {
        observation: {
          answer: '',
          refused: false,
          cached: false,
          runId: '',
          citations: [],
          retrieved: [],
          citationCoverage: 0,
          stages: [],
          totalMs: performance.now() - begun,
          snippets: [],
        },
        error: `[${ragError.code}] ${ragError.message}`,
      };
    }
  };

  const cold: Array<{ observation: AnswerObservation; error: string | null }> = [];
  for (const entry of entries) {
    cold.push(await ask(entry));
    options.onProgress?.('cold', cold.length, entries.length);
  }
  // The precision set's plain search, as GraphQL `search` returns it: is its first hit the
  // expected operation? A search that fails scores nothing rather than a miss.
  const searched: Array<string[] | null> = [];
  for (const entry of entries) {
    searched.push(
      entry.precisionSet && answerer.search
        ? await answerer.search(entry.question, workspaceId).catch((error: unknown) => {
            if (STOPS_THE_RUN.has(toRagError(error).code)) throw error;
            return null;
          })
        : null,
    );
  }
  const warm: Array<AnswerObservation | null> = [];
  if (options.warmPass ?? true) {
    for (const entry of entries) {
      const { observation, error } = await ask(entry);
      warm.push(error ? null : observation);
      options.onProgress?.('warm', warm.length, entries.length);
    }
  }
  const judged: Array<JudgeScores | null> = [];
  if (options.judge) {
    for (const [index, entry] of entries.entries()) {
      const { observation, error } = cold[index]!;
      judged.push(
        error || observation.refused
          ? null
          : await options.judge.judge(entry.question, observation.answer, observation.snippets),
      );
      options.onProgress?.('judge', judged.length, entries.length);
    }
  }

  const results = entries.map((entry, index) =>
    scoreQuestion(
      entry,
      cold[index]!.observation,
      warm[index] ?? null,
      k,
      judged[index] ?? null,
      cold[index]!.error,
      searched[index] ?? null,
    ),
  );
  return {
    kind: 'golden',
    dataset: options.dataset,
    answerer: answerer.name,
    workspaceId,
    k,
    startedAt,
    seconds: (performance.now() - started) / 1000,
    summary: summarize(results),
    categories: byCategory(results),
    results,
  };
}
