import {
  expandGraph,
  getEntity,
  parseExpandRequest,
  parseSemanticRequest,
  semanticSearch,
} from '../textbook/index.js';
import type { Caller } from './caller.js';
import { corpusVersionInput, parseInput } from './inputs.js';
import {
  atCorpusVersion,
  knownCorpusVersion,
  type CallOptions,
  type OperationContext,
  type OperationHost,
} from './operation-host.js';
import type { Operation } from './permissions.js';

/**
 * The REST contract's reads of numbered entities (docs/rest-contract.md): an entity with what it
 * references and what cites it, semantic search read back as entities, and graph expansion from
 * entity or chunk ids. Each runs through the guard as the read it is (entity, search, expandGraph)
 * and answers with the corpus version it read, for the transport's ETag.
 */

export interface CachedReadOptions extends CallOptions {
  /**
   * Asked once the corpus version is known, before any work: true when the client already holds
   * the answer for this version (an ETag match), and the read is skipped (`view` is null).
   */
  unchanged?: (workspaceId: string, corpusVersion: number) => boolean;
}

export interface CachedRead<T> {
  workspaceId: string;
  corpusVersion: number;
  view: T | null;
}

function cachedRead<T>(
  service: OperationHost,
  caller: Caller,
  operation: Operation,
  workspaceId: unknown,
  options: CachedReadOptions,
  work: (context: OperationContext, corpusVersion: number) => Promise<T>,
): Promise<CachedRead<T>> {
  return service.guard(
    caller,
    operation,
    workspaceId,
    async (context) => {
      const { corpusVersion } = context;
      const unchanged = options.unchanged?.(context.workspaceId, corpusVersion) ?? false;
      return {
        workspaceId: context.workspaceId,
        corpusVersion,
        view: unchanged ? null : await work(context, corpusVersion),
      };
    },
    options,
  );
}

/**
 * A REST contract request's JSON body as it arrived: the contract's own parsers
 * (parseSemanticRequest, parseExpandRequest) check it, so its refusals keep the contract's words
 * and order (docs/rest-contract.md).
 */
type ContractBody = unknown;

/** `GET /entity/{type}/{number}`: the type and number as the path gave them. */
export function textbookEntity(
  service: OperationHost,
  caller: Caller,
  input: { workspaceId: string; type: string; number: string },
  options: CachedReadOptions = {},
) {
  return cachedRead(service, caller, 'entity', input.workspaceId, options, ({ runtime, workspaceId }) =>
    getEntity(runtime, workspaceId, input.type, input.number),
  );
}

/**
 * `POST /search/semantic`: the body checked in the contract's words before the guard (as the
 * contract orders its errors), read no older than the corpus version the answer is tagged with,
 * nor than `minCorpusVersion` when the client presents one.
 */
export function textbookSearch(
  service: OperationHost,
  caller: Caller,
  input: { workspaceId: string; body: ContractBody; minCorpusVersion?: number | string | null },
  options: CachedReadOptions = {},
) {
  const request = parseSemanticRequest(input.body);
  return cachedRead(service, caller, 'search', input.workspaceId, options, (context, corpusVersion) => {
    // The ETag names the primary's corpus version, so the body must be at least that fresh even
    // when a replica (DATABASE_READ_URL) serves it: a stale body under a fresh tag would be
    // revalidated as current.
    const presented =
      input.minCorpusVersion == null
        ? null
        : parseInput(corpusVersionInput('min_corpus_version'), input.minCorpusVersion);
    return atCorpusVersion(context, Math.max(presented ?? 0, corpusVersion), () =>
      semanticSearch(context.runtime, context.workspaceId, request, knownCorpusVersion(context)),
    );
  });
}

/** `POST /search/expand-graph`: the body checked in the contract's words before the guard. */
export function textbookExpand(
  service: OperationHost,
  caller: Caller,
  input: { workspaceId: string; body: ContractBody },
  options: CachedReadOptions = {},
) {
  const request = parseExpandRequest(input.body);
  return cachedRead(service, caller, 'expandGraph', input.workspaceId, options, ({ runtime, workspaceId }) =>
    expandGraph(runtime, workspaceId, request),
  );
}
