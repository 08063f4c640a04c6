import { cacheControl } from './caching.js';
import {
  CONTRACT_RELATION_TYPES as RELATION_TYPES,
  CONTRACT_TRAVERSE_TYPES as TRAVERSE_TYPES,
} from '@agentic-rag/core';

const error = {
  description: 'An error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
/** The statuses a route refuses with, each answered by the shared Error body. */
function errors(...statuses: number[]): Record<string, typeof error> {
  return Object.fromEntries(statuses.map((status) => [String(status), error]));
}
const workspace = {
  name: 'workspace',
  in: 'query',
  required: false,
  description: 'Workspace to read (default: the server’s AGENTIC_RAG_WORKSPACE)',
  schema: { type: 'string' },
};
const minCorpusVersion = {
  name: 'min_corpus_version',
  in: 'query',
  required: false,
  description:
    'Read at least this corpus version: the corpusVersion a write returned (answers are never older than their ETag’s version either way)',
  schema: { type: 'integer', minimum: 0 },
};
/** A JSON request body. */
const jsonBody = (schema: object) => ({ required: true, content: { 'application/json': { schema } } });
/** A JSON answer: what it is, its caching headers when it is cached, and its schema. */
const jsonAnswer = (description: string, schema: object, headers?: object) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});
const cached = (seconds: number) => ({
  ETag: { description: 'Weak tag of the request and the corpus version', schema: { type: 'string' } },
  'Cache-Control': { description: cacheControl(seconds), schema: { type: 'string' } },
  Vary: { description: 'Authorization: an answer is to the key that asked', schema: { type: 'string' } },
});
const entityFields = {
  id: { type: 'string', example: 'algorithm_3_2' },
  type: { type: 'string', enum: [...TRAVERSE_TYPES, 'chapter'] },
  number: { type: ['string', 'null'], example: '3.2' },
  title: { type: ['string', 'null'] },
  chapter: { type: ['string', 'null'], example: '3' },
  section: { type: ['string', 'null'], example: '3.3' },
  page_number: { type: ['integer', 'null'] },
};

/** The REST contract as OpenAPI 3.1, served at /openapi.json. */
export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'agentic-rag REST search',
    version: '1.0.0',
    description:
      'Semantic search over numbered entities, graph expansion and entity lookup. Answers carry an ETag on the corpus version; send If-None-Match to revalidate.',
  },
  paths: {
    '/search/semantic': {
      post: {
        summary: 'Hybrid search, answered as the numbered entities the best passages hold',
        parameters: [workspace, minCorpusVersion],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['query'],
          properties: {
            query: { type: 'string', minLength: 3 },
            k: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
            traverse_types: { type: 'array', items: { type: 'string', enum: TRAVERSE_TYPES } },
            filters: {
              type: 'object',
              additionalProperties: false,
              properties: {
                chapter: { type: ['string', 'integer'] },
                section: { type: 'string' },
                page_number: { type: 'integer' },
              },
            },
          },
        }),
        responses: {
          '200': jsonAnswer(
            'Results sorted by score, descending',
            {
              type: 'object',
              required: ['results', 'total_count'],
              properties: {
                results: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      ...entityFields,
                      content: { type: 'string' },
                      score: { type: 'number' },
                    },
                  },
                },
                total_count: { type: 'integer' },
                did_you_mean: {
                  type: 'string',
                  description: 'The corrected words, as the corpus writes them',
                },
                corrections: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { from: { type: 'string' }, to: { type: 'string' } },
                  },
                },
              },
            },
            cached(86400),
          ),
          '304': { description: 'Not modified (If-None-Match matched)' },
          ...errors(400, 404),
        },
      },
    },
    '/search/expand-graph': {
      post: {
        summary: 'Relationships of entities, one hop out',
        parameters: [workspace],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['document_ids'],
          properties: {
            document_ids: {
              type: 'array',
              minItems: 1,
              maxItems: 50,
              items: {
                type: 'string',
                description:
                  'algorithm_3_2; also algorithm:3.2, short types such as algo_3_2, and chunk ids (32 hex digits)',
                example: 'formula_3_2',
              },
            },
            traverse_types: { type: 'array', items: { type: 'string', enum: RELATION_TYPES } },
          },
        }),
        responses: {
          '200': jsonAnswer(
            'Unknown but well-formed ids are left out and named in metadata.warnings',
            {
              type: 'object',
              properties: {
                expanded_documents: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'string' },
                      type: { type: 'string' },
                      content: { type: 'string' },
                      relationships: {
                        type: 'array',
                        items: {
                          type: 'object',
                          properties: {
                            type: { type: 'string', enum: RELATION_TYPES },
                            target_id: { type: 'string' },
                            target_type: { type: 'string' },
                          },
                        },
                      },
                    },
                  },
                },
                relationship_count: { type: 'integer' },
                metadata: {
                  type: 'object',
                  properties: { warnings: { type: 'array', items: { type: 'string' } } },
                },
              },
            },
            cached(86400),
          ),
          '304': { description: 'Not modified' },
          ...errors(400),
        },
      },
    },
    '/entity/{entity_type}/{number}': {
      get: {
        summary: 'A numbered entity with what it references and what cites it',
        parameters: [
          {
            name: 'entity_type',
            in: 'path',
            required: true,
            schema: { type: 'string', enum: ['formula', 'algorithm', 'table', 'figure'] },
          },
          {
            name: 'number',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^([A-Za-z]|\\d+)\\.\\d+$', example: '3.2' },
          },
          workspace,
        ],
        responses: {
          '200': jsonAnswer(
            'The entity',
            {
              type: 'object',
              properties: {
                ...entityFields,
                content: { type: 'string' },
                references: { type: 'array', items: { type: 'string' }, example: ['formula_3_2'] },
                cited_by: { type: 'array', items: { type: 'string' }, example: ['exercise_3_2'] },
              },
            },
            cached(604800),
          ),
          '304': { description: 'Not modified' },
          ...errors(400, 404),
        },
      },
    },
    '/answer/stream': {
      post: {
        summary:
          'ragAnswer as Server-Sent Events: stage progress, the answer in pieces, then the final answer',
        description:
          'Needs `Authorization: Bearer <key>` (a reader key whose scope holds the workspace) and counts against the key’s rate limit like ragAnswer. A request refused before the run starts (no key, bad input, a workspace out of scope, rate limited, RAG disabled) gets the JSON error body with its status; after that every failure is an `error` event. The stream ends after `final` or `error`; a comment line (`: keep-alive`) every 15 s keeps proxies from closing a stream waiting on a slow stage. A client that disconnects aborts the run.',
        parameters: [
          {
            ...workspace,
            description:
              'Workspace to answer from when the body has no workspaceId (default: the server’s AGENTIC_RAG_WORKSPACE)',
          },
        ],
        requestBody: jsonBody({
          type: 'object',
          required: ['query'],
          description: 'ragAnswer’s input as GraphQL takes it (RagAnswerInput)',
          properties: {
            query: { type: 'string', minLength: 1, example: 'How do I create a location?' },
            workspaceId: { type: 'string' },
            topK: { type: 'integer', minimum: 1, maximum: 50 },
            useHyde: { type: 'boolean' },
            useTools: { type: 'boolean' },
            filters: { type: 'object', description: 'As RagAnswerInput.filters' },
            debug: { type: 'boolean' },
            minCorpusVersion: { type: 'integer', minimum: 0 },
            conversationId: {
              type: 'string',
              maxLength: 64,
              description: 'Continue this conversation (not with startConversation)',
            },
            startConversation: { type: 'boolean', description: 'Begin a conversation' },
          },
        }),
        responses: {
          '200': {
            description:
              'One event per frame: `event:` is the event’s type, `data:` the event as one line of JSON (AnswerStreamEvent)',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                // OpenAPI 3.1 has no schema for one event of a stream (3.2's itemSchema): an extension.
                'x-event-schema': { $ref: '#/components/schemas/AnswerStreamEvent' },
                example:
                  'event: stage\ndata: {"type":"stage","stage":"plan","status":"started"}\n\nevent: delta\ndata: {"type":"delta","text":"Create a location with POST /locations [1]. "}\n\n',
              },
            },
          },
          ...errors(400, 401, 403, 404, 405, 413),
          '429': {
            ...error,
            headers: {
              'Retry-After': {
                description: 'Seconds until the key may ask again',
                schema: { type: 'integer' },
              },
            },
          },
          ...errors(503),
        },
      },
    },
    '/admin/kb/refresh': {
      post: {
        summary: 'Fetch one page of a crawled site again now and update or remove its document',
        description:
          'Design document 000’s on-demand refresh (docs/web-sources.md). Needs `Authorization: Bearer <key>` of an admin key whose scope holds the workspace. The page is asked for with its stored validators (If-None-Match / If-Modified-Since) unless `full`; robots.txt and the address policy apply as in a crawl. Errors: SOURCE_OUTSIDE_ROOT (403) for a URL of a site no crawl of the workspace fetched, FETCH_BLOCKED (403) for a private or otherwise blocked address, ROBOTS_DISALLOWED (403), NOT_FOUND (404) when the site answers 404/410 and nothing was stored, UNSUPPORTED_FILE_TYPE (415) for a page that is not HTML, UPSTREAM_UNAVAILABLE (502) when the site fails; the stored document is left as it was on every error.',
        parameters: [
          {
            name: 'url',
            in: 'query',
            required: true,
            description: 'The page: an absolute http(s) URL of a site crawled into the workspace',
            schema: { type: 'string', maxLength: 2048, example: 'https://docs.example.com/guide/carriers' },
          },
          {
            name: 'full',
            in: 'query',
            required: false,
            description: 'Fetch without validators (a forced refetch)',
            schema: { type: 'boolean', default: false },
          },
          {
            ...workspace,
            description: 'Workspace the site was crawled into (default: AGENTIC_RAG_WORKSPACE)',
          },
        ],
        responses: {
          '200': jsonAnswer('What became of the page’s document', {
            type: 'object',
            required: ['url', 'site', 'outcome', 'http_status', 'conditional', 'chunks', 'corpus_version'],
            properties: {
              url: { type: 'string', description: 'The document id: the URL without its fragment' },
              site: { type: 'string', description: 'The origin, the document’s source root' },
              outcome: { type: 'string', enum: ['added', 'updated', 'unchanged', 'removed'] },
              http_status: { type: 'integer', description: 'The site’s answer (304: not modified)' },
              conditional: {
                type: 'boolean',
                description: 'True when the stored validators were sent',
              },
              chunks: { type: 'integer', description: 'Chunks written' },
              corpus_version: {
                type: 'integer',
                description: 'The workspace’s corpus version after the refresh',
              },
            },
          }),
          ...errors(400, 401, 403, 404, 405, 413, 415, 429, 502, 503),
        },
      },
    },
  },
  components: {
    schemas: {
      AnswerStreamEvent: {
        description: 'What POST /answer/stream sends, told apart by `type`',
        oneOf: [
          streamEvent('stage', ['stage', 'status'], {
            stage: {
              type: 'string',
              enum: [
                'plan',
                'rewrite',
                'hyde',
                'retrieve',
                'quarantine',
                'tools',
                'synthesize',
                'refuse',
                'self-check',
              ],
            },
            status: { type: 'string', enum: ['started', 'finished'] },
            ms: { type: 'number', description: 'status finished: the stage’s duration' },
          }),
          streamEvent('delta', ['text'], {
            text: {
              type: 'string',
              description: 'The next piece of the answer; the pieces join to the final answer',
            },
          }),
          streamEvent('citation', ['citation'], {
            citation: {
              type: 'object',
              description: 'Sent once, before the first piece that cites it, as the final answer has it',
            },
          }),
          streamEvent('final', ['answer'], {
            answer: { type: 'object', description: 'What ragAnswer returns for the same input' },
          }),
          streamEvent('error', ['code', 'message', 'retryable'], {
            code: { type: 'string', example: 'WORKSPACE_NOT_FOUND' },
            message: { type: 'string' },
            retryable: { type: 'boolean' },
          }),
        ],
      },
      Error: {
        type: 'object',
        required: ['detail', 'status_code', 'error_code', 'timestamp'],
        properties: {
          detail: { type: 'string', example: 'query must be at least 3 characters' },
          status_code: { type: 'integer', example: 400 },
          error_code: { type: 'string', example: 'INVALID_PARAMETER' },
          timestamp: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
} as const;

/** One kind of stream event: an object told apart by its `type`, with the fields that kind carries. */
function streamEvent<Type extends string, Fields extends Record<string, object>>(
  type: Type,
  required: ReadonlyArray<keyof Fields & string>,
  fields: Fields,
) {
  return {
    type: 'object',
    required: ['type', ...required],
    properties: { type: { const: type }, ...fields },
  } as const;
}
