import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ErrorCode, RagError } from '../errors/index.js';
import { blockingLookup, isBlockedAddress, type ResolvedIp } from './address-policy.js';

export interface GuardedGetOptions {
  /** True when an address must not be contacted; defaults to `isBlockedAddress`. */
  addressPolicy?: (ip: string) => boolean;
  /** Name resolution; defaults to the system resolver (`dns.lookup`, every address). */
  resolve?: (hostname: string) => Promise<ResolvedIp[]>;
  /** The `accept` header every request sends. */
  accept: string;
  userAgent: string;
  /** How refusals name what the caller does to a URL: "fetched", "crawled". */
  verb: string;
}

export interface FollowOptions {
  signal: AbortSignal;
  /** Sent on every hop after the defaults (conditional headers, say). */
  headers?: Record<string, string>;
  maxRedirects: number;
  /** The caller's error for a chain longer than `maxRedirects`, naming the URL that redirected. */
  tooManyRedirects: (url: URL) => RagError;
  /**
   * The next hop from a `location` header: the caller parses it against `from` and judges it
   * (`checkUrl` and its own rules); it throws to refuse the hop before anything is sent to it.
   */
  redirectTarget: (location: string, from: URL) => URL;
  /** Told of every request actually sent, before it goes out: the URL an error is about. */
  onRequest?: (url: URL) => void;
}

export interface FollowedResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  response: IncomingMessage;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const systemResolve = async (hostname: string): Promise<ResolvedIp[]> =>
  dnsLookup(hostname, { all: true, verbatim: true });

/**
 * HTTP GETs under the address policy, shared by the http_fetch tool and the web crawler. Server-
 * side request forgery is the risk: the URL and its redirects come from someone else. So the policy
 * is enforced where it cannot be dodged — in the socket's own lookup, on the addresses actually
 * about to be dialled, over a fresh connection every time (a pooled socket would skip the lookup).
 * Checking the URL string alone would miss `127.0.0.1.nip.io`, DNS rebinding and redirects; IP
 * literals (`0x7f000001`, `[::ffff:7f00:1]`), which Node dials without a lookup, are canonicalised
 * by the URL parser and judged by `checkUrl` before the request is made.
 */
export class GuardedGet {
  private readonly isBlocked: (ip: string) => boolean;
  /** The socket's name resolution, refusing a name any of whose addresses is blocked. */
  private readonly lookup: LookupFunction;

  constructor(private readonly options: GuardedGetOptions) {
    this.isBlocked = options.addressPolicy ?? isBlockedAddress;
    this.lookup = blockingLookup(
      this.isBlocked,
      options.resolve ?? systemResolve,
      (host, address) =>
        new RagError(ErrorCode.FETCH_BLOCKED, `${host} resolves to a blocked address`, {
          details: { host, address },
        }),
    );
  }

  /**
   * Scheme, credentials, the caller's own rule on the host (an allowlist, a single origin) and IP
   * literals: the checks a URL string can answer, before any request (FETCH_BLOCKED). Names are
   * judged later, in the socket's lookup. `hostRule` gets the host without IPv6 brackets or the
   * root's trailing dot, and throws to refuse.
   */
  checkUrl(url: URL, hostRule?: (host: string) => void): URL {
    const { verb } = this.options;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw blockedUrl(`only http and https URLs are ${verb}, not ${url.protocol}`, url);
    }
    if (url.username || url.password) throw blockedUrl(`URLs carrying credentials are not ${verb}`, url);
    const host = bareHost(url.hostname);
    hostRule?.(host);
    // Node connects to an IP literal without calling `lookup`, so literals are judged here.
    if (isIP(host) !== 0 && this.isBlocked(host)) throw blockedUrl(`${host} is a blocked address`, url);
    return url;
  }

  /**
   * GETs `url`, which the caller has passed through `checkUrl`, following redirects up to
   * `maxRedirects`, and returns the first answer that is not one, its body unread. Errors other
   * than the caller's own come from the socket; the caller maps them, `onRequest` having told it
   * which URL was in flight.
   */
  async follow(url: URL, options: FollowOptions): Promise<FollowedResponse> {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      options.onRequest?.(current);
      const response = await this.send(current, options.headers ?? {}, options.signal);
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.statusCode ?? 0) || !location) return { url: current, response };
      response.destroy();
      if (redirects >= options.maxRedirects) throw options.tooManyRedirects(current);
      current = options.redirectTarget(location, current);
    }
  }

  private send(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        // A fresh connection per request: a pooled socket would skip the lookup and its check.
        agent: false,
        lookup: this.lookup,
        signal,
        headers: {
          accept: this.options.accept,
          // Compressed bodies would make the byte limit count the wrong bytes.
          'accept-encoding': 'identity',
          'user-agent': this.options.userAgent,
          ...headers,
        },
      });
      request.once('response', resolve);
      // `on`, not `once`: a second error after the first must not crash the process.
      request.on('error', reject);
      request.end();
    });
  }
}

/**
 * The body of `response`, refused with the caller's `tooLarge` error as soon as it is known to
 * exceed `maxBytes`: from content-length before reading, else while counting the stream. The
 * connection is dropped then, so an endless body costs at most `maxBytes` and one chunk.
 */
export async function readBodyWithin(
  response: IncomingMessage,
  maxBytes: number,
  tooLarge: () => RagError,
): Promise<Buffer> {
  const refuse = () => {
    response.destroy();
    return tooLarge();
  };
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) throw refuse();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw refuse();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A request that failed in the socket (refused, reset, unresolvable) as the caller's error code,
 * naming the socket's own code (`ECONNREFUSED`) when it has one; the original stays as `cause`.
 */
export function requestFailed(code: ErrorCode, subject: string, url: URL, error: unknown): RagError {
  const socketCode = (error as NodeJS.ErrnoException).code;
  return new RagError(code, `fetching ${subject} failed${socketCode ? ` (${socketCode})` : ''}`, {
    cause: error,
    details: { url: url.href },
  });
}

/** The URL parser's host, without IPv6 brackets or the root's trailing dot. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** A refusal before any request: FETCH_BLOCKED naming the URL. */
export function blockedUrl(message: string, url: URL): RagError {
  return new RagError(ErrorCode.FETCH_BLOCKED, message, { details: { url: url.href } });
}
