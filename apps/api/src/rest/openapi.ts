import { RELATION_TYPES, TRAVERSE_TYPES } from './textbook.js';

const error = {
  description: 'An error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
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
const cached = (seconds: number) => ({
  ETag: { description: 'Weak tag of the request and the corpus version', schema: { type: 'string' } },
  'Cache-Control': { description: `public, max-age=${seconds}`, schema: { type: 'string' } },
});
const entityFields = {
  id: { type: 'string', example: 'algorithm:3.2' },
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
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
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
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Results sorted by score, descending',
            headers: cached(86400),
            content: {
              'application/json': {
                schema: {
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
              },
            },
          },
          '304': { description: 'Not modified (If-None-Match matched)' },
          '400': error,
          '404': error,
        },
      },
    },
    '/search/expand-graph': {
      post: {
        summary: 'Relationships of entities, one hop out',
        parameters: [workspace],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                required: ['document_ids'],
                properties: {
                  document_ids: {
                    type: 'array',
                    minItems: 1,
                    maxItems: 50,
                    items: { type: 'string', pattern: '^[a-z]+:([A-Z]|\\d+)(\\.\\d+)*$' },
                  },
                  traverse_types: { type: 'array', items: { type: 'string', enum: RELATION_TYPES } },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Unknown ids are left out and named in metadata.warnings',
            headers: cached(86400),
            content: {
              'application/json': {
                schema: {
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
              },
            },
          },
          '304': { description: 'Not modified' },
          '400': error,
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
            schema: { type: 'string', pattern: '^([A-Z]|\\d+)(\\.\\d+)*$', example: '3.2' },
          },
          workspace,
        ],
        responses: {
          '200': {
            description: 'The entity',
            headers: cached(604800),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    ...entityFields,
                    content: { type: 'string' },
                    references: { type: 'array', items: { $ref: '#/components/schemas/EntityReference' } },
                    cited_by: { type: 'array', items: { $ref: '#/components/schemas/EntityReference' } },
                  },
                },
              },
            },
          },
          '304': { description: 'Not modified' },
          '400': error,
          '404': error,
        },
      },
    },
  },
  components: {
    schemas: {
      Error: {
        type: 'object',
        required: ['detail', 'status_code', 'error_code', 'timestamp'],
        properties: {
          detail: { type: 'string', example: 'query must be at least 3 characters' },
          status_code: { type: 'integer', example: 400 },
          error_code: { type: 'string', example: 'INVALID_INPUT' },
          timestamp: { type: 'string', format: 'date-time' },
        },
      },
      EntityReference: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          type: { type: 'string' },
          number: { type: ['string', 'null'] },
          title: { type: ['string', 'null'] },
          relation: { type: 'string', enum: ['REFERENCES', 'CITES', 'USES_IN'] },
        },
      },
    },
  },
} as const;
