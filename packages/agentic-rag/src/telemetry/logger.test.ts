import { describe, expect, it } from 'vitest';
import { createJsonLogger, type LogLevel } from './logger.js';
import { REDACTED } from './redact.js';

/** A pino-backed logger writing into an array: one parsed object per line. */
function captured(level: LogLevel = 'debug') {
  const lines: string[] = [];
  const logger = createJsonLogger({ level, write: (line) => lines.push(line) });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const SECRETS = {
  password: 'hunter2-field',
  apiKey: 'key-in-a-field-0001',
  authorization: 'Bearer field-token-0002',
  token: 'plain-token-0003',
};

describe('createJsonLogger', () => {
  it('writes one JSON line per entry with level name, ISO time, message and fields in order', () => {
    const { logger, lines, entries } = captured('info');
    logger.info('listening', { event: 'api-listening', port: 4000 });
    logger.debug('dropped below the level', { event: 'noise' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\n$/);
    expect(lines[0]).toContain('"event":"api-listening","port":4000');
    const [entry] = entries();
    expect(entry).toMatchObject({ level: 'info', msg: 'listening', event: 'api-listening', port: 4000 });
    expect(new Date(entry!.time as string).toISOString()).toBe(entry!.time);
  });

  it('redacts secret-named fields at any depth, in arrays, and in child bindings', () => {
    const { logger, lines, entries } = captured();
    logger.info('request', {
      event: 'secrets-top-level',
      ...SECRETS,
      tokens: 1234,
      tokenCount: 56,
    });
    logger.warn('nested', {
      event: 'secrets-nested',
      request: { headers: { Authorization: 'Basic dXNlcjpwYXNzLTAwMDQ=', 'x-api-key': 'nested-key-0005' } },
      config: { RAG_LLM_API_KEY: 'config-key-0006', NEO4J_PASSWORD: 'neo4j-pass-0007', PORT: 4000 },
      attempts: [{ client_secret: 'array-secret-0008' }],
    });
    logger.child({ sessionToken: 'binding-token-0009' }).info('child', { event: 'secrets-binding' });

    const output = lines.join('');
    for (const secret of [
      ...Object.values(SECRETS),
      'dXNlcjpwYXNzLTAwMDQ=',
      'nested-key-0005',
      'config-key-0006',
      'neo4j-pass-0007',
      'array-secret-0008',
      'binding-token-0009',
    ]) {
      expect(output).not.toContain(secret);
    }
    const [top, nested, child] = entries();
    expect(top).toMatchObject({
      password: REDACTED,
      apiKey: REDACTED,
      authorization: REDACTED,
      token: REDACTED,
      // Counts whose names merely contain "token" are kept.
      tokens: 1234,
      tokenCount: 56,
    });
    expect(nested).toMatchObject({
      request: { headers: { Authorization: REDACTED, 'x-api-key': REDACTED } },
      config: { RAG_LLM_API_KEY: REDACTED, NEO4J_PASSWORD: REDACTED, PORT: 4000 },
      attempts: [{ client_secret: REDACTED }],
    });
    expect(child).toMatchObject({ sessionToken: REDACTED });
  });

  it.each([
    ['an e-mail address', 'user jane.doe+rag@example.co.uk asked again', 'jane.doe+rag@example.co.uk'],
    ['a bearer token', 'upstream said 401 for Bearer abc123DEF456.ghi789', 'abc123DEF456.ghi789'],
    ['an OpenAI-style key', 'embedder rejected sk-proj-A1b2C3d4E5f6G7h8', 'sk-proj-A1b2C3d4E5f6G7h8'],
    ['a password assignment', 'retrying with password=hunter2 from the form', 'hunter2'],
    ['a quoted api_key', 'config api_key: "q-9f8e7d6c" was refused', 'q-9f8e7d6c'],
    ['a URL password', 'cannot reach postgres://rag:s3cr3t-pw@db.internal:5432/rag', 's3cr3t-pw'],
    [
      'a JWT',
      'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.c2lnbmF0dXJlMTIz here',
      'eyJzdWIiOiIxMjM0NTYifQ',
    ],
  ])('redacts %s in messages, string fields and error messages', (_, text, secret) => {
    const { logger, lines, entries } = captured();
    logger.error(text, { event: 'free-text', detail: text, error: new Error(text) });
    expect(lines.join('')).not.toContain(secret);
    const [entry] = entries();
    expect(entry!.msg).toContain(REDACTED);
    expect(entry!.detail).toContain(REDACTED);
    expect(entry!.error).toEqual({ name: 'Error', message: entry!.msg });
  });

  it('keeps what is not secret: user names and hosts of URLs, ids, numbers', () => {
    const { logger, entries } = captured();
    const fields = {
      event: 'kept',
      redis: 'redis://default@cache.internal:6379',
      source: 'simulated_ingestion/northwind-logistics/api/openapi.yaml#paths/locations/post',
      corpusVersion: 162,
    };
    logger.info('ingest done for POST /locations', fields);
    expect(entries()[0]).toMatchObject({ ...fields, msg: 'ingest done for POST /locations' });
  });

  it('binds request and run ids on child loggers, on every line of the child and its children', () => {
    const { logger, entries } = captured();
    const request = logger.child({ requestId: 'req-42' });
    const run = request.child({ runId: 'run-7', traceId: '0af7651916cd43dd8448eb211c80319c' });
    request.info('request', { event: 'http-request' });
    run.info('ragAnswer done', { event: 'answer-done' });
    logger.info('unbound', { event: 'api-ready' });
    const [requestLine, runLine, plain] = entries();
    expect(requestLine).toMatchObject({ requestId: 'req-42', event: 'http-request' });
    expect(requestLine).not.toHaveProperty('runId');
    expect(runLine).toMatchObject({
      requestId: 'req-42',
      runId: 'run-7',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      event: 'answer-done',
    });
    expect(plain).not.toHaveProperty('requestId');
  });

  it('writes cyclic fields without throwing', () => {
    const { logger, entries } = captured();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    logger.info('cyclic', { event: 'cyclic', value: cyclic });
    expect(entries()[0]!.value).toEqual({ name: 'loop', self: '[Circular]' });
  });
});
