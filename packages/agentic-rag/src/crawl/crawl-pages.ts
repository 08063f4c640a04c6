import type { SqlExecutor } from '../db/index.js';

/** What a crawl remembers of one page it fetched: its validators and its links. */
export interface CrawledPage {
  url: string;
  etag: string | null;
  lastModified: string | null;
  links: string[];
}

type PageRow = {
  url: string;
  etag: string | null;
  last_modified: string | null;
  links: string[];
};

function crawledPage(row: PageRow): CrawledPage {
  return { url: row.url, etag: row.etag, lastModified: row.last_modified, links: row.links };
}

const SELECT_SITE = `SELECT url, etag, last_modified, links FROM rag_crawl_pages
  WHERE workspace_id = $1 AND site = $2`;

const SELECT_PAGE = `SELECT url, etag, last_modified, links FROM rag_crawl_pages
  WHERE workspace_id = $1 AND url = $2`;

const SITE_KNOWN = 'SELECT 1 FROM rag_crawl_pages WHERE workspace_id = $1 AND site = $2 LIMIT 1';

const UPSERT = `INSERT INTO rag_crawl_pages (workspace_id, site, url, etag, last_modified, links, fetched_at)
  VALUES ($1, $2, $3, $4, $5, $6::text[], now())
  ON CONFLICT (workspace_id, url) DO UPDATE SET site = EXCLUDED.site, etag = EXCLUDED.etag,
    last_modified = EXCLUDED.last_modified, links = EXCLUDED.links, fetched_at = now()`;

const DELETE = 'DELETE FROM rag_crawl_pages WHERE workspace_id = $1 AND url = ANY($2::text[])';

/** rag_crawl_pages (migrations/2026-11-28_3_crawl.sql): one row per page a crawl fetched. */
export class CrawlPages {
  constructor(private readonly sql: SqlExecutor) {}

  /** Every page remembered for a site, by URL: read once per crawl. */
  async site(workspaceId: string, site: string): Promise<Map<string, CrawledPage>> {
    const result = await this.sql.query<PageRow>(SELECT_SITE, [workspaceId, site]);
    return new Map(result.rows.map((row) => [row.url, crawledPage(row)]));
  }

  /** One remembered page, or null. */
  async page(workspaceId: string, url: string): Promise<CrawledPage | null> {
    const row = (await this.sql.query<PageRow>(SELECT_PAGE, [workspaceId, url])).rows[0];
    return row ? crawledPage(row) : null;
  }

  /** True when a crawl of this workspace has fetched a page of the site (an origin). */
  async knows(workspaceId: string, site: string): Promise<boolean> {
    return (await this.sql.query(SITE_KNOWN, [workspaceId, site])).rows.length > 0;
  }

  async save(workspaceId: string, site: string, page: CrawledPage): Promise<void> {
    await this.sql.query(UPSERT, [workspaceId, site, page.url, page.etag, page.lastModified, page.links]);
  }

  async forget(workspaceId: string, urls: readonly string[]): Promise<void> {
    if (urls.length > 0) await this.sql.query(DELETE, [workspaceId, [...urls]]);
  }
}
