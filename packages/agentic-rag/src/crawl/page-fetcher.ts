import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, RagError, isRagError } from '../errors/index.js';
import { blockedUrl, GuardedGet, readBodyWithin, requestFailed, type ResolvedIp } from '../tools/index.js';

/** Our product token in robots.txt terms, and the User-Agent every crawl request sends. */
export const CRAWLER_TOKEN = 'agentic-rag-crawler';
export const CRAWLER_USER_AGENT = `${CRAWLER_TOKEN}/1 (+docs/web-sources.md)`;

export interface PageFetcherOptions {
  /** Largest body read, in bytes; the connection is dropped as soon as it is exceeded. */
  maxPageBytes: number;
  /** Budget of one page, its redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /**
   * True when an address must not be contacted; defaults to `isBlockedAddress`, the policy of the
   * http_fetch tool. Tests pass a policy that lets exactly their loopback server through.
   */
  addressPolicy?: (ip: string) => boolean;
  /** Name resolution; defaults to the system resolver (`dns.lookup`, every address). */
  resolve?: (hostname: string) => Promise<ResolvedIp[]>;
  /** Told of every request actually sent (the benchmark counts them). */
  onRequest?: (url: URL) => void;
}

export interface FetchedPage {
  /** The URL that answered, after same-origin redirects. */
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of a 2xx answer whose media type `wanted` accepted; null otherwise. */
  body: Buffer | null;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_REDIRECTS = 5;

/**
 * GETs pages of one site through the http_fetch tool's `GuardedGet`, so the address policy is
 * enforced where it cannot be dodged: in the socket's own lookup and, for IP literals that Node
 * dials without a lookup, before the request. A redirect must stay on the page's origin: one
 * that leaves is refused without contacting it.
 */
export class PageFetcher {
  private readonly guard: GuardedGet;

  constructor(private readonly options: PageFetcherOptions) {
    this.guard = new GuardedGet({
      ...(options.addressPolicy ? { addressPolicy: options.addressPolicy } : {}),
      ...(options.resolve ? { resolve: options.resolve } : {}),
      accept: 'text/html, application/xhtml+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
      userAgent: options.userAgent ?? CRAWLER_USER_AGENT,
      verb: 'crawled',
    });
  }

  /**
   * One page. `wanted` says from the status and headers whether the body is worth reading (an
   * image linked from a page is not); a refused body is never downloaded.
   */
  async get(
    url: URL,
    options: {
      headers?: Record<string, string>;
      signal?: AbortSignal;
      wanted: (status: number, mediaType: string) => boolean;
    },
  ): Promise<FetchedPage> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const maxRedirects = this.options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    let current = this.checkUrl(url, url.origin);
    try {
      const { response } = await this.guard.follow(current, {
        signal,
        ...(options.headers ? { headers: options.headers } : {}),
        maxRedirects,
        tooManyRedirects: (from) =>
          new RagError(ErrorCode.UPSTREAM_UNAVAILABLE, `more than ${maxRedirects} redirects`, {
            details: { url: from.href },
          }),
        redirectTarget: (location, from) => this.checkUrl(parseRedirect(location, from), url.origin),
        onRequest: (sent) => {
          current = sent;
          this.options.onRequest?.(sent);
        },
      });
      const status = response.statusCode ?? 0;
      const mediaType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!options.wanted(status, mediaType)) {
        response.destroy();
        return { url: current, status, headers: response.headers, body: null };
      }
      const limit = this.options.maxPageBytes;
      const body = await readBodyWithin(
        response,
        limit,
        () =>
          new RagError(ErrorCode.PAGE_TOO_LARGE, `${current.href} is larger than ${limit} bytes`, {
            details: { url: current.href, maxPageBytes: limit },
          }),
      );
      return { url: current, status, headers: response.headers, body };
    } catch (error) {
      if (isRagError(error)) throw error;
      if (options.signal?.aborted) throw new RagError(ErrorCode.ABORTED, 'crawl aborted', { cause: error });
      if (timeout.aborted) {
        throw new RagError(
          ErrorCode.UPSTREAM_UNAVAILABLE,
          `${current.href} took longer than ${timeoutMs} ms`,
          {
            details: { url: current.href, timeoutMs },
          },
        );
      }
      throw requestFailed(ErrorCode.UPSTREAM_UNAVAILABLE, current.href, current, error);
    }
  }

  /**
   * Scheme, credentials, origin and IP literals: the checks a URL string can answer, before any
   * request (FETCH_BLOCKED). Names are judged later, in the socket's lookup.
   */
  checkUrl(url: URL, origin: string): URL {
    return this.guard.checkUrl(url, () => {
      if (url.origin !== origin)
        throw blockedUrl(`a redirect to ${url.origin} leaves the site ${origin}`, url);
    });
  }
}

/** A body as text: the charset the server named, else UTF-8 (the best guess for web text). */
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const charset = /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function parseRedirect(location: string, base: URL): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new RagError(ErrorCode.UPSTREAM_UNAVAILABLE, 'redirect to an invalid URL', {
      details: { url: base.href },
    });
  }
}
