import { parseCrawlRequest, type CrawlProgress, type CrawlRequestInput } from '../crawl/index.js';
import { crawlSite as runCrawl } from '../queue/index.js';
import type { Caller } from './caller.js';
import type { CallOptions, OperationHost } from './operation-host.js';

/**
 * A crawl as a caller sends it: the crawl request's fields (an optional one null or absent for its
 * default), the workspace and an optional schedule (24h, 30m, 1d).
 */
export type CrawlSiteInput = { workspaceId: string; url: string; schedule?: string | null } & {
  [Field in Exclude<keyof CrawlRequestInput, 'url'>]?: CrawlRequestInput[Field] | null;
};

export interface CrawlCallOptions extends CallOptions {
  /** Inline mode: called as pages are fetched (rag:ingest --url's progress bar). */
  onProgress?: (progress: CrawlProgress) => void;
}

/**
 * Crawls a web site into a workspace: queued for the workers when there is a queue, else now,
 * recorded as a finished job; with `schedule`, a recurring crawl on the queue instead. Its
 * permission is ingest's (a crawl writes documents as an ingest does), audited with the URL.
 */
export async function crawlSite(
  service: OperationHost,
  caller: Caller,
  input: CrawlSiteInput,
  options: CrawlCallOptions = {},
) {
  const { onProgress, ...callOptions } = options;
  const { workspaceId, schedule, ...limits } = input;
  return service.guard(
    caller,
    'ingest',
    workspaceId,
    async ({ runtime, workspaceId: workspace, signal }) => {
      // Checked inside the guard: a caller without the role learns FORBIDDEN, not what was wrong.
      // A schedule's interval (24h, 30m, 1d) is parsed by the crawl's scheduler (parseEvery).
      const every = typeof schedule === 'string' ? schedule : null;
      const request = parseCrawlRequest(
        Object.fromEntries(
          Object.entries(limits).filter(([, value]) => value !== null && value !== undefined),
        ),
      );
      const outcome = await runCrawl(
        { ...runtime, noteCorpusVersion: (id, version) => runtime.corpusVersions.note(id, version) },
        workspace,
        request,
        every,
        { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) },
      );
      const jobs = await Promise.all(outcome.jobIds.map((id) => runtime.jobs.get(id)));
      return { ...outcome, jobs: jobs.filter((job) => job !== null) };
    },
    {
      ...callOptions,
      workspace: 'create',
      target: typeof input.url === 'string' ? input.url.slice(0, 2048) : null,
    },
  );
}
