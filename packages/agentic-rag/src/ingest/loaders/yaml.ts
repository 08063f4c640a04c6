import { parseDocument, type Document } from 'yaml';
import { ErrorCode } from '../../errors/index.js';
import type { Block } from '../document.js';
import type { Loader, LoaderInput, LoadResult } from './loader.js';
import { titleFromPath } from './normalize.js';
import { isOpenApi3, loadOpenApiSpec } from './openapi.js';

const KEY_LINE = /^( {0,4})([^\s#-][^:]*?|"[^"]*"|'[^']*'):(?:\s|$)/;

/**
 * What `.yaml`/`.yml` files get: an OpenAPI 3 document goes to the OpenAPI loader (a document per
 * operation and schema), anything else to loadYaml. loadYaml itself stays generic, so a spec can
 * still be read as plain structured text when that is what a caller wants.
 */
export const loadYamlOrOpenApi: Loader = (input) => {
  const parsed = parseDocument(input.text);
  if (parsed.errors.length === 0) {
    const value: unknown = parsed.toJS();
    if (isOpenApi3(value)) return loadOpenApiSpec(input, value);
  }
  return parsedYaml(input, parsed);
};

/**
 * YAML as structured text: each top-level key and each key one level below it (an OpenAPI
 * path, a schema) starts a block whose heading is its key path. The file must parse; a broken
 * spec is reported rather than indexed as garbage.
 */
export const loadYaml: Loader = (input) => parsedYaml(input, parseDocument(input.text));

function parsedYaml(input: LoaderInput, parsed: Document.Parsed): LoadResult {
  if (parsed.errors.length > 0) {
    return {
      documents: [],
      failures: [
        {
          sourcePath: input.sourcePath,
          code: ErrorCode.PARSE_FAILED,
          message: `invalid YAML: ${parsed.errors[0]!.message}`,
        },
      ],
    };
  }
  const blocks: Block[] = [];
  const lines = input.text.split('\n');
  let offset = 0;
  let indentUnit = 0;
  let current: Block | null = null;
  for (const line of lines) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const key = KEY_LINE.exec(line);
    const indent = key ? key[1]!.length : -1;
    if (key && indent > 0 && indentUnit === 0) indentUnit = indent;
    const isSection = key && (indent === 0 || indent === indentUnit);
    if (isSection) {
      if (current) blocks.push(current);
      const title = key[2]!.replace(/^["']|["']$/g, '');
      blocks.push({ type: 'heading', start, end, level: indent === 0 ? 1 : 2, title });
      current = null;
      continue;
    }
    if (line.trim() === '') continue;
    if (current) current.end = end;
    else current = { type: 'code', start, end };
  }
  if (current) blocks.push(current);

  const info = parsed.toJS() as { info?: { title?: unknown } } | null;
  const title = typeof info?.info?.title === 'string' ? info.info.title : titleFromPath(input.sourcePath);
  return {
    documents: [
      {
        sourcePath: input.sourcePath,
        sourceFile: input.sourcePath,
        kind: 'yaml',
        title,
        url: null,
        text: input.text,
        blocks,
        metadata: {},
      },
    ],
    failures: [],
  };
}
