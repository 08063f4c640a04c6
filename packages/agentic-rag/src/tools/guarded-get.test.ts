import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, RagError } from '../errors/index.js';
import { isBlockedAddress, type ResolvedIp } from './address-policy.js';
import { blockedUrl, GuardedGet, readBodyWithin, requestFailed, type FollowOptions } from './guarded-get.js';

/** Fake DNS: names that do not exist, one of them pointing at a metadata address. */
const ZONE: Record<string, string[]> = {
  'site.example.test': ['127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
};
const resolve = async (hostname: string): Promise<ResolvedIp[]> =>
  (ZONE[hostname] ?? []).map((address) => ({ address, family: 4 }));
/** Lets exactly the loopback test server through; every other address gets the real policy. */
const allowTestServer = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

const guard = () =>
  new GuardedGet({
    addressPolicy: allowTestServer,
    resolve,
    accept: 'text/html',
    userAgent: 'guarded-get-test/1',
    verb: 'fetched',
  });

const refusal = (run: () => unknown): RagError => {
  try {
    run();
  } catch (error) {
    if (error instanceof RagError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('GuardedGet.checkUrl', () => {
  it.each([
    ['ftp://site.example.test/', 'only http and https URLs are fetched, not ftp:'],
    ['http://user:secret@site.example.test/', 'URLs carrying credentials are not fetched'],
    ['http://0x7f000002/', '127.0.0.2 is a blocked address'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is a blocked address'],
    ['http://169.254.169.254./latest', '169.254.169.254 is a blocked address'],
  ])('refuses %s before any request', (url, message) => {
    const error = refusal(() => guard().checkUrl(new URL(url)));
    expect(error.code).toBe(ErrorCode.FETCH_BLOCKED);
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ url: new URL(url).href });
  });

  it('lets a name and an allowed literal through: names are judged at lookup', () => {
    expect(guard().checkUrl(new URL('http://metadata.example.test/')).href).toBe(
      'http://metadata.example.test/',
    );
    expect(guard().checkUrl(new URL('http://127.0.0.1:8080/')).host).toBe('127.0.0.1:8080');
  });

  it("runs the caller's host rule on the bare host, after scheme and credentials, before literals", () => {
    const seen: string[] = [];
    const rule = (host: string) => {
      seen.push(host);
      throw blockedUrl(`${host} is not ours`, new URL('http://x.test/'));
    };
    expect(refusal(() => guard().checkUrl(new URL('http://Site.Example.TEST./a'), rule)).message).toBe(
      'site.example.test is not ours',
    );
    expect(refusal(() => guard().checkUrl(new URL('http://[::1]/'), rule)).message).toBe('::1 is not ours');
    expect(refusal(() => guard().checkUrl(new URL('http://u@site.example.test/'), rule)).message).toBe(
      'URLs carrying credentials are not fetched',
    );
    expect(seen).toEqual(['site.example.test', '::1']);
  });
});

describe('GuardedGet.follow and readBodyWithin against a local server', () => {
  let server: Server;
  let port: number;
  let requested: { path: string; headers: IncomingHttpHeaders }[];
  let connections: number;
  let streamClosed: Promise<void>;
  let markStreamClosed: () => void;

  const at = (path: string, host = 'site.example.test') => new URL(`http://${host}:${port}${path}`);
  const follow = (path: string, options: Partial<FollowOptions> = {}) =>
    guard().follow(at(path), {
      signal: AbortSignal.timeout(5_000),
      maxRedirects: 2,
      tooManyRedirects: (from) => new RagError(ErrorCode.TOOL_FAILED, `too many from ${from.pathname}`),
      redirectTarget: (location, from) => guard().checkUrl(new URL(location, from)),
      ...options,
    });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      requested.push({ path, headers: request.headers });
      if (path === '/page') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('twelve bytes');
      } else if (path.startsWith('/hop/')) {
        const left = Number(path.slice('/hop/'.length));
        response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/page' });
        response.end();
      } else if (path === '/to-metadata') {
        response.writeHead(302, { location: `http://metadata.example.test:${port}/page` });
        response.end();
      } else if (path === '/declared-large') {
        response.writeHead(200, { 'content-length': '100' });
        response.end('x'.repeat(100));
      } else if (path === '/endless') {
        // Chunked, no length: only counting the stream can stop it.
        response.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => response.write('x'.repeat(64)), 5);
        response.on('close', () => {
          clearInterval(timer);
          markStreamClosed();
        });
      } else {
        response.writeHead(404);
        response.end();
      }
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));
  beforeEach(() => {
    requested = [];
    connections = 0;
    streamClosed = new Promise((closed) => {
      markStreamClosed = closed;
    });
  });

  it('follows redirects, one fresh connection per hop, with identity encoding and the caller headers', async () => {
    const sent: string[] = [];
    const { url, response } = await follow('/hop/1', {
      headers: { 'if-none-match': '"v1"' },
      onRequest: (hop) => sent.push(hop.pathname),
    });
    expect(url.href).toBe(at('/page').href);
    expect(response.statusCode).toBe(200);
    expect(
      (await readBodyWithin(response, 12, () => new RagError(ErrorCode.TOOL_FAILED, 'x'))).toString(),
    ).toBe('twelve bytes');
    expect(sent).toEqual(['/hop/1', '/hop/0', '/page']);
    expect(requested.map(({ path }) => path)).toEqual(sent);
    expect(connections).toBe(3);
    expect(requested[2]!.headers).toMatchObject({
      accept: 'text/html',
      'accept-encoding': 'identity',
      'user-agent': 'guarded-get-test/1',
      'if-none-match': '"v1"',
    });
  });

  it("stops at the caller's redirect limit with the caller's error", async () => {
    await expect(follow('/hop/5')).rejects.toThrow('too many from /hop/3');
    expect(requested).toHaveLength(3);
  });

  it('refuses a name resolving to a blocked address in the lookup, without contacting it', async () => {
    await expect(follow('/to-metadata')).rejects.toMatchObject({
      code: ErrorCode.FETCH_BLOCKED,
      message: 'metadata.example.test resolves to a blocked address',
    });
    const direct = guard().follow(at('/page', 'metadata.example.test'), {
      signal: AbortSignal.timeout(5_000),
      maxRedirects: 0,
      tooManyRedirects: () => new RagError(ErrorCode.TOOL_FAILED, 'unused'),
      redirectTarget: () => at('/page'),
    });
    await expect(direct).rejects.toMatchObject({ code: ErrorCode.FETCH_BLOCKED });
    expect(requested.map(({ path }) => path)).toEqual(['/to-metadata']);
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const { response } = await follow('/declared-large');
    let built = 0;
    await expect(
      readBodyWithin(response, 99, () => {
        built++;
        return new RagError(ErrorCode.PAGE_TOO_LARGE, 'declared too large');
      }),
    ).rejects.toThrow('declared too large');
    expect(built).toBe(1);
    expect(response.destroyed).toBe(true);
  });

  it('counts a body without a length and drops the connection once it passes the limit', async () => {
    const { response } = await follow('/endless');
    await expect(
      readBodyWithin(response, 1_000, () => new RagError(ErrorCode.TOOL_FAILED, 'stream too large')),
    ).rejects.toThrow('stream too large');
    await streamClosed;
    expect(response.destroyed).toBe(true);
  });

  it("names the socket's code when a request fails in the socket", async () => {
    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const url = new URL(`http://site.example.test:${closedPort}/`);
    const socketError = await guard()
      .follow(url, {
        signal: AbortSignal.timeout(5_000),
        maxRedirects: 0,
        tooManyRedirects: () => new RagError(ErrorCode.TOOL_FAILED, 'unused'),
        redirectTarget: () => url,
      })
      .then(
        () => {
          throw new Error('expected a refused connection');
        },
        (error: unknown) => error,
      );
    const failure = requestFailed(ErrorCode.UPSTREAM_UNAVAILABLE, url.host, url, socketError);
    expect(failure.code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    expect(failure.message).toBe(`fetching site.example.test:${closedPort} failed (ECONNREFUSED)`);
    expect(failure.details).toEqual({ url: url.href });
    expect(failure.cause).toBe(socketError);
    expect(requestFailed(ErrorCode.TOOL_FAILED, 'x.test', url, new Error('no code')).message).toBe(
      'fetching x.test failed',
    );
  });
});
