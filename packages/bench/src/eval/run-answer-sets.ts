import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HybridRetriever, IngestPipeline, RagOrchestrator } from '@agentic-rag/core';
import {
  loadApiQuestions,
  loadManualQuestions,
  type ApiQuestion,
  type ApiSpecSet,
  type ManualSet,
} from './answer-sets.js';
import { operationBaseline, pageBaseline, type BaselineIndex } from './bm25-baseline.js';
import { describeIngest, type SplitRole } from './suite.js';
import { textTable } from './text-table.js';

/** What the runners need of a runtime. */
export interface AnswerSetDeps {
  pipeline: IngestPipeline;
  retriever: HybridRetriever;
  orchestrator: RagOrchestrator;
  /** Empties a workspace's answer cache, so every answer is computed. */
  clearCache?: (workspaceId: string) => Promise<void>;
  onProgress?: (label: string, done: number, total: number) => void;
  /** One line as each set's corpus goes in and once it is in (see RunSuiteOptions.onPhase). */
  onPhase?: (line: string) => void;
  onSkip?: (name: string, reason: string) => void;
}

/** Ranking figures of one list of ranked units against the expected ones. */
export interface RankFigures {
  /** The first unit is an expected one. */
  p1: number;
  /** Expected units among the first three, over three (precision). */
  p3: number;
  /** Some expected unit among the first three. */
  hit3: number;
  mrr: number;
}

export interface ApiQuestionResult {
  id: string;
  style: string;
  expected: string[];
  system: string[];
  baseline: string[];
  /** The operation ragAnswer cited first (null: it cited none or refused). */
  answerCited: string | null;
}

export interface ApiSpecRow {
  spec: string;
  split: SplitRole;
  questions: number;
  operations: number;
  system: RankFigures;
  baseline: RankFigures;
  /** ragAnswer's first citation is an expected operation. */
  answerP1: number;
  results: ApiQuestionResult[];
}

export interface ManualQuestionResult {
  id: string;
  style: string;
  mustRefuse: boolean;
  refused: boolean;
  /** Every fact is in the answer text. */
  factsFound: boolean;
  factRecall: number;
  systemFirst: string | null;
  baselineFirst: string | null;
  hit1: boolean;
  baselineHit1: boolean;
  firstCited: string | null;
  answer: string;
}

export interface ManualRow {
  manual: string;
  split: SplitRole;
  pages: number;
  answerable: number;
  unanswerable: number;
  /** Share of answerable questions whose answer holds every fact. */
  factsInAnswer: number;
  /** Share of all facts (of answerable questions) found in the answers. */
  factRecall: number;
  hit1: number;
  baselineHit1: number;
  /** Unanswerable questions refused. */
  refusedUnanswerable: number;
  /** Answerable questions refused. */
  refusedAnswerable: number;
  results: ManualQuestionResult[];
}

const K = 10;

export function rankFigures(
  rankings: ReadonlyArray<{ ranked: readonly string[]; expected: readonly string[] }>,
): RankFigures {
  const n = rankings.length || 1;
  let p1 = 0;
  let p3 = 0;
  let hit3 = 0;
  let mrr = 0;
  for (const { ranked, expected } of rankings) {
    const wanted = new Set(expected);
    const top = ranked.slice(0, K);
    if (top[0] !== undefined && wanted.has(top[0])) p1++;
    const inThree = top.slice(0, 3).filter((id) => wanted.has(id)).length;
    p3 += inThree / 3;
    if (inThree > 0) hit3++;
    const at = top.findIndex((id) => wanted.has(id));
    if (at >= 0) mrr += 1 / (at + 1);
  }
  return { p1: p1 / n, p3: p3 / n, hit3: hit3 / n, mrr: mrr / n };
}

/**
 * `spec.json#paths/v1/customers/{id}/post` → `POST /v1/customers/{id}`; any other document stays
 * its own id, so a schema or an error set ranked first counts as a miss.
 */
export function operationKey(sourcePath: string): string {
  const at = sourcePath.indexOf('#paths/');
  if (at === -1) return sourcePath;
  const rest = sourcePath.slice(at + '#paths'.length);
  const slash = rest.lastIndexOf('/');
  return `${rest.slice(slash + 1).toUpperCase()} ${rest.slice(0, slash)}`;
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Every question of each spec (of the chosen splits): the search's order, ragAnswer's first citation and the baseline's order. */
export async function runApiSpecs(
  root: string,
  sets: readonly ApiSpecSet[],
  splits: readonly SplitRole[],
  deps: AnswerSetDeps,
): Promise<ApiSpecRow[]> {
  const rows: ApiSpecRow[] = [];
  for (const set of sets) {
    const directory = path.resolve(root, set.directory);
    const specFile = path.join(directory, 'openapi.json');
    if (!(await exists(specFile))) {
      deps.onSkip?.(set.name, `${set.directory}/openapi.json is missing: run pnpm eval:fetch-specs`);
      continue;
    }
    const questions = (await loadApiQuestions(path.join(directory, 'questions.jsonl'))).filter((question) =>
      splits.includes(question.split),
    );
    if (questions.length === 0) continue;
    const workspaceId = `eval-api-${set.name}`;
    deps.onPhase?.(
      `api ${set.name}: ingesting ${set.directory}/openapi.json (unchanged operations are skipped)`,
    );
    const summary = await deps.pipeline.ingestSources({ workspaceId, sources: [specFile] });
    if (summary.failures.length > 0)
      throw new Error(`${set.name}: the spec did not ingest cleanly: ${summary.failures[0]!.message}`);
    deps.onPhase?.(`api ${set.name}: ${describeIngest(summary)}; ${questions.length} questions`);
    await deps.clearCache?.(workspaceId);
    const spec = JSON.parse(await readFile(specFile, 'utf8')) as unknown;
    const baseline = operationBaseline(spec);
    const operations = baseline.size;
    for (const split of splits) {
      const asked = questions.filter((question) => question.split === split);
      if (asked.length === 0) continue;
      const results: ApiQuestionResult[] = [];
      for (const question of asked) {
        results.push(await askApi(question, workspaceId, baseline, deps));
        deps.onProgress?.(`api ${set.name}/${split}`, results.length, asked.length);
      }
      rows.push({
        spec: set.name,
        split,
        questions: asked.length,
        operations,
        system: rankFigures(results.map((result) => ({ ranked: result.system, expected: result.expected }))),
        baseline: rankFigures(
          results.map((result) => ({ ranked: result.baseline, expected: result.expected })),
        ),
        answerP1:
          results.filter(
            (result) => result.answerCited !== null && result.expected.includes(result.answerCited),
          ).length / results.length,
        results,
      });
    }
  }
  return rows;
}

async function askApi(
  question: ApiQuestion,
  workspaceId: string,
  baseline: BaselineIndex,
  deps: AnswerSetDeps,
): Promise<ApiQuestionResult> {
  const searched = await deps.retriever.retrieve({ workspaceId, query: question.question, k: K });
  const answered = await deps.orchestrator.answer({ query: question.question, workspaceId });
  const cited = answered.refused ? undefined : answered.citations[0]?.sourceId;
  return {
    id: question.id,
    style: question.style,
    expected: question.expected,
    system: unique(searched.hits.map((hit) => operationKey(hit.sourcePath))),
    baseline: baseline.search(question.question, K),
    answerCited: cited ? operationKey(cited) : null,
  };
}

/** The pages of a manual the set asks about, relative to its root, sorted. */
async function manualPages(set: ManualSet): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(set.root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (set.pages.test(child)) found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

/**
 * What a reader sees of an answer, for matching facts: Markdown's code and emphasis marks dropped
 * ("at least one `UNIQUE` index" reads "at least one UNIQUE index"), whitespace collapsed, lower case.
 */
export const readable = (text: string) =>
  text
    .replace(/`+/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])/g, '$2')
    .replace(/\s+/g, ' ')
    .toLowerCase();

/**
 * Every question of each manual (of the chosen splits) through search and ragAnswer. The pages are
 * copied from where Debian installs them into a folder named after the set (under `cacheDir`) and
 * ingested from there, so a page's document id is `<set>/<page>`.
 */
export async function runManuals(
  root: string,
  sets: readonly ManualSet[],
  splits: readonly SplitRole[],
  cacheDir: string,
  deps: AnswerSetDeps,
): Promise<ManualRow[]> {
  const rows: ManualRow[] = [];
  for (const set of sets) {
    if (!(await exists(set.root))) {
      deps.onSkip?.(set.name, `${set.root} is missing: apt-get install ${set.debianPackage}`);
      continue;
    }
    const questions = (await loadManualQuestions(path.resolve(root, set.questions))).filter((question) =>
      splits.includes(question.split),
    );
    if (questions.length === 0) continue;
    const pages = await manualPages(set);
    const folder = path.join(cacheDir, set.name);
    for (const page of pages) {
      await mkdir(path.dirname(path.join(folder, page)), { recursive: true });
      await copyFile(path.join(set.root, page), path.join(folder, page));
    }
    const workspaceId = `eval-manual-${set.name}`;
    deps.onPhase?.(`manual ${set.name}: ingesting ${pages.length} pages (unchanged pages are skipped)`);
    const summary = await deps.pipeline.ingestSources({ workspaceId, sources: [folder] });
    if (summary.failures.length > 0)
      throw new Error(`${set.name}: pages did not ingest cleanly: ${summary.failures[0]!.message}`);
    deps.onPhase?.(`manual ${set.name}: ${describeIngest(summary)}`);
    await deps.clearCache?.(workspaceId);
    const baseline = pageBaseline(
      await Promise.all(
        pages.map(async (page) => ({ id: page, html: await readFile(path.join(set.root, page), 'utf8') })),
      ),
    );
    const pageOf = (sourcePath: string) => {
      const file = sourcePath.split('#')[0]!;
      return file.startsWith(`${set.name}/`) ? file.slice(set.name.length + 1) : file;
    };
    for (const split of splits) {
      const asked = questions.filter((question) => question.split === split);
      if (asked.length === 0) continue;
      const results: ManualQuestionResult[] = [];
      for (const question of asked) {
        const searched = await deps.retriever.retrieve({ workspaceId, query: question.question, k: K });
        const answered = await deps.orchestrator.answer({ query: question.question, workspaceId });
        const systemFirst = searched.hits[0] ? pageOf(searched.hits[0].sourcePath) : null;
        const baselineFirst = baseline.search(question.question, 1)[0] ?? null;
        const text = readable(answered.refused ? '' : answered.answer);
        const found = question.facts.filter((fact) => text.includes(readable(fact)));
        results.push({
          id: question.id,
          style: question.style,
          mustRefuse: question.mustRefuse,
          refused: answered.refused,
          factsFound: question.facts.length > 0 && found.length === question.facts.length,
          factRecall: question.facts.length === 0 ? 0 : found.length / question.facts.length,
          systemFirst,
          baselineFirst,
          hit1: systemFirst !== null && question.expectedPages.includes(systemFirst),
          baselineHit1: baselineFirst !== null && question.expectedPages.includes(baselineFirst),
          firstCited: answered.citations[0] ? pageOf(answered.citations[0].sourceId) : null,
          answer: answered.answer,
        });
        deps.onProgress?.(`manual ${set.name}/${split}`, results.length, asked.length);
      }
      const answerable = results.filter((result) => !result.mustRefuse);
      const unanswerable = results.filter((result) => result.mustRefuse);
      const share = (count: number) => (answerable.length === 0 ? 0 : count / answerable.length);
      rows.push({
        manual: set.name,
        split,
        pages: pages.length,
        answerable: answerable.length,
        unanswerable: unanswerable.length,
        factsInAnswer: share(answerable.filter((result) => result.factsFound).length),
        factRecall: share(answerable.reduce((sum, result) => sum + result.factRecall, 0)),
        hit1: share(answerable.filter((result) => result.hit1).length),
        baselineHit1: share(answerable.filter((result) => result.baselineHit1).length),
        refusedUnanswerable: unanswerable.filter((result) => result.refused).length,
        refusedAnswerable: answerable.filter((result) => result.refused).length,
        results,
      });
    }
  }
  return rows;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** One row per spec and split: the system's search, ragAnswer's first citation and the baseline. */
export function renderApiTable(rows: readonly ApiSpecRow[]): string {
  return textTable(
    [
      'spec',
      'split',
      'ops',
      'questions',
      'P@1',
      'P@3',
      'hit@3',
      'MRR',
      'answer P@1',
      'BM25 P@1',
      'BM25 hit@3',
      'BM25 MRR',
    ],
    rows.map((row) => [
      row.spec,
      row.split,
      String(row.operations),
      String(row.questions),
      percent(row.system.p1),
      percent(row.system.p3),
      percent(row.system.hit3),
      row.system.mrr.toFixed(3),
      percent(row.answerP1),
      percent(row.baseline.p1),
      percent(row.baseline.hit3),
      row.baseline.mrr.toFixed(3),
    ]),
  );
}

/** One row per manual and split: facts in the answers, search hit@1 against the baseline, refusals. */
export function renderManualTable(rows: readonly ManualRow[]): string {
  return textTable(
    [
      'manual',
      'split',
      'pages',
      'questions',
      'facts in answer',
      'fact recall',
      'hit@1',
      'BM25 hit@1',
      'refused (unanswerable)',
      'refused (answerable)',
    ],
    rows.map((row) => [
      row.manual,
      row.split,
      String(row.pages),
      `${row.answerable}+${row.unanswerable}`,
      percent(row.factsInAnswer),
      percent(row.factRecall),
      percent(row.hit1),
      percent(row.baselineHit1),
      `${row.refusedUnanswerable}/${row.unanswerable}`,
      String(row.refusedAnswerable),
    ]),
  );
}

/** Rows where the system does worse than the plain baseline on its headline figure. */
export function belowBaseline(api: readonly ApiSpecRow[], manuals: readonly ManualRow[]): string[] {
  return [
    ...api.filter((row) => row.system.p1 < row.baseline.p1).map((row) => `api ${row.spec}/${row.split} P@1`),
    ...manuals
      .filter((row) => row.hit1 < row.baselineHit1)
      .map((row) => `manual ${row.manual}/${row.split} hit@1`),
  ];
}
