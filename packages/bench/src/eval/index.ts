export { loadBeirDataset } from './beir-dataset.js';
export type { BeirDataset, BeirQuery } from './beir-dataset.js';
export { EVAL_MODES, runBeir } from './run-beir.js';
export type { BeirReport, EvalMode, ModeReport, RunBeirOptions } from './run-beir.js';
export { mean, mrrAt, ndcgAt, percentile, recallAt } from './metrics.js';
export type { Judgments } from './metrics.js';
export { GraphqlAnswerer, LibraryAnswerer } from './answerer.js';
export type { AnswerObservation, Answerer } from './answerer.js';
export { GOLDEN_CATEGORIES, loadGoldenDataset, parseGoldenDataset } from './golden-dataset.js';
export type { GoldenCategory, GoldenEntry } from './golden-dataset.js';
export {
  byCategory,
  ENDPOINT_PRECISION_TARGET,
  scoreQuestion,
  sourceMatches,
  summarize,
} from './golden-score.js';
export type { CategorySummary, GoldenSummary, JudgeScores, QuestionResult } from './golden-score.js';
export { LlmJudge, parseScores } from './llm-judge.js';
export { runGolden } from './run-golden.js';
export type { GoldenPass, GoldenReport, RunGoldenOptions } from './run-golden.js';
export { headline, renderMarkdown, renderSummaryTable, writeGoldenReport } from './golden-report.js';
export { renderChart } from './svg-chart.js';
export { compareReports, loadGoldenReport, renderComparison } from './compare.js';
export type { Comparison, MetricChange, QuestionChange } from './compare.js';
export { lostRows, renderSuiteTable, runSuite, SUITE_DATASETS, suiteRow } from './suite.js';
export type { RunSuiteOptions, SplitRole, SuiteDataset, SuiteRow } from './suite.js';
export {
  API_SPEC_SETS,
  loadApiQuestions,
  loadManualQuestions,
  MANUAL_SETS,
  SPEC_PACKAGE,
} from './answer-sets.js';
export type { ApiQuestion, ApiSpecSet, ManualQuestion, ManualSet } from './answer-sets.js';
export { operationBaseline, pageBaseline, visibleText } from './bm25-baseline.js';
export type { BaselineIndex } from './bm25-baseline.js';
export {
  belowBaseline,
  operationKey,
  rankFigures,
  renderApiTable,
  renderManualTable,
  runApiSpecs,
  runManuals,
} from './run-answer-sets.js';
export type { ApiSpecRow, ManualRow, RankFigures } from './run-answer-sets.js';
export { evalReportFixtures } from './report-fixtures.js';
