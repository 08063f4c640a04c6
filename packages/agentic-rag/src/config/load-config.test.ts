import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../errors/index.js';
import { loadConfig, redactConfig, type Env } from './load-config.js';
import { configSchema } from './schema.js';

/** The RagError loadConfig throws for `env`; fails the test if it does not throw one. */
function configError(env: Env): RagError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it.each([
    ['NODE_ENV', 'development'],
    ['HOST', '127.0.0.1'],
    ['PORT', 4000],
    ['DATA_DIR', '.data'],
    ['LOG_LEVEL', 'info'],
    ['LOG_FORMAT', 'pretty'],
    ['LOG_FILE', undefined],
    ['DATABASE_POOL_MAX', Math.min(10, Math.max(2, 2 * os.availableParallelism()))],
    ['NEO4J_USER', 'neo4j'],
    ['AGENTIC_RAG_ENABLED', true],
    ['AGENTIC_RAG_WORKSPACE', 'demo'],
    ['AGENTIC_RAG_CORPUS_DIR', './simulated_ingestion'],
    ['AGENTIC_RAG_TOPK', 8],
    ['AGENTIC_RAG_USE_HYDE', false],
    ['AGENTIC_RAG_USE_TOOLS', true],
    ['AGENTIC_RAG_REDIS_TTL_SECONDS', 900],
    ['AGENTIC_RAG_ENABLE_HTTP_FETCH', false],
    ['AGENTIC_RAG_QUEUE_NAME', 'agentic-rag'],
    ['AGENTIC_RAG_JOB_ATTEMPTS', 3],
    ['AGENTIC_RAG_JOB_BACKOFF_MS', 5000],
    // The pipeline design's defaults for its two channels (docs/design-conformance.md); lexical,
    // ours, is the anchor of adaptive fusion.
    ['HYBRID_VECTOR_WEIGHT', 0.7],
    ['HYBRID_LEXICAL_WEIGHT', 1],
    ['HYBRID_GRAPH_WEIGHT', 0.3],
    ['HYBRID_FUSION', 'adaptive'],
    ['BM25_K1', 0.9],
    ['BM25_B', 0.4],
    ['BM25_HEADING_WEIGHT', 1],
    ['BM25_TITLE_WEIGHT', 2],
    ['LEXICAL_FEEDBACK_WEIGHT', 0.5],
    ['CHUNK_MAX_TOKENS', 400],
    ['CHUNK_OVERLAP_TOKENS', 60],
    ['RAG_EMBEDDER', 'deterministic'],
    ['RAG_EMBEDDING_DIMENSIONS', 768],
    ['RAG_EMBEDDER_BATCH_SIZE', 64],
    ['RAG_EMBEDDER_TIMEOUT_MS', 30_000],
    ['RAG_EMBEDDER_MAX_RETRIES', 4],
    ['RAG_LLM', 'offline'],
    // The Knowledge Retriever's switches (docs/design-conformance.md).
    ['RETRIEVAL_MAX_PRIMARY_RESULTS', 5],
    ['RETRIEVAL_MAX_TOTAL_CHUNKS', 15],
    ['RETRIEVAL_MAX_DEPTH', 3],
    ['CONTEXT_TOKEN_LIMIT', 4000],
    ['ENABLE_QUERY_ANALYSIS', true],
    ['CONTEXT_PRIORITIZE_PRIMARY', true],
    ['RETRIEVAL_TIMEOUT_MS', 5000],
    ['LOG_RETRIEVAL_STATS', true],
    ['BATCH_REFERENCE_LOOKUP', true],
  ] as const)('%s defaults to %j', (key, expected) => {
    expect(config[key]).toBe(expected);
  });

  it.each([
    'DATABASE_URL',
    'REDIS_URL',
    'NEO4J_URI',
    'NEO4J_PASSWORD',
    'RAG_EMBEDDER_BASE_URL',
    'RAG_EMBEDDER_API_KEY',
  ] as const)('%s is unset by default (embedded mode)', (key) => {
    expect(config[key]).toBeUndefined();
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { PORT: number }).PORT = 1;
    }).toThrow(TypeError);
  });

  it('ignores variables the schema does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', SECRET_THING: 'x' })).not.toHaveProperty('PATH');
  });
});

describe('loadConfig parsing', () => {
  it.each([
    [{ PORT: '8080' }, 'PORT', 8080],
    [{ PORT: ' 5000 ' }, 'PORT', 5000],
    [{ PORT: '' }, 'PORT', 4000],
    [{ PORT: '   ' }, 'PORT', 4000],
    [{ HOST: '' }, 'HOST', '127.0.0.1'],
    [{ DATA_DIR: ' /var/rag ' }, 'DATA_DIR', '/var/rag'],
    [{ NODE_ENV: 'production' }, 'NODE_ENV', 'production'],
    [{ HYBRID_VECTOR_WEIGHT: '0.7' }, 'HYBRID_VECTOR_WEIGHT', 0.7],
    [{ AGENTIC_RAG_WORKSPACE: 'team_a.v2-prod' }, 'AGENTIC_RAG_WORKSPACE', 'team_a.v2-prod'],
    [{ DATABASE_URL: 'postgresql://localhost/rag' }, 'DATABASE_URL', 'postgresql://localhost/rag'],
    [{ REDIS_URL: 'rediss://cache:6380' }, 'REDIS_URL', 'rediss://cache:6380'],
    [{ NEO4J_URI: 'neo4j+s://graph.example' }, 'NEO4J_URI', 'neo4j+s://graph.example'],
  ] as const)('%j gives %s = %j', (env, key, expected) => {
    expect(loadConfig(env)[key]).toBe(expected);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['on', true],
    ['TRUE', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['off', false],
    ['FALSE', false],
    ['No', false],
  ])('reads boolean %j as %s (never coerced: "false" is false)', (value, expected) => {
    expect(loadConfig({ AGENTIC_RAG_ENABLED: value }).AGENTIC_RAG_ENABLED).toBe(expected);
    expect(loadConfig({ AGENTIC_RAG_USE_HYDE: value }).AGENTIC_RAG_USE_HYDE).toBe(expected);
  });

  it('treats an empty boolean as unset, not as false', () => {
    expect(loadConfig({ AGENTIC_RAG_ENABLED: '' }).AGENTIC_RAG_ENABLED).toBe(true);
  });
});

describe('loadConfig errors', () => {
  it.each([
    ['PORT', 'abc', 'PORT="abc" is invalid: expected an integer from 0 to 65535'],
    ['PORT', '70000', 'PORT="70000" is invalid: expected an integer from 0 to 65535'],
    ['PORT', '4000.5', 'PORT="4000.5" is invalid: expected an integer from 0 to 65535'],
    [
      'AGENTIC_RAG_ENABLED',
      'maybe',
      'AGENTIC_RAG_ENABLED="maybe" is invalid: expected a boolean: true/false, 1/0, yes/no, on/off',
    ],
    ['NODE_ENV', 'prod', 'NODE_ENV="prod" is invalid: expected one of development, production, test'],
    [
      'LOG_LEVEL',
      'verbose',
      'LOG_LEVEL="verbose" is invalid: expected one of trace, debug, info, warn, error, fatal, silent',
    ],
    ['LOG_FORMAT', 'text', 'LOG_FORMAT="text" is invalid: expected one of pretty, json'],
    ['AGENTIC_RAG_TOPK', '0', 'AGENTIC_RAG_TOPK="0" is invalid: expected an integer from 1 to 50'],
    [
      'AGENTIC_RAG_JOB_ATTEMPTS',
      '-1',
      'AGENTIC_RAG_JOB_ATTEMPTS="-1" is invalid: expected an integer from 1 to 50',
    ],
    ['HYBRID_VECTOR_WEIGHT', '1.5', 'HYBRID_VECTOR_WEIGHT="1.5" is invalid: expected a number from 0 to 1'],
    [
      'AGENTIC_RAG_WORKSPACE',
      '-bad',
      'AGENTIC_RAG_WORKSPACE="-bad" is invalid: expected a workspace id: letters, digits, _ . - (max 64)',
    ],
    [
      'AGENTIC_RAG_QUEUE_NAME',
      'a:b',
      'AGENTIC_RAG_QUEUE_NAME="a:b" is invalid: expected a queue name: letters, digits, _ - (max 64)',
    ],
    ['RAG_EMBEDDER', 'cohere', 'RAG_EMBEDDER="cohere" is invalid: expected one of deterministic, openai'],
    [
      'DATABASE_URL',
      'mysql://db/rag',
      'DATABASE_URL="mysql://db/rag" is invalid: expected a URL with scheme postgres or postgresql',
    ],
    [
      'RAG_EMBEDDER_BASE_URL',
      'not a url',
      'RAG_EMBEDDER_BASE_URL="not a url" is invalid: expected a URL with scheme http or https',
    ],
  ])('rejects %s=%j with INVALID_CONFIG naming the variable and what it accepts', (key, value, message) => {
    const error = configError({ [key]: value });
    expect(error.code).toBe(ErrorCode.INVALID_CONFIG);
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ variables: [key] });
  });

  it('reports every bad variable at once, one line each', () => {
    const error = configError({ PORT: 'abc', NODE_ENV: 'prod', AGENTIC_RAG_USE_TOOLS: 'maybe', HOST: 'ok' });
    expect(error.message.split('\n')).toEqual([
      'NODE_ENV="prod" is invalid: expected one of development, production, test',
      'PORT="abc" is invalid: expected an integer from 0 to 65535',
      'AGENTIC_RAG_USE_TOOLS="maybe" is invalid: expected a boolean: true/false, 1/0, yes/no, on/off',
    ]);
    expect(error.details).toEqual({ variables: ['NODE_ENV', 'PORT', 'AGENTIC_RAG_USE_TOOLS'] });
  });

  it.each([
    [
      { RAG_EMBEDDER: 'openai' },
      [
        'RAG_EMBEDDER_BASE_URL is required when RAG_EMBEDDER=openai',
        'RAG_EMBEDDER_MODEL is required when RAG_EMBEDDER=openai',
      ],
    ],
    [
      { RAG_EMBEDDER: 'openai', RAG_EMBEDDER_BASE_URL: 'http://localhost:8080/v1' },
      ['RAG_EMBEDDER_MODEL is required when RAG_EMBEDDER=openai'],
    ],
    [
      { RAG_EMBEDDER: 'openai', RAG_EMBEDDER_MODEL: 'bge-small' },
      ['RAG_EMBEDDER_BASE_URL is required when RAG_EMBEDDER=openai'],
    ],
    [
      { RAG_LLM: 'openai', RAG_LLM_BASE_URL: 'https://llm.example/v1' },
      ['RAG_LLM_MODEL is required when RAG_LLM=openai'],
    ],
    [
      { RAG_INGEST_HYDE: 'true' },
      ['RAG_INGEST_HYDE=true needs a model to write the questions: set RAG_LLM=openai'],
    ],
    [
      { CHUNK_MAX_TOKENS: '100', CHUNK_OVERLAP_TOKENS: '100' },
      ['CHUNK_OVERLAP_TOKENS=100 is invalid: expected less than CHUNK_MAX_TOKENS (100)'],
    ],
    [
      { CHUNK_OVERLAP_TOKENS: '500' },
      ['CHUNK_OVERLAP_TOKENS=500 is invalid: expected less than CHUNK_MAX_TOKENS (400)'],
    ],
  ])('rejects the combination %j', (env, problems) => {
    const error = configError(env);
    expect(error.code).toBe(ErrorCode.INVALID_CONFIG);
    expect(error.message).toBe(problems.join('\n'));
    expect(error.details).toEqual({ problems });
  });

  it('accepts openai once base URL and model are set, and an overlap below the maximum', () => {
    const config = loadConfig({
      RAG_EMBEDDER: 'openai',
      RAG_EMBEDDER_BASE_URL: 'http://localhost:8080/v1',
      RAG_EMBEDDER_MODEL: 'bge-small',
      CHUNK_MAX_TOKENS: '100',
      CHUNK_OVERLAP_TOKENS: '99',
    });
    expect([config.RAG_EMBEDDER, config.RAG_EMBEDDER_MODEL, config.CHUNK_OVERLAP_TOKENS]).toEqual([
      'openai',
      'bge-small',
      99,
    ]);
  });

  it('never puts API keys or passwords into the message of another error', () => {
    const error = configError({
      NEO4J_PASSWORD: 'n-s3cret',
      RAG_EMBEDDER_API_KEY: 'sk-live-123',
      RAG_LLM_API_KEY: 'sk-llm-9',
      PORT: 'x',
    });
    expect(error.message).toBe('PORT="x" is invalid: expected an integer from 0 to 65535');
    expect(JSON.stringify(error.details)).not.toMatch(/s3cret|sk-live|sk-llm/);
  });

  it.each([
    ['DATABASE_URL', 'mysql://app:hunter2@db:3306/rag'],
    ['REDIS_URL', 'http://:hunter2@cache:6379'],
  ])('does not echo the password of an invalid %s', (key, value) => {
    const error = configError({ [key]: value });
    expect(error.message).toMatch(new RegExp(`^${key}=`));
    expect(error.message).not.toContain('hunter2');
  });
});

describe('redactConfig', () => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://app:hunter2@db:5432/rag',
    REDIS_URL: 'redis://:cachepw@cache:6379',
    NEO4J_URI: 'bolt://neo4j:graphpw@graph:7687',
    NEO4J_PASSWORD: 'n-s3cret',
    RAG_EMBEDDER_API_KEY: 'sk-live-123',
  });

  it('replaces secrets and URL passwords but keeps everything else', () => {
    const redacted = redactConfig(config);
    expect(redacted).toMatchObject({
      DATABASE_URL: 'postgres://app:redacted@db:5432/rag',
      REDIS_URL: 'redis://:redacted@cache:6379',
      NEO4J_URI: 'bolt://neo4j:redacted@graph:7687',
      NEO4J_PASSWORD: '<redacted>',
      RAG_EMBEDDER_API_KEY: '<redacted>',
      PORT: 4000,
      NEO4J_USER: 'neo4j',
    });
    expect(JSON.stringify(redacted)).not.toMatch(/hunter2|cachepw|graphpw|s3cret|sk-live/);
    expect(redacted).not.toHaveProperty('RAG_LLM_API_KEY');
  });

  it('leaves the config itself untouched', () => {
    redactConfig(config);
    expect(config.DATABASE_URL).toBe('postgres://app:hunter2@db:5432/rag');
    expect(config.NEO4J_PASSWORD).toBe('n-s3cret');
  });

  it('keeps URLs without a password as they are', () => {
    expect(redactConfig(loadConfig({ DATABASE_URL: 'postgres://db:5432/rag' })).DATABASE_URL).toBe(
      'postgres://db:5432/rag',
    );
  });
});

describe('configSchema', () => {
  it('describes every variable, so every error can say what is accepted', () => {
    const undescribed = Object.entries(configSchema.shape).filter(([, field]) => !field.description);
    expect(undescribed.map(([key]) => key)).toEqual([]);
  });
});

describe('OpenTelemetry variables', () => {
  it('reads OTLP headers as the OTel spec writes them, values URL-decoded', () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%20def, x-tenant=acme=1' })
        .OTEL_EXPORTER_OTLP_HEADERS,
    ).toEqual({ 'api-key': 'abc def', 'x-tenant': 'acme=1' });
  });

  it.each(['api-key', '=value', 'a=b,,c=d', 'key=%zz'])(
    'rejects headers %j without showing them',
    (value) => {
      const error = configError({ OTEL_EXPORTER_OTLP_HEADERS: value });
      expect(error.message).toBe(
        'OTEL_EXPORTER_OTLP_HEADERS=<redacted> is invalid: expected comma-separated name=value pairs (values URL-encoded)',
      );
    },
  );

  it('never logs the headers', () => {
    const config = loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t0ken' });
    expect(redactConfig(config).OTEL_EXPORTER_OTLP_HEADERS).toBe('<redacted>');
  });

  it('accepts the exporters it can start and no other', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'console' }).OTEL_TRACES_EXPORTER).toBe('console');
    expect(configError({ OTEL_TRACES_EXPORTER: 'jaeger' }).message).toBe(
      'OTEL_TRACES_EXPORTER="jaeger" is invalid: expected one of otlp, console, none',
    );
  });
});
