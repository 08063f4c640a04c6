import { ErrorCode, RagError } from '../errors/index.js';
import { configSchema, SECRET_KEYS, URL_KEYS, type Config } from './schema.js';

export type Env = Record<string, string | undefined>;

/**
 * Parses the environment once at start. Empty strings count as unset, so `FOO=` in a .env file
 * falls back to the default instead of failing. Every problem is reported at once, one line per
 * variable: `PORT="abc" is invalid: expected an integer from 0 to 65535`.
 */
export function loadConfig(env: Env): Config {
  const known = Object.keys(configSchema.shape);
  const input: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value;
  }

  const result = configSchema.safeParse(input);
  if (!result.success) {
    const lines = new Map<string, string>();
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (lines.has(key)) continue;
      const field = configSchema.shape[key as keyof typeof configSchema.shape];
      const accepted = field?.description ?? 'a valid value';
      const shown = (SECRET_KEYS as readonly string[]).includes(key)
        ? '<redacted>'
        : JSON.stringify(redactUserInfo(input[key] ?? ''));
      lines.set(key, `${key}=${shown} is invalid: expected ${accepted}`);
    }
    throw new RagError(ErrorCode.INVALID_CONFIG, [...lines.values()].join('\n'), {
      details: { variables: [...lines.keys()] },
    });
  }

  const config = result.data;
  const problems = crossFieldProblems(config);
  if (problems.length > 0) {
    throw new RagError(ErrorCode.INVALID_CONFIG, problems.join('\n'), { details: { problems } });
  }
  return Object.freeze(config);
}

function crossFieldProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.CHUNK_OVERLAP_TOKENS >= config.CHUNK_MAX_TOKENS) {
    problems.push(
      `CHUNK_OVERLAP_TOKENS=${config.CHUNK_OVERLAP_TOKENS} is invalid: expected less than CHUNK_MAX_TOKENS (${config.CHUNK_MAX_TOKENS})`,
    );
  }
  if (config.RAG_EMBEDDER === 'openai') {
    if (!config.RAG_EMBEDDER_BASE_URL)
      problems.push('RAG_EMBEDDER_BASE_URL is required when RAG_EMBEDDER=openai');
    if (!config.RAG_EMBEDDER_MODEL) problems.push('RAG_EMBEDDER_MODEL is required when RAG_EMBEDDER=openai');
  }
  if (config.RAG_RERANKER === 'http' && !config.RAG_RERANKER_URL) {
    problems.push('RAG_RERANKER_URL is required when RAG_RERANKER=http');
  }
  if (config.RAG_LLM === 'openai') {
    if (!config.RAG_LLM_BASE_URL) problems.push('RAG_LLM_BASE_URL is required when RAG_LLM=openai');
    if (!config.RAG_LLM_MODEL) problems.push('RAG_LLM_MODEL is required when RAG_LLM=openai');
  }
  if (config.AGENTIC_RAG_ENABLE_LLM_JUDGE && config.RAG_LLM !== 'openai') {
    problems.push('AGENTIC_RAG_ENABLE_LLM_JUDGE=true needs a model to judge with: set RAG_LLM=openai');
  }
  if (config.RAG_INGEST_HYDE && config.RAG_LLM !== 'openai') {
    problems.push('RAG_INGEST_HYDE=true needs a model to write the questions: set RAG_LLM=openai');
  }
  if (config.RAG_INGEST_LLM_ENTITIES && config.RAG_LLM !== 'openai') {
    problems.push('RAG_INGEST_LLM_ENTITIES=true needs a model to read entities with: set RAG_LLM=openai');
  }
  if (config.AGENTIC_RAG_AUTH === 'off' && !isLoopback(config.HOST)) {
    problems.push(
      `AGENTIC_RAG_AUTH=off is for local development only and HOST=${config.HOST} is not loopback: turn auth on, or set HOST=127.0.0.1`,
    );
  }
  return problems;
}

/** 127.0.0.0/8, ::1 and localhost: interfaces no other machine reaches. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Hides the password of anything URL-shaped, even a URL too malformed to parse. */
function redactUserInfo(value: string): string {
  return value.replace(/(\/\/[^/@\s:]*:)[^/@\s]*@/, '$1<redacted>@');
}

/** A copy that is safe to log: secrets replaced, passwords stripped from URLs. */
export function redactConfig(config: Config): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...config };
  for (const key of SECRET_KEYS) if (copy[key] !== undefined) copy[key] = '<redacted>';
  for (const key of URL_KEYS) {
    const value = config[key];
    if (value === undefined) continue;
    const parsed = new URL(value);
    if (parsed.password) parsed.password = 'redacted';
    copy[key] = parsed.toString();
  }
  return copy;
}
