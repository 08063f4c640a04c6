import { useState, type FormEvent } from 'react';
import { asApiError, graphql, type ApiError } from '../api/graphql.js';
import { CRAWL_SITE } from '../api/operations.js';
import type { Failure, Job } from '../api/types.js';
import { ErrorMessage } from '../layout/ErrorMessage.js';
import { useSession } from '../session/session.js';

interface CrawlResult {
  mode: string;
  jobs: Job[];
  summary: {
    site: string;
    chunks: number;
    seconds: number;
    stoppedBy: string | null;
    pages: Record<string, number>;
    documents: Record<string, number>;
    failures: Failure[];
  } | null;
}

/** Crawl a documentation site into the workspace (crawlSite): a start page or a sitemap. */
export function CrawlPage() {
  const { apiKey, workspaceId } = useSession();
  const [url, setUrl] = useState('');
  const [maxPages, setMaxPages] = useState(100);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CrawlResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const data = await graphql<{ crawlSite: CrawlResult }>(apiKey, CRAWL_SITE, {
        input: { workspaceId, url: url.trim(), maxPages },
      });
      setResult(data.crawlSite);
    } catch (caught) {
      setError(asApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Crawl a site</h1>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <label htmlFor="crawl-url">Site URL (a start page, or a sitemap ending in .xml)</label>
        <input
          id="crawl-url"
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://docs.example.com/"
        />
        <label htmlFor="crawl-max-pages">Maximum pages</label>
        <input
          id="crawl-max-pages"
          type="number"
          min={1}
          max={100000}
          value={maxPages}
          onChange={(event) => setMaxPages(Number(event.target.value))}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Crawling…' : 'Crawl'}
        </button>
      </form>
      <ErrorMessage error={error} />
      {result && (
        <section aria-label="Crawl result" role="status">
          {result.summary ? (
            <>
              <p>
                Crawled {result.summary.site} in {result.summary.seconds.toFixed(1)} s:{' '}
                {result.summary.pages.fetched} pages fetched, {result.summary.documents.added} documents
                added, {result.summary.documents.updated} updated, {result.summary.documents.removed} removed,{' '}
                {result.summary.chunks} chunks
                {result.summary.stoppedBy && ` (stopped by ${result.summary.stoppedBy})`}.
              </p>
              <ul>
                {result.summary.failures.map((failure) => (
                  <li key={failure.sourceId} className="error">
                    {failure.sourceId}: <strong>{failure.code}</strong> {failure.message}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>Queued as job {result.jobs.map((job) => job.id).join(', ')}: follow it on the Jobs page.</p>
          )}
        </section>
      )}
    </>
  );
}
