/** The console's own pages: each serves index.html, and the console's router shows the page. */
export const CONSOLE_ROUTES: readonly string[] = ['/', '/documents', '/ask', '/crawl', '/graph', '/jobs'];

export const CONSOLE_ASSETS_PATH = '/assets/';

/**
 * Like the explorer's: everything from this origin, no inline script. React sets `style` through
 * the CSSOM, which CSP allows without 'unsafe-inline'.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
