import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { API_SPEC_SETS, loadApiQuestions, loadManualQuestions, MANUAL_SETS } from './answer-sets.js';
import { operationBaseline, pageBaseline, visibleText } from './bm25-baseline.js';
import { parseJsonLines } from './json-lines.js';
import {
  belowBaseline,
  operationKey,
  rankFigures,
  readable,
  type ApiSpecRow,
  type ManualRow,
} from './run-answer-sets.js';
import { textTable } from './text-table.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the committed answer sets', () => {
  // Only their shape is read here: the test split's questions stay unread while tuning.
  it.each(API_SPEC_SETS.map((set) => [set.name, set.directory] as const))(
    'api %s parses, one split per spec',
    async (_name, directory) => {
      const questions = await loadApiQuestions(join(ROOT, directory, 'questions.jsonl'));
      expect(questions.length).toBeGreaterThanOrEqual(40);
      expect(new Set(questions.map((question) => question.split)).size).toBe(1);
    },
  );

  it.each(MANUAL_SETS.map((set) => [set.name, set.questions] as const))(
    'manual %s parses with a dev and a test half, each with questions to refuse',
    async (_name, file) => {
      const questions = await loadManualQuestions(join(ROOT, file));
      for (const split of ['dev', 'test'] as const) {
        const half = questions.filter((question) => question.split === split);
        expect(half.length).toBe(40);
        expect(half.filter((question) => question.mustRefuse).length).toBe(5);
      }
    },
  );
});

describe('loadManualQuestions', () => {
  it('rejects a line that must be refused yet names pages, with its id', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'answer-sets-')), 'questions.jsonl');
    const line = {
      id: 'q1',
      split: 'dev',
      question: 'What is VACUUM?',
      expected_pages: ['sql-vacuum.html'],
      facts: [],
      must_refuse: true,
      style: 'definition',
    };
    await writeFile(file, `${JSON.stringify(line)}\n`);
    await expect(loadManualQuestions(file)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('q1: must_refuse is true exactly when expected_pages is empty'),
    });
    await expect(loadManualQuestions(join(tmpdir(), 'no-such-file.jsonl'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('parseJsonLines', () => {
  const schema = z.object({ id: z.string(), n: z.number() });

  it('reports every bad line at once, with its line number', () => {
    const text = ['{"id":"a","n":1}', 'not json', '', '{"id":"b","n":"x"}', '{"id":"a","n":2}'].join('\n');
    let thrown: unknown;
    try {
      parseJsonLines(text, 'set.jsonl', 'question set', schema);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'INVALID_INPUT' });
    const problems = (thrown as { details: { problems: string[] } }).details.problems;
    expect(problems).toEqual([
      'set.jsonl:2: not JSON',
      expect.stringMatching(/^set\.jsonl:4: n: /),
      'set.jsonl:5: duplicate id "a"',
    ]);
  });

  it('returns the rows of a good file, blank lines skipped', () => {
    expect(parseJsonLines('{"id":"a","n":1}\n\n{"id":"b","n":2}\n', 'f', 'set', schema)).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
  });
});

describe('rankFigures', () => {
  it('computes P@1, P@3, hit@3 and MRR over the top ten', () => {
    const figures = rankFigures([
      { ranked: ['a', 'b', 'c'], expected: ['a'] },
      { ranked: ['x', 'y', 'a'], expected: ['a', 'y'] },
      { ranked: ['x', 'y', 'z'], expected: ['a'] },
      { ranked: [...'bcdefghijk'.split(''), 'a'], expected: ['a'] },
    ]);
    expect(figures.p1).toBe(0.25);
    expect(figures.p3).toBeCloseTo((1 / 3 + 2 / 3) / 4, 10);
    expect(figures.hit3).toBe(0.5);
    // The fourth ranks it eleventh: outside the top ten, no reciprocal rank.
    expect(figures.mrr).toBeCloseTo((1 + 1 / 2) / 4, 10);
  });

  it('is zero, not NaN, for no questions', () => {
    expect(rankFigures([])).toEqual({ p1: 0, p3: 0, hit3: 0, mrr: 0 });
  });
});

describe('operationKey', () => {
  it('names an operation document as METHOD /path, and leaves any other document as it is', () => {
    expect(operationKey('spec.json#paths/v1/customers/{id}/post')).toBe('POST /v1/customers/{id}');
    expect(operationKey('stripe/openapi.json#paths/v1/charges/get')).toBe('GET /v1/charges');
    expect(operationKey('spec.json#components/schemas/Customer')).toBe(
      'spec.json#components/schemas/Customer',
    );
  });
});

describe('readable', () => {
  it('drops Markdown code and emphasis marks so a fact matches what a reader sees', () => {
    expect(readable('at least one `UNIQUE`\n  index, **not** _always_')).toBe(
      'at least one unique index, not always',
    );
    // Underscores inside identifiers and a lone asterisk stay.
    expect(readable('use max_connections * 2')).toBe('use max_connections * 2');
  });
});

describe('BM25 baselines', () => {
  it('ranks operations of a spec by their words, ids as METHOD /path', () => {
    const baseline = operationBaseline({
      paths: {
        '/pets': {
          get: { summary: 'List pets', operationId: 'listPets' },
          post: { summary: 'Create a pet', description: 'Adds a new pet to the store' },
        },
        '/stores': { get: { summary: 'List stores' }, parameters: [] },
      },
    });
    expect(baseline.size).toBe(3);
    expect(baseline.search('add a new pet')[0]).toBe('POST /pets');
    expect(baseline.search('stores')[0]).toBe('GET /stores');
  });

  it('indexes the visible text of pages, never scripts, styles or the head', () => {
    const html =
      '<html><head><title>VACUUM</title><style>.x{}</style></head>' +
      '<body><script>secret()</script><p>garbage-collect a database</p></body></html>';
    expect(visibleText(html)).toEqual({ title: 'VACUUM', text: 'garbage-collect a database' });
    const baseline = pageBaseline([
      { id: 'sql-vacuum.html', html },
      { id: 'sql-select.html', html: '<title>SELECT</title><p>retrieve rows from a table</p>' },
    ]);
    expect(baseline.search('retrieve rows')[0]).toBe('sql-select.html');
    expect(baseline.search('secret')).toEqual([]);
  });
});

describe('report helpers', () => {
  it('aligns names left and figures right', () => {
    expect(
      textTable(
        ['set', 'split', 'P@1'],
        [
          ['stripe', 'dev', '43.2'],
          ['jira', 'test', '5.0'],
        ],
      ),
    ).toBe(['set     split   P@1', 'stripe  dev    43.2', 'jira    test    5.0'].join('\n'));
  });

  it('lists the rows where the system is below its baseline on the headline figure', () => {
    const api = [
      { spec: 'a', split: 'dev', system: { p1: 0.5 }, baseline: { p1: 0.4 } },
      { spec: 'b', split: 'test', system: { p1: 0.3 }, baseline: { p1: 0.4 } },
    ] as unknown as ApiSpecRow[];
    const manuals = [{ manual: 'pg', split: 'dev', hit1: 0.5, baselineHit1: 0.6 }] as unknown as ManualRow[];
    expect(belowBaseline(api, manuals)).toEqual(['api b/test P@1', 'manual pg/dev hit@1']);
  });
});
