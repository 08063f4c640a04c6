import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import { loaderFor } from './index.js';
import { loadJsonRecords } from './json-records.js';

const lines = (...records: unknown[]) =>
  records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n');
const parseFailure = (sourcePath: string, message: string) => ({
  sourcePath,
  code: ErrorCode.PARSE_FAILED,
  message,
});

describe('loadJsonRecords: .jsonl', () => {
  const result = loadJsonRecords({
    sourcePath: 'support/faq.jsonl',
    text: lines(
      {
        id: 'q1',
        title: 'Cancel a shipment',
        text: 'Use POST /shipments/{id}/cancel before pickup.',
        url: 'https://x.test/q1',
        tags: ['shipments'],
      },
      '{"id": "q2", "text": broken}',
      '',
      { id: 'q3', body: '# Weight limits\n\nParcels over 30 kg need freight.' },
      { id: 'q4', title: 'No text', text: '   ' },
      { id: 'q1', text: 'A second q1.' },
      { id: 7, content: 'Numeric ids are fine.' },
      '[1, 2]',
    ),
  });

  it('loads every valid record as its own document <file>#<id>', () => {
    expect(
      result.documents.map((document) => [document.sourcePath, document.sourceFile, document.kind]),
    ).toEqual([
      ['support/faq.jsonl#q1', 'support/faq.jsonl', 'json-record'],
      ['support/faq.jsonl#q3', 'support/faq.jsonl', 'json-record'],
      ['support/faq.jsonl#7', 'support/faq.jsonl', 'json-record'],
    ]);
  });

  it('reports the invalid line, the record without text, the duplicate id and the non-object, by line', () => {
    expect(result.failures).toHaveLength(4);
    expect(result.failures[0]).toMatchObject({
      sourcePath: 'support/faq.jsonl',
      code: ErrorCode.PARSE_FAILED,
    });
    expect(result.failures[0]!.message).toMatch(/^line 2: invalid JSON \(/);
    expect(result.failures.slice(1)).toEqual([
      parseFailure('support/faq.jsonl', 'line 5: no non-empty text field (text/content/body/markdown)'),
      parseFailure('support/faq.jsonl', 'line 6: duplicate record id "q1"'),
      parseFailure('support/faq.jsonl', 'line 8: expected an object'),
    ]);
  });

  it('keeps the first record with a duplicated id, not the later one', () => {
    expect(result.documents[0]!.text).toBe('Use POST /shipments/{id}/cancel before pickup.');
  });

  it('takes title and url from the record and puts the other fields in metadata', () => {
    expect(result.documents[0]).toMatchObject({
      title: 'Cancel a shipment',
      url: 'https://x.test/q1',
      metadata: { record_id: 'q1', tags: ['shipments'] },
    });
    expect(result.documents[0]!.metadata).not.toHaveProperty('text');
  });

  it('parses record text as Markdown: blocks, and the H1 as title when the record has none', () => {
    const document = result.documents[1]!;
    expect(document.title).toBe('Weight limits');
    expect(document.url).toBeNull();
    expect(document.blocks.map((block) => [block.type, document.text.slice(block.start, block.end)])).toEqual(
      [
        ['heading', '# Weight limits'],
        ['paragraph', 'Parcels over 30 kg need freight.'],
      ],
    );
  });

  it('falls back to the file name as title and to the position as id', () => {
    const loaded = loadJsonRecords({
      sourcePath: 'data/known_issues.jsonl',
      text: lines({ text: 'first' }, { text: 'second' }),
    });
    expect(
      loaded.documents.map((document) => [document.sourcePath, document.title, document.metadata]),
    ).toEqual([
      ['data/known_issues.jsonl#0', 'known issues', { record_id: '0' }],
      ['data/known_issues.jsonl#1', 'known issues', { record_id: '1' }],
    ]);
  });

  it('loads the BEIR corpus format (_id, title, text)', () => {
    const loaded = loadJsonRecords({
      sourcePath: 'beir/corpus.jsonl',
      text: lines(
        {
          _id: 'doc-1',
          title: 'POMDP',
          text: 'The belief update follows Bayes rule.',
          metadata: { year: 2020 },
        },
        { _id: 'doc-2', title: '', text: 'Untitled passage.' },
      ),
    });
    expect(loaded.failures).toEqual([]);
    expect(
      loaded.documents.map((document) => [
        document.sourcePath,
        document.title,
        document.text,
        document.metadata,
      ]),
    ).toEqual([
      [
        'beir/corpus.jsonl#doc-1',
        'POMDP',
        'The belief update follows Bayes rule.',
        { record_id: 'doc-1', metadata: { year: 2020 } },
      ],
      ['beir/corpus.jsonl#doc-2', 'corpus', 'Untitled passage.', { record_id: 'doc-2' }],
    ]);
  });

  it('reads .ndjson the same way and normalises CRLF inside record text', () => {
    const loaded = loadJsonRecords({ sourcePath: 'x.ndjson', text: lines({ id: 'a', text: 'one\r\ntwo' }) });
    expect(loaded.documents.map((document) => [document.sourcePath, document.text])).toEqual([
      ['x.ndjson#a', 'one\ntwo'],
    ]);
  });

  it('reads an upper-case .JSONL file line by line, as loaderFor routes it here', () => {
    const loaded = loaderFor('data/FAQ.JSONL')!({
      sourcePath: 'data/FAQ.JSONL',
      text: lines({ id: 'a', text: 'x' }, { id: 'b', text: 'y' }),
    });
    expect(loaded.failures).toEqual([]);
    expect(loaded.documents.map((document) => document.sourcePath)).toEqual([
      'data/FAQ.JSONL#a',
      'data/FAQ.JSONL#b',
    ]);
  });
});

describe('loadJsonRecords: .json', () => {
  it.each(['records', 'documents', 'items', 'data'])('loads an object holding records under %j', (field) => {
    const loaded = loadJsonRecords({
      sourcePath: 'support/known-issues.json',
      text: JSON.stringify({
        version: 2,
        [field]: [
          { slug: 'ki-1', content: 'Labels print blank.' },
          { doc_id: 'ki-2', markdown: 'Rates stale.' },
        ],
      }),
    });
    expect(loaded.failures).toEqual([]);
    expect(
      loaded.documents.map((document) => [document.sourcePath, document.sourceFile, document.text]),
    ).toEqual([
      ['support/known-issues.json#ki-1', 'support/known-issues.json', 'Labels print blank.'],
      ['support/known-issues.json#ki-2', 'support/known-issues.json', 'Rates stale.'],
    ]);
  });

  it('loads a top-level array and reports bad entries by index', () => {
    const loaded = loadJsonRecords({
      sourcePath: 'x.json',
      text: JSON.stringify([{ id: 'a', text: 'ok' }, 'text', { id: 'a', text: 'again' }]),
    });
    expect(loaded.documents.map((document) => document.sourcePath)).toEqual(['x.json#a']);
    expect(loaded.failures).toEqual([
      parseFailure('x.json', 'record 1: expected an object'),
      parseFailure('x.json', 'record 2: duplicate record id "a"'),
    ]);
  });

  it.each([
    ['a package manifest', '{"name": "pkg", "version": "1.0.0"}'],
    ['a string', '"just a string"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('reports %s as not a list of records', (_case, text) => {
    expect(loadJsonRecords({ sourcePath: 'x.json', text })).toEqual({
      documents: [],
      failures: [
        parseFailure('x.json', 'expected an array of records with a text field (text/content/body/markdown)'),
      ],
    });
  });

  it('reports invalid JSON as PARSE_FAILED for the whole file', () => {
    const loaded = loadJsonRecords({ sourcePath: 'x.json', text: '{oops' });
    expect(loaded.documents).toEqual([]);
    expect(loaded.failures).toHaveLength(1);
    expect(loaded.failures[0]).toMatchObject({ sourcePath: 'x.json', code: ErrorCode.PARSE_FAILED });
    expect(loaded.failures[0]!.message).toMatch(/^invalid JSON: /);
  });
});
