import { readAnswerStream } from './answer-stream.js';
import { AgenticRagError } from './errors.js';
import { EXPAND_GRAPH, RAG_ANSWER, SEARCH } from './operations.js';
import type {
  ExpandGraphQuery,
  ExpandGraphQueryVariables,
  RagAnswerMutation,
  RagAnswerMutationVariables,
  SearchQuery,
  SearchQueryVariables,
} from './generated/graphql.js';
import type {
  EntityResponse,
  ExpandGraphRequest,
  ExpandGraphResponse,
  GraphExpansion,
  RagAnswer,
  RagAnswerInput,
  RagAnswerStreamEvent,
  SearchInput,
  SearchResult,
  SemanticSearchRequest,
  SemanticSearchResponse,
} from './types.js';

export interface ClientOptions {
  /**
   * The API's root. Default: `RAG_SERVICE_URL` when the process has it (the REST contract's name
   * for where the RAG service is, docs/rest-contract.md), else `http://localhost:4000`, where
   * `pnpm start` listens.
   */
  baseUrl?: string;
  /** Used when a call names none. */
  workspaceId?: string;
  /** The API key (`ar_…`): sent as `Authorization: Bearer <key>` with every request. */
  apiKey?: string;
  /** Sent with every request (an auth header of a proxy in front, say). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Remember REST answers and revalidate them with their ETag (default true). */
  cacheRest?: boolean;
}

/**
 * The agentic-rag APIs from TypeScript: GraphQL (`ragAnswer`, `search`, `expandGraph`, or any
 * query with `graphql()`), `ragAnswerStream` (Server-Sent Events), and the REST contract
 * (`semanticSearch`, `expandDocuments`,
 * `entity`). Errors are `AgenticRagError` with the service's code. REST answers are cached in
 * memory and revalidated with `If-None-Match`, so an unchanged corpus costs a 304.
 */
export class AgenticRagClient {
  private readonly fetchImpl: typeof fetch;
  private readonly etags = new Map<string, { etag: string; body: unknown }>();
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions = {}) {
    this.fetchImpl = options.fetch ?? fetch;
    this.baseUrl = options.baseUrl ?? defaultBaseUrl();
  }

  get workspaceId(): string | undefined {
    return this.options.workspaceId;
  }

  /** Any GraphQL operation; the first error becomes an `AgenticRagError`. */
  async graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await this.send('/graphql', {
      method: 'POST',
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json().catch(() => null)) as {
      data?: T | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    } | null;
    const error = body?.errors?.[0];
    if (error)
      throw new AgenticRagError(error.extensions?.code ?? 'GRAPHQL_ERROR', error.message, response.status);
    if (!body?.data)
      throw new AgenticRagError(
        'BAD_RESPONSE',
        `the API answered ${response.status} without data`,
        response.status,
      );
    return body.data;
  }

  async ragAnswer(input: RagAnswerInput): Promise<RagAnswer> {
    const variables = { input: this.scoped(input) } satisfies RagAnswerMutationVariables;
    const data = await this.graphql<RagAnswerMutation>(RAG_ANSWER, variables);
    return data.ragAnswer;
  }

  /**
   * ragAnswer as it runs (`POST /answer/stream`): stage progress, the answer's text in pieces,
   * each citation once it is final, then `final` with the whole answer. Abort `signal` (or break
   * out of the loop) to stop the run on the server.
   */
  async *ragAnswerStream(
    input: RagAnswerInput,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<RagAnswerStreamEvent, void, undefined> {
    const response = await this.send('/answer/stream', {
      method: 'POST',
      body: JSON.stringify(this.scoped(input)),
      headers: { accept: 'text/event-stream' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.ok || !response.body) {
      const parsed = (await response.json().catch(() => null)) as {
        error_code?: string;
        detail?: string;
      } | null;
      throw new AgenticRagError(
        parsed?.error_code ?? 'BAD_RESPONSE',
        parsed?.detail ?? `the API answered ${response.status}`,
        response.status,
      );
    }
    yield* readAnswerStream(response.body);
  }

  async search(input: SearchInput): Promise<SearchResult> {
    const variables = { input: this.scoped(input) } satisfies SearchQueryVariables;
    const data = await this.graphql<SearchQuery>(SEARCH, variables);
    return data.search;
  }

  async expandGraph(
    ids: string[],
    options: { depth?: number; relationTypes?: string[]; workspaceId?: string } = {},
  ): Promise<GraphExpansion> {
    const variables = {
      workspaceId: this.workspace(options.workspaceId),
      ids,
      depth: options.depth ?? 1,
      ...(options.relationTypes ? { relationTypes: options.relationTypes } : {}),
    } satisfies ExpandGraphQueryVariables;
    const data = await this.graphql<ExpandGraphQuery>(EXPAND_GRAPH, variables);
    return data.expandGraph;
  }

  semanticSearch(request: SemanticSearchRequest, workspaceId?: string): Promise<SemanticSearchResponse> {
    return this.rest('POST', '/search/semantic', request, workspaceId);
  }

  expandDocuments(request: ExpandGraphRequest, workspaceId?: string): Promise<ExpandGraphResponse> {
    return this.rest('POST', '/search/expand-graph', request, workspaceId);
  }

  entity(type: string, number: string, workspaceId?: string): Promise<EntityResponse> {
    return this.rest(
      'GET',
      `/entity/${encodeURIComponent(type)}/${encodeURIComponent(number)}`,
      undefined,
      workspaceId,
    );
  }

  private async rest<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    workspaceId?: string,
  ): Promise<T> {
    const workspace = workspaceId ?? this.options.workspaceId;
    const url = workspace ? `${path}?workspace=${encodeURIComponent(workspace)}` : path;
    const key = `${method} ${url} ${body === undefined ? '' : JSON.stringify(body)}`;
    const cached = this.options.cacheRest === false ? undefined : this.etags.get(key);
    const response = await this.send(url, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(cached ? { headers: { 'if-none-match': cached.etag } } : {}),
    });
    if (response.status === 304 && cached) return cached.body as T;
    const parsed = (await response.json().catch(() => null)) as
      (T & { error_code?: string; detail?: string }) | null;
    if (!response.ok || parsed === null) {
      throw new AgenticRagError(
        parsed?.error_code ?? 'BAD_RESPONSE',
        parsed?.detail ?? `the API answered ${response.status}`,
        response.status,
      );
    }
    const etag = response.headers.get('etag');
    if (etag && this.options.cacheRest !== false) this.etags.set(key, { etag, body: parsed });
    return parsed;
  }

  private async send(
    path: string,
    init: { method: string; body?: string; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<Response> {
    try {
      return await this.fetchImpl(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          ...this.options.headers,
          ...init.headers,
        },
      });
    } catch (error) {
      throw new AgenticRagError('UNREACHABLE', `cannot reach ${this.baseUrl}: ${(error as Error).message}`);
    }
  }

  private scoped<T extends { workspaceId?: string }>(input: T): T & { workspaceId: string } {
    return { ...input, workspaceId: this.workspace(input.workspaceId) };
  }

  private workspace(given: string | undefined): string {
    const workspace = given ?? this.options.workspaceId;
    if (!workspace)
      throw new AgenticRagError(
        'INVALID_INPUT',
        'no workspace: give workspaceId to the call or to the client',
      );
    return workspace;
  }
}

/** `RAG_SERVICE_URL` where there is a process environment (Node, Bun, Deno's node compat), else the API's default port. */
function defaultBaseUrl(): string {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return environment?.RAG_SERVICE_URL || 'http://localhost:4000';
}
