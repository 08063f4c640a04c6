-- 2026-11-28_3_crawl: what a web crawl remembers of each page between runs (docs/web-sources.md).
-- The validators (ETag, Last-Modified) make a recrawl's requests conditional, so an unchanged
-- page costs a 304 and no parsing or embedding; the links let a recrawl that got 304s still walk
-- the site without the pages' bodies. One row per page URL a crawl of `site` (an origin) fetched;
-- the page's document is rag_documents' row whose source_path is the same URL.
CREATE TABLE IF NOT EXISTS rag_crawl_pages (
  workspace_id text NOT NULL,
  site text NOT NULL,
  url text NOT NULL,
  etag text,
  last_modified text,
  links text[] NOT NULL DEFAULT '{}',
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, url)
);

CREATE INDEX IF NOT EXISTS rag_crawl_pages_site ON rag_crawl_pages (workspace_id, site);

-- Workspace-scoped like every such table (2026-11-25_3_row_security).
ALTER TABLE rag_crawl_pages ENABLE ROW LEVEL SECURITY;
CREATE POLICY rag_workspace_scope ON rag_crawl_pages
  USING (workspace_id = current_setting('app.workspace', true))
  WITH CHECK (workspace_id = current_setting('app.workspace', true));
