import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../telemetry/index.js';
import { assertNoEviction, queueConnection } from './redis.js';

async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A private redis-server with an evicting policy: the shared one must keep noeviction. */
describe('the queue refuses a Redis that evicts', () => {
  let server: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await sparePort();
    server = spawn('redis-server', [
      '--port',
      String(port),
      '--save',
      '',
      '--maxmemory-policy',
      'allkeys-lru',
    ]);
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
      server.once('error', reject);
    });
  });

  afterAll(() => {
    server.kill('SIGKILL');
  });

  it('names the policy and the fix', async () => {
    const redis = queueConnection(`redis://127.0.0.1:${port}`);
    try {
      await expect(assertNoEviction(redis, silentLogger)).rejects.toMatchObject({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('maxmemory-policy allkeys-lru; BullMQ needs noeviction'),
      });
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
      await expect(assertNoEviction(redis, silentLogger)).resolves.toBeUndefined();
    } finally {
      redis.disconnect();
    }
  });
});
