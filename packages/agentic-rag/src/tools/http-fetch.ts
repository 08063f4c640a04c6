import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ErrorCode, RagError, isRagError } from '../errors/index.js';
import type { ResolvedIp } from './address-policy.js';
import { bareHost, blockedUrl, GuardedGet, readBodyWithin, requestFailed } from './guarded-get.js';
import { htmlToText } from './html-text.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';

/** An address a name resolves to: the address policy's own type, under the name this tool exported first. */
export type ResolvedAddress = ResolvedIp;

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
const TEXT_TYPES = /^(?:text\/[\w.+-]+|application\/(?:[\w.-]+\+)?(?:json|xml))$/;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

const httpFetchInput = z.object({
  url: z.string().min(1).max(2048).describe('an absolute http or https URL'),
});

/**
 * Fetches one web page as text for the model. Server-side request forgery is the risk: the model
 * chooses the URL, and the page it reads chooses the redirects. So the host allowlist is checked
 * on every hop, and the requests go through `GuardedGet`, which enforces the address policy where
 * it cannot be dodged (the socket's own lookup, and IP literals before the request).
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
  private readonly guard: GuardedGet;

  constructor(options: HttpFetchToolOptions) {
    this.enabled = options.enabled === true;
    this.allowedDomains = options.allowedDomains.map(canonicalPattern);
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.fetchTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.timeoutMs = this.fetchTimeoutMs + ROUTER_GRACE_MS;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.guard = new GuardedGet({
      ...(options.addressPolicy ? { addressPolicy: options.addressPolicy } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
      accept: 'text/html, text/plain;q=0.9, */*;q=0.5',
      userAgent: 'agentic-rag-http-fetch/1',
      verb: 'fetched',
    });
  }

  async run({ url }: { url: string }, context: ToolContext): Promise<ToolResult> {
    if (!this.enabled) throw new RagError(ErrorCode.TOOL_NOT_ALLOWED, 'http_fetch is disabled');
    const timeout = AbortSignal.timeout(this.fetchTimeoutMs);
    const signal = AbortSignal.any([context.signal, timeout]);
    let current = this.checkUrl(parseUrl(url));
    try {
      const answer = await this.guard.follow(current, {
        signal,
        maxRedirects: this.maxRedirects,
        tooManyRedirects: (from) =>
          new RagError(ErrorCode.TOOL_FAILED, `more than ${this.maxRedirects} redirects`, {
            details: { url: from.href },
          }),
        redirectTarget: (location, from) => this.checkUrl(parseUrl(location, from)),
        onRequest: (sent) => {
          current = sent;
        },
      });
      const { response } = answer;
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new RagError(ErrorCode.TOOL_FAILED, `${current.host} answered ${status}`, {
          details: { url: current.href, status },
        });
      }
      return await this.read(answer.url, response);
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
      throw requestFailed(ErrorCode.TOOL_FAILED, current.host, current, error);
    }
  }

  /** The guard's URL checks with the host allowlist as the rule on the host. */
  private checkUrl(url: URL): URL {
    return this.guard.checkUrl(url, (host) => {
      if (!this.allowedDomains.some((pattern) => hostMatches(host, pattern))) {
        throw blockedUrl(`${host} is not on the allowlist`, url);
      }
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
    const body = await readBodyWithin(
      response,
      this.maxBytes,
      () =>
        new RagError(ErrorCode.TOOL_FAILED, `response is larger than ${this.maxBytes} bytes`, {
          details: { url: url.href, maxBytes: this.maxBytes },
        }),
    );
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
