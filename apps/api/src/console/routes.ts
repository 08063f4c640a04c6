/** The console's own pages: each serves index.html, and the console's router shows the page. */
export const CONSOLE_ROUTES: readonly string[] = ['/', '/documents', '/ask', '/crawl', '/graph', '/jobs'];

export const CONSOLE_ASSETS_PATH = '/assets/';
