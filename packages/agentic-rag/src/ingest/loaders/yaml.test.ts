import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../errors/index.js';
import type { LoadedDocument } from '../document.js';
import { loadYaml } from './yaml.js';

const OPENAPI = `openapi: 3.0.3
info:
  title: Northwind Freight Shipping API
  version: 2.4.0
paths:
  /locations:
    get:
      summary: List locations
    post:
      summary: Create a location
  "/locations/{locationId}":
    delete:
      summary: Delete a location
components:
  schemas:
    Location:
      type: object
`;

const load = (text: string, sourcePath = 'api/openapi.yaml'): LoadedDocument => {
  const result = loadYaml({ sourcePath, text });
  expect(result.failures).toEqual([]);
  expect(result.documents).toHaveLength(1);
  return result.documents[0]!;
};
const outline = (document: LoadedDocument) =>
  document.blocks.map((block) => [
    block.type,
    block.level ?? null,
    block.title ?? document.text.slice(block.start, block.end),
  ]);

describe('loadYaml', () => {
  const document = load(OPENAPI);

  it('takes the title from info.title and keeps the file text as is', () => {
    expect(document).toMatchObject({
      sourcePath: 'api/openapi.yaml',
      sourceFile: 'api/openapi.yaml',
      kind: 'yaml',
      title: 'Northwind Freight Shipping API',
      url: null,
      text: OPENAPI,
      metadata: {},
    });
  });

  it('makes a heading of each top-level key and each key one level below (each OpenAPI path)', () => {
    expect(outline(document)).toEqual([
      ['heading', 1, 'openapi'],
      ['heading', 1, 'info'],
      ['heading', 2, 'title'],
      ['heading', 2, 'version'],
      ['heading', 1, 'paths'],
      ['heading', 2, '/locations'],
      ['code', null, '    get:\n      summary: List locations\n    post:\n      summary: Create a location'],
      ['heading', 2, '/locations/{locationId}'],
      ['code', null, '    delete:\n      summary: Delete a location'],
      ['heading', 1, 'components'],
      ['heading', 2, 'schemas'],
      ['code', null, '    Location:\n      type: object'],
    ]);
  });

  it('gives headings offsets that slice back to their key line', () => {
    const headings = document.blocks.filter((block) => block.type === 'heading');
    expect(headings.map((block) => OPENAPI.slice(block.start, block.end))).toContain(
      '  "/locations/{locationId}":',
    );
    for (const block of headings) expect(OPENAPI.slice(block.start, block.end)).toContain(`${block.title}`);
  });

  it('learns the indent unit from the file (4 spaces)', () => {
    const text = 'paths:\n    /a:\n        get: {}\n    /b:\n        get: {}\n';
    expect(outline(load(text))).toEqual([
      ['heading', 1, 'paths'],
      ['heading', 2, '/a'],
      ['code', null, '        get: {}'],
      ['heading', 2, '/b'],
      ['code', null, '        get: {}'],
    ]);
  });

  it.each([
    ['api/shipping-rates.yml', 'name: x\n', 'shipping rates'],
    ['api/openapi.yaml', 'info:\n  title: 42\n', 'openapi'],
    ['conf/list.yaml', '- a\n- b\n', 'list'],
  ])('falls back to the file name %s as title when info.title is not a string', (sourcePath, text, title) => {
    expect(load(text, sourcePath).title).toBe(title);
  });

  it('keeps a top-level list as one code block', () => {
    expect(outline(load('- a\n- b\n', 'list.yaml'))).toEqual([['code', null, '- a\n- b']]);
  });

  it('loads an empty file as a document without blocks', () => {
    expect(load('', 'empty.yaml').blocks).toEqual([]);
  });

  it.each([
    ['an unclosed flow sequence', 'a: [1, 2\nb: c\n'],
    ['a mapping inside a scalar line', 'key: value\n  bad indent: x\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab-indented block', 'a:\n\tb: 1\n'],
  ])('reports %s as PARSE_FAILED instead of indexing it', (_case, text) => {
    const result = loadYaml({ sourcePath: 'api/broken.yaml', text });
    expect(result.documents).toEqual([]);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ sourcePath: 'api/broken.yaml', code: ErrorCode.PARSE_FAILED });
    expect(result.failures[0]!.message).toMatch(/^invalid YAML: /);
  });
});
