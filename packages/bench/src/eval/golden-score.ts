import type { AnswerObservation } from './answerer.js';
import type { GoldenCategory, GoldenEntry } from './golden-dataset.js';
import { mean, percentile } from './metrics.js';

/** How a document id the system returned is matched against an expected one. */
export function sourceMatches(expected: string, sourceId: string): boolean {
  if (expected === sourceId) return true;
  // A bare file path stands for every document the file was split into (`spec.yaml#paths/...`).
  return !expected.includes('#') && sourceId.startsWith(`${expected}#`);
}

const isExpected = (entry: GoldenEntry, sourceId: string) =>
  entry.expectedSources.some((expected) => sourceMatches(expected, sourceId));

/** Scores from a judge model, when one is configured. */
export interface JudgeScores {
  faithfulness: number;
  relevance: number;
  reason: string;
}

/** One question's outcome: everything the report and `--compare` need. */
export interface QuestionResult {
  id: string;
  category: GoldenCategory;
  question: string;
  mustRefuse: boolean;
  refused: boolean;
  /** Whether the refusal decision was right (refused exactly when it must). */
  refusalCorrect: boolean;
  /** Rank (1-based) of the first expected document among the top k retrieved; null when absent. */
  firstRelevantRank: number | null;
  hit: boolean;
  reciprocalRank: number;
  /** For the endpoint precision set: whether the first retrieved document is an expected one. */
  topIsExpected: boolean | null;
  /** For the precision set: whether ragAnswer's first citation is an expected document. */
  firstCitationIsExpected: boolean | null;
  /** For the precision set: whether a plain search's first hit is expected (null: not searched). */
  searchTopIsExpected: boolean | null;
  factsFound: string[];
  factsMissing: string[];
  /** Share of the expected facts the answer contains (a refusal contains none). */
  answerRecall: number;
  citationCoverage: number;
  /** Share of the citations that point at an expected document. */
  citationPrecision: number | null;
  citations: string[];
  retrieved: string[];
  answer: string;
  coldMs: number;
  /** Whether even the first pass was answered from the cache (an endpoint run on a warm server). */
  coldCached: boolean;
  warmMs: number | null;
  warmCached: boolean | null;
  stages: Array<{ name: string; ms: number }>;
  judge: JudgeScores | null;
  /** `[CODE] message` when the question could not be answered at all. */
  error: string | null;
}

export function scoreQuestion(
  entry: GoldenEntry,
  cold: AnswerObservation,
  warm: AnswerObservation | null,
  k: number,
  judge: JudgeScores | null = null,
  error: string | null = null,
  searched: readonly string[] | null = null,
): QuestionResult {
  const top = cold.retrieved.slice(0, k);
  const index = entry.mustRefuse ? -1 : top.findIndex((sourceId) => isExpected(entry, sourceId));
  const answer = cold.answer.toLowerCase();
  const found = cold.refused ? [] : entry.expectedFacts.filter((fact) => answer.includes(fact.toLowerCase()));
  return {
    id: entry.id,
    category: entry.category,
    question: entry.question,
    mustRefuse: entry.mustRefuse,
    refused: cold.refused,
    // A question that could not be answered at all decided nothing, rightly or not.
    refusalCorrect: error === null && cold.refused === entry.mustRefuse,
    firstRelevantRank: index === -1 ? null : index + 1,
    hit: index !== -1,
    reciprocalRank: index === -1 ? 0 : 1 / (index + 1),
    topIsExpected: entry.precisionSet ? top.length > 0 && isExpected(entry, top[0]!) : null,
    firstCitationIsExpected: entry.precisionSet
      ? cold.citations.length > 0 && isExpected(entry, cold.citations[0]!)
      : null,
    searchTopIsExpected:
      entry.precisionSet && searched !== null ? searched.length > 0 && isExpected(entry, searched[0]!) : null,
    factsFound: found,
    factsMissing: entry.expectedFacts.filter((fact) => !found.includes(fact)),
    answerRecall:
      entry.expectedFacts.length === 0 ? (cold.refused ? 0 : 1) : found.length / entry.expectedFacts.length,
    citationCoverage: cold.citationCoverage,
    citationPrecision:
      cold.citations.length === 0 || entry.mustRefuse
        ? null
        : cold.citations.filter((sourceId) => isExpected(entry, sourceId)).length / cold.citations.length,
    citations: cold.citations,
    retrieved: top,
    answer: cold.answer,
    coldMs: cold.totalMs,
    coldCached: cold.cached,
    warmMs: warm?.totalMs ?? null,
    warmCached: warm?.cached ?? null,
    stages: cold.stages,
    judge,
    error,
  };
}

export interface Distribution {
  p50: number;
  p95: number;
}

export interface GoldenSummary {
  questions: number;
  answerable: number;
  /** Answerable questions with an expected document in the top k. */
  hitRate: number;
  mrr: number;
  answerRecall: number;
  citationCoverage: number;
  citationPrecision: number;
  refusal: {
    /** Out-of-corpus questions refused. */
    refusedWhenRequired: number;
    required: number;
    /** Answerable questions refused anyway. */
    falseRefusals: number;
    accuracy: number;
  };
  endpointPrecision: {
    questions: number;
    /** ragAnswer's first retrieved document. */
    precisionAt1: number;
    /** ragAnswer's first citation. */
    firstCitationAt1: number;
    /** A plain search's first hit (GraphQL `search`); null when the answerer cannot search. */
    searchAt1: number | null;
    target: number;
    met: boolean;
  };
  latency: { totalMs: Distribution; stages: Record<string, Distribution> };
  cache: {
    coldMs: Distribution;
    warmMs: Distribution | null;
    warmHitRate: number | null;
    speedup: number | null;
  };
  judge: { faithfulness: number; relevance: number; judged: number } | null;
}

export const ENDPOINT_PRECISION_TARGET = 0.9;

const distribution = (values: readonly number[]): Distribution => ({
  p50: percentile(values, 0.5),
  p95: percentile(values, 0.95),
});

export function summarize(results: readonly QuestionResult[]): GoldenSummary {
  const answerable = results.filter((result) => !result.mustRefuse);
  const required = results.filter((result) => result.mustRefuse);
  const precisionSet = results.filter((result) => result.topIsExpected !== null);
  const precisionAt1 = mean(precisionSet.map((result) => (result.topIsExpected ? 1 : 0)));
  const searched = precisionSet.filter((result) => result.searchTopIsExpected !== null);
  const stageNames = [...new Set(results.flatMap((result) => result.stages.map((stage) => stage.name)))];
  const warm = results.filter((result) => result.warmMs !== null);
  const cold = distribution(results.map((result) => result.coldMs));
  const warmMs = warm.length > 0 ? distribution(warm.map((result) => result.warmMs!)) : null;
  const judged = results.filter((result) => result.judge !== null);
  return {
    questions: results.length,
    answerable: answerable.length,
    hitRate: mean(answerable.map((result) => (result.hit ? 1 : 0))),
    mrr: mean(answerable.map((result) => result.reciprocalRank)),
    answerRecall: mean(answerable.map((result) => result.answerRecall)),
    citationCoverage: mean(
      answerable.filter((result) => !result.refused).map((result) => result.citationCoverage),
    ),
    citationPrecision: mean(
      answerable
        .filter((result) => result.citationPrecision !== null)
        .map((result) => result.citationPrecision!),
    ),
    refusal: {
      refusedWhenRequired: required.filter((result) => result.refused).length,
      required: required.length,
      falseRefusals: answerable.filter((result) => result.refused).length,
      accuracy: mean(results.map((result) => (result.refusalCorrect ? 1 : 0))),
    },
    endpointPrecision: {
      questions: precisionSet.length,
      precisionAt1,
      firstCitationAt1: mean(precisionSet.map((result) => (result.firstCitationIsExpected ? 1 : 0))),
      searchAt1:
        searched.length > 0 ? mean(searched.map((result) => (result.searchTopIsExpected ? 1 : 0))) : null,
      target: ENDPOINT_PRECISION_TARGET,
      met: precisionSet.length > 0 && precisionAt1 >= ENDPOINT_PRECISION_TARGET,
    },
    latency: {
      totalMs: cold,
      stages: Object.fromEntries(
        stageNames.map((name) => [
          name,
          distribution(
            results.flatMap((result) =>
              result.stages.filter((stage) => stage.name === name).map((stage) => stage.ms),
            ),
          ),
        ]),
      ),
    },
    cache: {
      coldMs: cold,
      warmMs,
      warmHitRate: warm.length > 0 ? mean(warm.map((result) => (result.warmCached ? 1 : 0))) : null,
      speedup: warmMs && warmMs.p50 > 0 ? cold.p50 / warmMs.p50 : null,
    },
    judge:
      judged.length > 0
        ? {
            faithfulness: mean(judged.map((result) => result.judge!.faithfulness)),
            relevance: mean(judged.map((result) => result.judge!.relevance)),
            judged: judged.length,
          }
        : null,
  };
}

export interface CategorySummary {
  category: GoldenCategory;
  questions: number;
  /** Null for a category with no answerable question (out-of-corpus). */
  hitRate: number | null;
  mrr: number | null;
  answerRecall: number | null;
  refusalAccuracy: number;
}

export function byCategory(results: readonly QuestionResult[]): CategorySummary[] {
  const categories = [...new Set(results.map((result) => result.category))];
  return categories.map((category) => {
    const inCategory = results.filter((result) => result.category === category);
    const answerable = inCategory.filter((result) => !result.mustRefuse);
    const over = (score: (result: QuestionResult) => number) =>
      answerable.length === 0 ? null : mean(answerable.map(score));
    return {
      category,
      questions: inCategory.length,
      hitRate: over((result) => (result.hit ? 1 : 0)),
      mrr: over((result) => result.reciprocalRank),
      answerRecall: over((result) => result.answerRecall),
      refusalAccuracy: mean(inCategory.map((result) => (result.refusalCorrect ? 1 : 0))),
    };
  });
}
