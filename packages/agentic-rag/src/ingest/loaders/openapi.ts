import { parseDocument } from 'yaml';
import { ErrorCode } from '../../errors/index.js';
import type { LoadedDocument } from '../document.js';
import type { Loader, LoaderInput, LoadResult } from './loader.js';
import { renderErrors } from './openapi/errors.js';
import { type Json, sortedIds, isObject, asObject } from './openapi/json.js';
import { renderOperation } from './openapi/operation.js';
import { listOperations } from './openapi/operations.js';
import { renderOverview } from './openapi/overview.js';
import { type Spec, RefSink } from './openapi/refs.js';
import { renderSchema } from './openapi/schema.js';
import type { Draft } from './openapi/text-builder.js';

export type { OperationType } from './openapi/operations.js';

/**
 * OpenAPI 3 specifications as documents a question can land on: one per operation, one per
 * operation's error responses, one per component schema and one overview (`#info`). Each has its
 * own rendered Markdown-like text, because that text is what gets embedded, BM25-indexed and
 * quoted: "POST /locations — Create a location" answers a question, a YAML fragment does not.
 *
 * Ids: `<file>#info`, `<file>#paths<path>/<method>`, `<file>#paths<path>/<method>/errors`,
 * `<file>#components/schemas/<Name>`. `ref_ids` lists the documents one points at directly (one
 * hop: query-time expansion walks further) and `referenced_by` is its inverse over the file.
 * A `$ref` that resolves to nothing is not a failure of the file: the document is kept and the
 * ref is listed in its `unresolved_refs`.
 *
 * Resources: an operation's `resource` is its first path segment as the shared resource name of
 * graph/naming (`/shipments/{id}/events` → `shipment`, `/rate-cards` → `rate-card`), the name the
 * offline extractor gives the same path in prose; a deeper collection is its `sub_resource`
 * (`event`), and an action's verb segment is its `action` (`/shipments/{id}/cancel` → `cancel`).
 * Version segments (`/v2`, `/api`) are skipped.
 */

export function isOpenApi3(value: unknown): value is Json {
  return isObject(value) && typeof value.openapi === 'string' && value.openapi.startsWith('3.');
}

/** A .yaml/.yml/.json file known to be a spec; JSON parses as YAML too. Anything else is PARSE_FAILED. */
export const loadOpenApi: Loader = (input) => {
  const parsed = parseDocument(input.text);
  const value: unknown = parsed.errors.length === 0 ? parsed.toJS() : undefined;
  if (!isOpenApi3(value)) {
    const reason = parsed.errors[0]?.message ?? 'no "openapi: 3.x" field';
    return {
      documents: [],
      failures: [
        {
          sourcePath: input.sourcePath,
          code: ErrorCode.PARSE_FAILED,
          message: `invalid OpenAPI 3 document: ${reason}`,
        },
      ],
    };
  }
  return loadOpenApiSpec(input, value);
};

/** The documents of an already parsed OpenAPI 3 document (YAML and JSON give the same value, so the same output). */
export function loadOpenApiSpec(input: LoaderInput, root: Json): LoadResult {
  const spec: Spec = {
    root,
    file: input.sourcePath,
    schemas: asObject(asObject(root.components).schemas),
    fileRefs: new RefSink(),
  };
  const operations = listOperations(spec);
  const drafts: Draft[] = [renderOverview(spec, operations)];
  for (const operation of operations) {
    const errors = renderErrors(spec, operation);
    drafts.push(renderOperation(spec, operation, errors?.id));
    if (errors) drafts.push(errors);
  }
  for (const [name, schema] of Object.entries(spec.schemas)) drafts.push(renderSchema(spec, name, schema));

  const overview = drafts[0]!;
  overview.unresolved = new Set([
    ...spec.fileRefs.unresolved,
    ...drafts.flatMap((draft) => [...draft.unresolved]),
  ]);
  const referencedBy = new Map<string, Set<string>>(drafts.map((draft) => [draft.id, new Set<string>()]));
  for (const draft of drafts) {
    for (const target of draft.refIds) if (target !== draft.id) referencedBy.get(target)?.add(draft.id);
  }
  const documents = drafts.map((draft): LoadedDocument => {
    const unresolved = [...draft.unresolved].sort();
    return {
      sourcePath: draft.id,
      sourceFile: input.sourcePath,
      kind: 'openapi',
      title: draft.title,
      url: null,
      text: draft.text,
      blocks: draft.blocks,
      metadata: {
        ...draft.metadata,
        ref_ids: sortedIds(draft.refIds, draft.id),
        referenced_by: sortedIds(referencedBy.get(draft.id) ?? [], draft.id),
        ...(unresolved.length > 0 ? { unresolved_refs: unresolved } : {}),
      },
      ...(draft.facts ? { facts: draft.facts } : {}),
    };
  });
  return { documents, failures: [] };
}
