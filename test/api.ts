import { RagService, type RagRuntime } from '../packages/agentic-rag/src/index.js';

/**
 * The application service over a test's runtime with an unscoped admin key: what the transport
 * tests authenticate with (the access matrix test makes keys of every role and scope itself).
 * No rate limit, so a test's burst of requests is never refused.
 */
export async function serviceWithAdmin(runtime: RagRuntime) {
  const service = new RagService(runtime, { limiter: null });
  const { key } = await service.keys.create({
    workspaceId: '*',
    role: 'admin',
    label: 'test',
    createdBy: 'test',
  });
  return { service, key, authorization: `Bearer ${key}` };
}
