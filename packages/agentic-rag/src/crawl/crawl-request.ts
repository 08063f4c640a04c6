import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';

/** The defaults are for a documentation site: a few hundred pages, gently. */
export const CRAWL_DEFAULTS = {
  maxPages: 1000,
  maxDepth: 10,
  maxBytes: 500 * 1024 * 1024,
  maxPageBytes: 5 * 1024 * 1024,
  rate: 2,
  concurrency: 2,
} as const;

const absoluteHttpUrl = z
  .string({ error: 'url must be a string' })
  .max(2048, { error: 'url must be at most 2048 characters' })
  .refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), {
    error: 'url must be an absolute http(s) URL: https://docs.example.com/ or .../sitemap.xml',
  });

/**
 * One crawl: where it starts (a page, or a sitemap.xml / sitemap index) and its limits. The same
 * shape from the CLI, GraphQL and a queued job, validated here once.
 */
export const crawlRequest = z.object({
  url: absoluteHttpUrl,
  maxPages: z.number().int().min(1).max(100_000).default(CRAWL_DEFAULTS.maxPages),
  /** Links followed from the start page; a sitemap's pages are all depth 0. */
  maxDepth: z.number().int().min(0).max(100).default(CRAWL_DEFAULTS.maxDepth),
  /** Bytes downloaded by the whole crawl; pages past it wait for the next crawl. */
  maxBytes: z.number().int().min(1).default(CRAWL_DEFAULTS.maxBytes),
  maxPageBytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .default(CRAWL_DEFAULTS.maxPageBytes),
  /** Requests per second; robots.txt's Crawl-delay slows it further, never speeds it up. */
  rate: z.number().positive().max(1000).default(CRAWL_DEFAULTS.rate),
  concurrency: z.number().int().min(1).max(32).default(CRAWL_DEFAULTS.concurrency),
  /** Fetch every page in full, without If-None-Match / If-Modified-Since. */
  full: z.boolean().default(false),
});

export type CrawlRequest = z.output<typeof crawlRequest>;
export type CrawlRequestInput = z.input<typeof crawlRequest>;

/** One page fetched again now (the on-demand refresh): which, and whether without its validators. */
export const pageRefreshRequest = z.object({
  url: absoluteHttpUrl,
  /** Fetch the page in full even when its stored validators would let the site answer 304. */
  full: z.boolean({ error: 'full must be a boolean' }).default(false),
});

export type PageRefreshRequest = z.output<typeof pageRefreshRequest>;

/** A crawl request from outside, or INVALID_INPUT naming the first bad field. */
export function parseCrawlRequest(input: unknown): CrawlRequest {
  return parseOrRefuse(crawlRequest, input);
}

/** A page refresh request from outside, or INVALID_INPUT naming the first bad field. */
export function parsePageRefreshRequest(input: unknown): PageRefreshRequest {
  return parseOrRefuse(pageRefreshRequest, input);
}

function parseOrRefuse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw new RagError(ErrorCode.INVALID_INPUT, field ? `${field}: ${issue.message}` : issue.message, {
    details: { field },
  });
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Recrawling more often than this would be hammering a site, not keeping up with it. */
const MIN_EVERY_MS = 60_000;

/** `24h`, `30m`, `1d`, `90s` → milliseconds, at least a minute; INVALID_INPUT otherwise. */
export function parseEvery(text: string): number {
  const match = /^\s*(\d+)\s*([smhd])\s*$/.exec(text);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!Number.isSafeInteger(ms) || ms < MIN_EVERY_MS) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `every must be a duration of at least a minute such as 24h, 30m or 1d, not "${text}"`,
    );
  }
  return ms;
}
