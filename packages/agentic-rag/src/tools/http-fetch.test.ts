import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { isBlockedAddress } from './address-policy.js';
import { HttpFetchTool, type HttpFetchToolOptions, type ResolvedAddress } from './http-fetch.js';
import { ToolRouter } from './router.js';

const PAGE = `<html><head><title>Deploy guide</title><script>steal()</script></head>
<body><h1>Deploying</h1><p>Run <code>make deploy</code> &amp; wait.</p><iframe>ad</iframe></body></html>`;

/** Fake DNS: the hostnames tests use, none of which exist. */
const ZONE: Record<string, string[]> = {
  'docs.example.test': ['127.0.0.1'],
  'other.example.test': ['127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
  'rebind.example.test': ['127.0.0.1', '10.0.0.5'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
};

/**
 * The success path needs an allowed address the test can serve, and only loopback is available:
 * this policy lets exactly 127.0.0.1 through and defers to the real one for everything else, so
 * redirects to other blocked addresses are still judged by `isBlockedAddress`.
 */
const allowTestServer = (ip: string) => ip !== '127.0.0.1' && isBlockedAddress(ip);

describe('HttpFetchTool against a local server', () => {
  let server: Server;
  let port: number;
  /** Paths the server was asked for: a blocked fetch must leave no trace here. */
  let requested: string[];
  let resolved: string[];
  let streamClosed: Promise<void>;
  let markStreamClosed: () => void;

  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    resolved.push(hostname);
    const addresses = ZONE[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const signal = () => new AbortController().signal;
  const tool = (options: Partial<HttpFetchToolOptions> = {}) =>
    new HttpFetchTool({
      enabled: true,
      allowedDomains: ['docs.example.test', '*.example.test'],
      resolve,
      addressPolicy: allowTestServer,
      ...options,
    });
  const fetchError = async (fetcher: HttpFetchTool, url: string) =>
    fetcher.run({ url }, { signal: signal() }).then(
      () => {
        throw new Error(`expected ${url} to fail`);
      },
      (error: unknown) => error,
    );

  const redirect = (response: ServerResponse, location: string) => {
    response.writeHead(302, { location });
    response.end();
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      requested.push(path);
      const origin = `http://docs.example.test:${port}`;
      switch (path) {
        case '/page':
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(PAGE);
          return;
        case '/plain':
          response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
          response.end(Buffer.from('caf\xe9 ok\n', 'latin1'));
          return;
        case '/image':
          response.writeHead(200, { 'content-type': 'image/png' });
          response.end(Buffer.alloc(16));
          return;
        case '/missing':
          response.writeHead(404, { 'content-type': 'text/plain' });
          response.end('no');
          return;
        case '/endless': {
          // Streams until the client hangs up: only a client that enforces maxBytes mid-stream
          // gets an answer before the timeout.
          response.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(64 * 1024, 'a');
          const pump = () => {
            while (!response.destroyed && response.write(chunk));
            if (!response.destroyed) response.once('drain', pump);
          };
          response.on('close', () => markStreamClosed());
          pump();
          return;
        }
        case '/declared-large':
          response.writeHead(200, {
            'content-type': 'text/plain',
            'content-length': String(5 * 1024 * 1024),
          });
          response.write('x');
          return;
        case '/slow':
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('first bytes, then nothing');
          return;
        case '/hop1':
          return redirect(response, `${origin}/hop2`);
        case '/hop2':
          return redirect(response, '/page');
        case '/loop':
          return redirect(response, '/loop');
        case '/to-private':
          return redirect(response, `http://10.0.0.1:${port}/page`);
        case '/to-metadata':
          return redirect(response, `http://metadata.example.test:${port}/latest/meta-data/`);
        case '/to-mapped-loopback':
          return redirect(response, `http://[::ffff:7f00:1]:${port}/page`);
        case '/to-unlisted':
          return redirect(response, `http://unlisted.test:${port}/page`);
        case '/to-file':
          return redirect(response, 'file:///etc/passwd');
        default:
          response.writeHead(500);
          response.end();
      }
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  beforeEach(() => {
    requested = [];
    resolved = [];
    streamClosed = new Promise((done) => (markStreamClosed = done));
  });

  describe('default address policy: loopback is unreachable however it is spelled', () => {
    const anyHost = () => new HttpFetchTool({ enabled: true, allowedDomains: ['*'], resolve });

    it.each([
      ['dotted', (p: number) => `http://127.0.0.1:${p}/page`],
      ['hex', (p: number) => `http://0x7f000001:${p}/page`],
      ['decimal', (p: number) => `http://2130706433:${p}/page`],
      ['octal', (p: number) => `http://0177.0.0.1:${p}/page`],
      ['IPv4-mapped IPv6', (p: number) => `http://[::ffff:7f00:1]:${p}/page`],
      ['IPv4-mapped IPv6, dotted', (p: number) => `http://[::ffff:127.0.0.1]:${p}/page`],
      ['a name resolving to it', (p: number) => `http://127.0.0.1.nip.io:${p}/page`],
    ])('blocks %s before any request is sent', async (_spelling, url) => {
      const error = await fetchError(anyHost(), url(port));
      expect(error).toMatchObject({ code: ErrorCode.FETCH_BLOCKED });
      expect(requested).toEqual([]);
    });

    it('blocks localhost through the system resolver', async () => {
      const system = new HttpFetchTool({ enabled: true, allowedDomains: ['localhost'] });
      const error = await fetchError(system, `http://localhost:${port}/page`);
      expect(error).toMatchObject({
        code: ErrorCode.FETCH_BLOCKED,
        message: 'localhost resolves to a blocked address',
      });
      expect(requested).toEqual([]);
    });

    it('blocks a name when any one of its addresses is blocked', async () => {
      const error = await fetchError(tool(), `http://rebind.example.test:${port}/page`);
      expect(error).toMatchObject({
        code: ErrorCode.FETCH_BLOCKED,
        details: { host: 'rebind.example.test', address: '10.0.0.5' },
      });
      expect(requested).toEqual([]);
    });

    it('is what stops these requests: the same URL succeeds when the policy allows the test server', async () => {
      const allowed = new HttpFetchTool({
        enabled: true,
        allowedDomains: ['*'],
        resolve,
        addressPolicy: allowTestServer,
      });
      const result = await allowed.run({ url: `http://0x7f000001:${port}/page` }, { signal: signal() });
      expect(result.output).toBe('Deploying\nRun make deploy & wait.');
      expect(requested).toEqual(['/page']);
    });
  });

  it('fetches an allowed page as sanitised text with its title as the source', async () => {
    const result = await tool().run({ url: `http://docs.example.test:${port}/page` }, { signal: signal() });
    expect(result).toEqual({
      output: 'Deploying\nRun make deploy & wait.',
      data: {
        url: `http://docs.example.test:${port}/page`,
        status: 200,
        contentType: 'text/html',
        bytes: PAGE.length,
      },
      sources: [{ title: 'Deploy guide', url: `http://docs.example.test:${port}/page` }],
    });
    expect(resolved).toEqual(['docs.example.test']);
  });

  it('decodes plain text in its declared charset and names the URL as the source', async () => {
    const result = await tool().run({ url: `http://docs.example.test:${port}/plain` }, { signal: signal() });
    expect(result.output).toBe('café ok');
    expect(result.sources).toEqual([
      { title: `http://docs.example.test:${port}/plain`, url: `http://docs.example.test:${port}/plain` },
    ]);
  });

  it('follows redirects, re-checking each hop, and reports the final URL', async () => {
    const result = await tool().run({ url: `http://other.example.test:${port}/hop1` }, { signal: signal() });
    expect(result.sources).toEqual([{ title: 'Deploy guide', url: `http://docs.example.test:${port}/page` }]);
    expect(requested).toEqual(['/hop1', '/hop2', '/page']);
    expect(resolved).toEqual(['other.example.test', 'docs.example.test', 'docs.example.test']);
  });

  // The address cases allow any host, so the address policy alone has to stop them.
  it.each([
    ['a private IP literal', '/to-private', ['*'], '10.0.0.1 is a blocked address', []],
    [
      'a name resolving to the metadata address',
      '/to-metadata',
      ['*'],
      'metadata.example.test resolves to a blocked address',
      ['metadata.example.test'],
    ],
    ['IPv4-mapped loopback', '/to-mapped-loopback', ['*'], '::ffff:7f00:1 is a blocked address', []],
    [
      'a host off the allowlist',
      '/to-unlisted',
      ['*.example.test'],
      'unlisted.test is not on the allowlist',
      [],
    ],
    ['a file: URL', '/to-file', ['*'], 'only http and https URLs are fetched, not file:', []],
  ])(
    'refuses a redirect to %s before connecting',
    async (_case, path, allowedDomains, message, resolvedAfter) => {
      const error = await fetchError(tool({ allowedDomains }), `http://docs.example.test:${port}${path}`);
      expect(error).toMatchObject({ code: ErrorCode.FETCH_BLOCKED, message });
      expect(requested).toEqual([path]);
      expect(resolved).toEqual(['docs.example.test', ...resolvedAfter]);
    },
  );

  it('gives up after maxRedirects', async () => {
    const error = await fetchError(tool({ maxRedirects: 2 }), `http://docs.example.test:${port}/loop`);
    expect(error).toMatchObject({ code: ErrorCode.TOOL_FAILED, message: 'more than 2 redirects' });
    expect(requested).toEqual(['/loop', '/loop', '/loop']);
  });

  it('drops the connection as soon as the body passes maxBytes', async () => {
    const error = await fetchError(
      tool({ maxBytes: 100_000, timeoutMs: 10_000 }),
      `http://docs.example.test:${port}/endless`,
    );
    expect(error).toMatchObject({
      code: ErrorCode.TOOL_FAILED,
      message: 'response is larger than 100000 bytes',
    });
    await streamClosed;
  });

  it('refuses a declared Content-Length over maxBytes without reading the body', async () => {
    const started = performance.now();
    const error = await fetchError(
      tool({ maxBytes: 1_000 }),
      `http://docs.example.test:${port}/declared-large`,
    );
    expect(error).toMatchObject({
      code: ErrorCode.TOOL_FAILED,
      message: 'response is larger than 1000 bytes',
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out a response that stalls', async () => {
    const started = performance.now();
    const error = await fetchError(tool({ timeoutMs: 200 }), `http://docs.example.test:${port}/slow`);
    expect(error).toMatchObject({ code: ErrorCode.TOOL_TIMEOUT });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it.each([
    [
      'ftp://docs.example.test/file',
      ErrorCode.FETCH_BLOCKED,
      'only http and https URLs are fetched, not ftp:',
    ],
    [
      'http://user:secret@docs.example.test/',
      ErrorCode.FETCH_BLOCKED,
      'URLs carrying credentials are not fetched',
    ],
    ['http://example.test/', ErrorCode.FETCH_BLOCKED, 'example.test is not on the allowlist'], // *. is subdomains only
    ['http://evil-example.test/', ErrorCode.FETCH_BLOCKED, 'evil-example.test is not on the allowlist'],
    [
      'http://docs.example.test.evil.com/',
      ErrorCode.FETCH_BLOCKED,
      'docs.example.test.evil.com is not on the allowlist',
    ],
    ['/relative/path', ErrorCode.INVALID_INPUT, 'not a valid absolute URL'],
  ])('refuses %s up front', async (url, code, message) => {
    expect(await fetchError(tool(), url)).toMatchObject({ code, message });
    expect(resolved).toEqual([]);
  });

  it.each([
    ['/missing', 'answered 404'],
    ['/image', 'unsupported content type image/png'],
  ])('fails %s with TOOL_FAILED', async (path, message) => {
    const error = (await fetchError(tool(), `http://docs.example.test:${port}${path}`)) as Error;
    expect(error).toMatchObject({ code: ErrorCode.TOOL_FAILED });
    expect(error.message).toContain(message);
  });

  it('refuses every call while disabled, and the router does not offer it', async () => {
    const disabled = tool({ enabled: false });
    expect(await fetchError(disabled, `http://docs.example.test:${port}/page`)).toMatchObject({
      code: ErrorCode.TOOL_NOT_ALLOWED,
    });
    expect(new HttpFetchTool({ allowedDomains: ['*'] }).enabled).toBe(false);
    const router = new ToolRouter({ tools: [disabled], allowed: ['http_fetch'] });
    expect(router.list()).toEqual([]);
    expect(requested).toEqual([]);
  });

  it('reports blocks through the router as a failed call record', async () => {
    const router = new ToolRouter({ tools: [tool()], allowed: ['http_fetch'] });
    const call = await router.call('http_fetch', { url: `http://docs.example.test:${port}/to-metadata` });
    expect(call).toMatchObject({
      ok: false,
      error: {
        code: ErrorCode.FETCH_BLOCKED,
        message: 'metadata.example.test resolves to a blocked address',
      },
    });
    const ok = await router.call('http_fetch', { url: `http://docs.example.test:${port}/page` });
    expect(ok.result?.sources?.[0]?.title).toBe('Deploy guide');
  });

  it.each([['example.com/docs'], ['example.com:8080'], ['user@example.com'], ['ex*ample.com'], ['']])(
    'refuses the allowlist entry %j',
    (pattern) => {
      expect(() => tool({ allowedDomains: [pattern] })).toThrow(
        expect.objectContaining({ code: ErrorCode.INVALID_CONFIG }),
      );
    },
  );

  it('matches allowlist entries the way URLs are parsed', async () => {
    const upper = tool({ allowedDomains: ['DOCS.Example.Test.'] });
    const result = await upper.run({ url: `http://docs.example.test:${port}/page` }, { signal: signal() });
    expect(result.output).toContain('Deploying');
  });
});
