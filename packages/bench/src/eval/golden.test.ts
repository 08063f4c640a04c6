import { describe, expect, it } from 'vitest';
import type { AnswerObservation } from './answerer.js';
import { compareReports, renderComparison } from './compare.js';
import { parseGoldenDataset, type GoldenEntry } from './golden-dataset.js';
import { renderMarkdown, renderSummaryTable } from './golden-report.js';
import { byCategory, scoreQuestion, sourceMatches, summarize } from './golden-score.js';
import { parseScores } from './llm-judge.js';
import type { GoldenReport } from './run-golden.js';
import { renderChart } from './svg-chart.js';

const SPEC = 'corpus/api/openapi.yaml';

function entry(fields: Partial<GoldenEntry> & Pick<GoldenEntry, 'id'>): GoldenEntry {
  return {
    category: 'general',
    question: `question ${fields.id}`,
    expectedSources: [],
    expectedFacts: [],
    mustRefuse: false,
    precisionSet: false,
    ...fields,
  };
}

function observed(fields: Partial<AnswerObservation>): AnswerObservation {
  return {
    answer: '',
    refused: false,
    cached: false,
    runId: 'run',
    citations: [],
    retrieved: [],
    citationCoverage: 1,
    stages: [],
    totalMs: 10,
    snippets: [],
    ...fields,
  };
}

describe('golden set parsing', () => {
  it('reads JSON lines into entries, skipping blank lines', () => {
    const entries = parseGoldenDataset(
      [
        '{"id":"e-1","category":"endpoint","question":"Which endpoint creates a location?","expected_sources":["a#b"],"expected_facts":["POST /locations"],"precision_set":true}',
        '',
        '{"id":"o-1","category":"out-of-corpus","question":"Kafka billing consumers?","must_refuse":true}',
      ].join('\n'),
    );
    expect(entries).toEqual([
      {
        id: 'e-1',
        category: 'endpoint',
        question: 'Which endpoint creates a location?',
        expectedSources: ['a#b'],
        expectedFacts: ['POST /locations'],
        mustRefuse: false,
        precisionSet: true,
      },
      {
        id: 'o-1',
        category: 'out-of-corpus',
        question: 'Kafka billing consumers?',
        expectedSources: [],
        expectedFacts: [],
        mustRefuse: true,
        precisionSet: false,
      },
    ]);
  });

  it('reports every problem with its line number at once', () => {
    const text = [
      '{"id":"a","category":"general","question":"What is it?","expected_sources":["x"]}',
      'not json',
      '{"id":"a","category":"general","question":"Again?","expected_sources":["x"]}',
      '{"id":"b","category":"nonsense","question":"Why?"}',
      '{"id":"c","category":"general","question":"Where?"}',
      '{"id":"d","category":"out-of-corpus","question":"Who?"}',
      '{"id":"e","category":"general","question":"How?","expected_sources":["x"],"extra":1}',
    ].join('\n');
    expect(() => parseGoldenDataset(text, 'g.jsonl')).toThrowError(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: {
          problems: [
            'g.jsonl:2: not JSON',
            'g.jsonl:3: duplicate id "a"',
            expect.stringMatching(/^g\.jsonl:4: category: /),
            'g.jsonl:5: an answerable question needs expected_sources',
            'g.jsonl:6: must_refuse is true exactly for out-of-corpus questions',
            expect.stringMatching(/^g\.jsonl:7: /),
          ],
        },
      }),
    );
  });
});

describe('scoring a question', () => {
  it('matches a bare file path to every document split from it, and nothing else', () => {
    expect(sourceMatches(SPEC, `${SPEC}#paths/locations/post`)).toBe(true);
    expect(sourceMatches(SPEC, SPEC)).toBe(true);
    expect(sourceMatches(`${SPEC}#paths/locations/post`, `${SPEC}#paths/locations/get`)).toBe(false);
    expect(sourceMatches('corpus/api/open', `${SPEC}#x`)).toBe(false);
  });

  it('ranks the first expected document, counts facts and cited expected documents', () => {
    const result = scoreQuestion(
      entry({
        id: 'e-1',
        category: 'endpoint',
        expectedSources: [`${SPEC}#paths/locations/post`],
        expectedFacts: ['POST /locations', 'external_id', 'ROLLBACK'],
        precisionSet: true,
      }),
      observed({
        answer: 'Use post /LOCATIONS with an external_id [1].',
        retrieved: ['corpus/guide.md', `${SPEC}#paths/locations/post`, 'corpus/faq.md'],
        citations: [`${SPEC}#paths/locations/post`, 'corpus/guide.md', `${SPEC}#paths/locations/post`, 'x'],
        citationCoverage: 0.5,
      }),
      observed({ cached: true, totalMs: 1 }),
      10,
    );
    expect(result).toMatchObject({
      firstRelevantRank: 2,
      hit: true,
      reciprocalRank: 0.5,
      topIsExpected: false,
      factsFound: ['POST /locations', 'external_id'],
      factsMissing: ['ROLLBACK'],
      answerRecall: 2 / 3,
      citationPrecision: 0.5,
      refusalCorrect: true,
      warmCached: true,
      warmMs: 1,
    });
  });

  it('counts only the top k, and gives a refusal no facts', () => {
    const question = entry({ id: 'g', expectedSources: ['d'], expectedFacts: ['alpha'] });
    const late = scoreQuestion(
      question,
      observed({ retrieved: ['a', 'b', 'c', 'd'], answer: 'alpha' }),
      null,
      3,
    );
    expect(late).toMatchObject({ hit: false, firstRelevantRank: null, reciprocalRank: 0, answerRecall: 1 });
    const refused = scoreQuestion(
      question,
      observed({ refused: true, answer: 'alpha is not known' }),
      null,
      10,
    );
    expect(refused).toMatchObject({ answerRecall: 0, refusalCorrect: false, factsFound: [] });
  });
});

function report(results: ReturnType<typeof scoreQuestion>[], name = 'golden.jsonl'): GoldenReport {
  return {
    kind: 'golden',
    dataset: name,
    answerer: 'library',
    workspaceId: 'demo',
    k: 10,
    startedAt: '2026-11-23T00:00:00.000Z',
    seconds: 1,
    summary: summarize(results),
    categories: byCategory(results),
    results,
  };
}

describe('summaries', () => {
  const results = [
    scoreQuestion(
      entry({
        id: 'e1',
        category: 'endpoint',
        expectedSources: ['a'],
        expectedFacts: ['x'],
        precisionSet: true,
      }),
      observed({ retrieved: ['a'], answer: 'x', totalMs: 100, stages: [{ name: 'retrieve', ms: 40 }] }),
      observed({ cached: true, totalMs: 2 }),
      10,
    ),
    scoreQuestion(
      entry({
        id: 'e2',
        category: 'endpoint',
        expectedSources: ['b'],
        expectedFacts: ['y'],
        precisionSet: true,
      }),
      observed({
        retrieved: ['a', 'b'],
        answer: 'nothing',
        totalMs: 300,
        stages: [{ name: 'retrieve', ms: 80 }],
      }),
      observed({ cached: true, totalMs: 4 }),
      10,
    ),
    scoreQuestion(
      entry({ id: 'o1', category: 'out-of-corpus', mustRefuse: true }),
      observed({ refused: true, totalMs: 50 }),
      observed({ cached: false, totalMs: 50 }),
      10,
    ),
  ];

  it('averages over answerable questions and scores refusals and the precision set', () => {
    const summary = summarize(results);
    expect(summary).toMatchObject({
      questions: 3,
      answerable: 2,
      hitRate: 1,
      mrr: 0.75,
      answerRecall: 0.5,
      refusal: { refusedWhenRequired: 1, required: 1, falseRefusals: 0, accuracy: 1 },
      endpointPrecision: { questions: 2, precisionAt1: 0.5, target: 0.9, met: false },
      latency: { totalMs: { p50: 100, p95: 300 }, stages: { retrieve: { p50: 40, p95: 80 } } },
      cache: { coldMs: { p50: 100, p95: 300 }, warmMs: { p50: 4, p95: 50 }, speedup: 25 },
      judge: null,
    });
    expect(summary.cache.warmHitRate).toBeCloseTo(2 / 3);
    expect(byCategory(results)).toEqual([
      { category: 'endpoint', questions: 2, hitRate: 1, mrr: 0.75, answerRecall: 0.5, refusalAccuracy: 1 },
      {
        category: 'out-of-corpus',
        questions: 1,
        hitRate: null,
        mrr: null,
        answerRecall: null,
        refusalAccuracy: 1,
      },
    ]);
  });

  it('renders the table, the markdown with every miss, and an SVG chart', () => {
    const run = report(results);
    const table = renderSummaryTable(run);
    expect(table).toContain('endpoint precision@1');
    expect(table).toContain('50.0% of 2 (target ≥ 90.0%: MISSED)');
    const markdown = renderMarkdown(run, 'chart.svg');
    expect(markdown).toContain('![stage latency and score distributions](chart.svg)');
    expect(markdown).toContain(
      '| e2 | question e2 | missing facts: y; first retrieved is not the endpoint | a, b |',
    );
    expect(markdown).not.toContain('| e1 |');
    const svg = renderChart(run);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('>retrieve</text>');
    expect(svg).toContain('40.0 / 80.0');
  });

  it('compares two runs per metric and per question', () => {
    const before = report(results);
    const improved = report([
      scoreQuestion(
        entry({
          id: 'e1',
          category: 'endpoint',
          expectedSources: ['a'],
          expectedFacts: ['x'],
          precisionSet: true,
        }),
        observed({ retrieved: ['a'], answer: 'x' }),
        null,
        10,
      ),
      scoreQuestion(
        entry({
          id: 'e2',
          category: 'endpoint',
          expectedSources: ['b'],
          expectedFacts: ['y'],
          precisionSet: true,
        }),
        observed({ retrieved: ['b'], answer: 'y' }),
        null,
        10,
      ),
    ]);
    const comparison = compareReports(before, improved);
    expect(comparison.metrics.find((metric) => metric.metric === 'MRR')).toEqual({
      metric: 'MRR',
      before: 0.75,
      after: 1,
      delta: 0.25,
      higherIsBetter: true,
    });
    expect(comparison.questions).toEqual([
      {
        id: 'e2',
        question: 'question e2',
        changes: ['rank 2 → rank 1', 'recall 0.00 → 1.00', 'endpoint now first'],
      },
    ]);
    expect(comparison.onlyBefore).toEqual(['o1']);
    expect(renderComparison(comparison)).toContain('MRR');
  });
});

describe('judge replies', () => {
  it('reads the JSON, fenced or not, and refuses scores out of range', () => {
    expect(parseScores('```json\n{"faithfulness": 0.8, "relevance": 1, "reason": "ok"}\n```')).toEqual({
      faithfulness: 0.8,
      relevance: 1,
      reason: 'ok',
    });
    expect(parseScores('{"faithfulness": 1.5, "relevance": 1}')).toBeNull();
    expect(parseScores('no json here')).toBeNull();
  });
});

describe('the precision set beside ragAnswer: first citation and a plain search', () => {
  const precise = entry({ id: 'p', precisionSet: true, expectedSources: ['spec.yaml#paths/locations/post'] });
  const answer = observed({
    retrieved: ['spec.yaml#paths/locations/post'],
    citations: ['guides/onboarding.md', 'spec.yaml#paths/locations/post'],
  });

  it.each([
    [['spec.yaml#paths/locations/post', 'guides/onboarding.md'], true],
    [['guides/onboarding.md', 'spec.yaml#paths/locations/post'], false],
    [[], false],
    [null, null],
  ])('search %j → search top-1 %s', (searched, expected) => {
    const result = scoreQuestion(precise, answer, null, 10, null, null, searched);
    expect(result).toMatchObject({ topIsExpected: true, firstCitationIsExpected: false });
    expect(result.searchTopIsExpected).toBe(expected);
  });

  it('summarises each, and no search as null', () => {
    const searched = summarize([
      scoreQuestion(precise, answer, null, 10, null, null, [precise.expectedSources[0]!]),
    ]);
    expect(searched.endpointPrecision).toMatchObject({ precisionAt1: 1, firstCitationAt1: 0, searchAt1: 1 });
    expect(summarize([scoreQuestion(precise, answer, null, 10)]).endpointPrecision.searchAt1).toBeNull();
  });
});
