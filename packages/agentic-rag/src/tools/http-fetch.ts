import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { z } from 'zod';
import { ErrorCode, RagError, isRagError } from '../errors/index.js';
import { isBlockedAddress } from './address-policy.js';
import { htmlToText } from './html-text.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface HttpFetchToolOptions {
  /** Off unless true: a disabled tool refuses every call, and the router does not offer it. */
  enabled?: boolean;
  /**
   * Hosts that may be fetched: an exact host (`docs.example.com`), `*.example.com` for its
   * subdomains (not the apex; list both), or `*` for any host. Empty blocks everything. Applied to
   * every redirect hop; the address policy applies on top, whatever this list says.
   */
  allowedDomains: readonly string[];
  /** Largest body read, in bytes; the connection is dropped as soon as it is exceeded. */
  maxBytes?: number;
  /** Budget of the whole fetch, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Name resolution; defaults to the system resolver (`dns.lookup`, every address). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** True when an address must not be contacted; defaults to `isBlockedAddress`. */
  addressPolicy?: (ip: string) => boolean;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_REDIRECTS = 3;
/** The router's own deadline is a backstop: the tool's timeout normally fires first. */
const ROUTER_GRACE_MS = 1_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TEXT_TYPES = /^(?:text\/[\w.+-]+|application\/(?:[\w.-]+\+)?(?:json|xml))$/;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

const httpFetchInput = z.object({
  url: z.string().min(1).max(2048).describe('an absolute http or https URL'),
});

const systemResolve = async (hostname: string): Promise<ResolvedAddress[]> =>
  dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Fetches one web page as text for the model. Server-side request forgery is the risk: the model
 * chooses the URL, and the page it reads chooses the redirects. So the host allowlist is checked
 * on every hop, and the address policy is enforced where it cannot be dodged — in the socket's
 * own lookup, on the addresses actually about to be dialled. Checking the URL string alone would
 * miss `127.0.0.1.nip.io`, DNS rebinding and redirects; IP literals (`0x7f000001`,
 * `[::ffff:7f00:1]`), which Node dials without a lookup, are canonicalised by the URL parser and
 * checked before the request is made.
 */
export class HttpFetchTool implements Tool<typeof httpFetchInput> {
  readonly name = 'http_fetch';
  readonly description =
    'Fetches a web page from an allowed site and returns its readable text. Input: {"url": "https://..."}.';
  readonly inputSchema = httpFetchInput;
  readonly timeoutMs: number;
  readonly enabled: boolean;
  private readonly allowedDomains: readonly string[];
  private readonly maxBytes: number;
  private readonly fetchTimeoutMs: number;
  private readonly maxRedirects: number;
  private readonly resolve: (hostname: string) => Promise<ResolvedAddress[]>;
  private readonly isBlocked: (ip: string) => boolean;

  constructor(options: HttpFetchToolOptions) {
    this.enabled = options.enabled === true;
    this.allowedDomains = options.allowedDomains.map(canonicalPattern);
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.fetchTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.timeoutMs = this.fetchTimeoutMs + ROUTER_GRACE_MS;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.resolve = options.resolve ?? systemResolve;
    this.isBlocked = options.addressPolicy ?? isBlockedAddress;
  }

  async run({ url }: { url: string }, context: ToolContext): Promise<ToolResult> {
    if (!this.enabled) throw new RagError(ErrorCode.TOOL_NOT_ALLOWED, 'http_fetch is disabled');
    const timeout = AbortSignal.timeout(this.fetchTimeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    let current = this.checkUrl(parseUrl(url));
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.get(current, signal);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(status) && location) {
          response.destroy();
          if (redirects >= this.maxRedirects) {
            throw new RagError(ErrorCode.TOOL_FAILED, `more than ${this.maxRedirects} redirects`, {
              details: { url: current.href },
            });
          }
          current = this.checkUrl(parseUrl(location, current));
          continue;
        }
        if (status < 200 || status >= 300) {
          response.destroy();
          throw new RagError(ErrorCode.TOOL_FAILED, `${current.host} answered ${status}`, {
            details: { url: current.href, status },
          });
        }
        return await this.read(current, response);
      }
    } catch (error) {
      if (isRagError(error)) throw error;
      if (timeout.aborted) {
        throw new RagError(
          ErrorCode.TOOL_TIMEOUT,
          `fetching ${current.host} took longer than ${this.fetchTimeoutMs} ms`,
          {
            details: { url: current.href, timeoutMs: this.fetchTimeoutMs },
          },
        );
      }
      if (context.signal.aborted) {
        throw new RagError(ErrorCode.ABORTED, 'http_fetch aborted', { cause: error });
      }
      const code = (error as NodeJS.ErrnoException).code;
      throw new RagError(
        ErrorCode.TOOL_FAILED,
        `fetching ${current.host} failed${code ? ` (${code})` : ''}`,
        {
          cause: error,
          details: { url: current.href },
        },
      );
    }
  }

  /** Scheme, credentials and host allowlist: the checks a URL string can answer. */
  private checkUrl(url: URL): URL {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw blocked(`only http and https URLs are fetched, not ${url.protocol}`, url);
    }
    if (url.username || url.password) throw blocked('URLs carrying credentials are not fetched', url);
    const host = bareHost(url.hostname);
    if (!this.allowedDomains.some((pattern) => hostMatches(host, pattern))) {
      throw blocked(`${host} is not on the allowlist`, url);
    }
    // Node connects to an IP literal without calling `lookup`, so literals are judged here.
    if (isIP(host) !== 0 && this.isBlocked(host)) throw blocked(`${host} is a blocked address`, url);
    return url;
  }

  /**
   * The socket's name resolution. Every address the name resolves to must pass, not only the one
   * dialled first: Node may try them all (happy eyeballs), and a mixed answer is a rebinding tell.
   */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((entry) => this.isBlocked(entry.address));
        if (refused) {
          callback(
            new RagError(ErrorCode.FETCH_BLOCKED, `${hostname} resolves to a blocked address`, {
              details: { host: hostname, address: refused.address },
            }),
            '',
          );
          return;
        }
        const usable =
          options.family === 4 || options.family === 6
            ? addresses.filter((entry) => entry.family === options.family)
            : addresses;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  private get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        // A fresh connection per request: a pooled socket would skip the lookup and its check.
        agent: false,
        lookup: this.lookup,
        signal,
        headers: {
          accept: 'text/html, text/plain;q=0.9, */*;q=0.5',
          // Compressed bodies would make maxBytes count the wrong bytes.
          'accept-encoding': 'identity',
          'user-agent': 'agentic-rag-http-fetch/1',
        },
      });
      request.once('response', resolve);
      // `on`, not `once`: a second error after the first must not crash the process.
      request.on('error', reject);
      request.end();
    });
  }

  private async read(url: URL, response: IncomingMessage): Promise<ToolResult> {
    const [mediaType = '', ...parameters] = (response.headers['content-type'] ?? '')
      .split(';')
      .map((part) => part.trim().toLowerCase());
    const encoding = (response.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      response.destroy();
      throw new RagError(ErrorCode.TOOL_FAILED, `unsupported content encoding ${encoding}`, {
        details: { url: url.href },
      });
    }
    if (!HTML_TYPES.has(mediaType) && !TEXT_TYPES.test(mediaType)) {
      response.destroy();
      throw new RagError(ErrorCode.TOOL_FAILED, `unsupported content type ${mediaType || '(none)'}`, {
        details: { url: url.href },
      });
    }
    const body = await this.readBody(url, response);
    const charset = parameters
      .find((parameter) => parameter.startsWith('charset='))
      ?.slice('charset='.length);
    const decoded = decode(body, charset);
    const page = HTML_TYPES.has(mediaType) ? htmlToText(decoded) : { title: '', text: decoded.trim() };
    return {
      output: page.text,
      data: { url: url.href, status: response.statusCode, contentType: mediaType, bytes: body.length },
      sources: [{ title: page.title || url.href, url: url.href }],
    };
  }

  private async readBody(url: URL, response: IncomingMessage): Promise<Buffer> {
    const tooLarge = () => {
      response.destroy();
      return new RagError(ErrorCode.TOOL_FAILED, `response is larger than ${this.maxBytes} bytes`, {
        details: { url: url.href, maxBytes: this.maxBytes },
      });
    };
    if (Number(response.headers['content-length'] ?? 0) > this.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
}

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new RagError(
      base ? ErrorCode.TOOL_FAILED : ErrorCode.INVALID_INPUT,
      base ? 'redirect to an invalid URL' : 'not a valid absolute URL',
    );
  }
}

function blocked(message: string, url: URL): RagError {
  return new RagError(ErrorCode.FETCH_BLOCKED, message, { details: { url: url.href } });
}

/** The URL parser's host, without IPv6 brackets or the root's trailing dot. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** Patterns go through the same parser as URLs so `Docs.Example.COM`, IDNs and IPs compare. */
function canonicalPattern(pattern: string): string {
  const trimmed = pattern.trim();
  if (trimmed === '*') return trimmed;
  const wildcard = trimmed.startsWith('*.');
  const host = wildcard ? trimmed.slice(2) : trimmed;
  const ipv6 = isIP(host) === 6;
  // A port, path or user would be dropped by the parser without a word: refuse them instead.
  const candidate = `http://${ipv6 ? `[${host}]` : host}/`;
  if ((!ipv6 && /[/:@?#\\\s*]/.test(host)) || !URL.canParse(candidate)) {
    throw new RagError(ErrorCode.INVALID_CONFIG, `allowed domain "${pattern}" is not a host or *.suffix`);
  }
  const canonical = bareHost(new URL(candidate).hostname);
  return wildcard ? `*.${canonical}` : canonical;
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset?.replace(/^"|"$/g, '') || 'utf-8').decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the best guess for web text.
    return new TextDecoder('utf-8').decode(body);
  }
}
