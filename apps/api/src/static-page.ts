import type { ServerResponse } from 'node:http';

/**
 * The CSP of the pages the API serves (the console, the explorer): everything from this origin,
 * fonts and icons as data: URIs, no inline script or style (React sets styles through the
 * CSSOM, which CSP allows without 'unsafe-inline').
 */
export const SAME_ORIGIN_CSP = [
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

/** A page: revalidated on every load (its asset names change with each build), never framed. */
export function sendPage(response: ServerResponse, method: string, body: Buffer): void {
  send(response, method, body, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    'content-security-policy': SAME_ORIGIN_CSP,
    'referrer-policy': 'no-referrer',
  });
}

/** A script or style whose name changes whenever its content does: cached for a year. */
export function sendAsset(
  response: ServerResponse,
  method: string,
  asset: { body: Buffer; contentType: string },
): void {
  send(response, method, asset.body, {
    'content-type': asset.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
  });
}

function send(response: ServerResponse, method: string, body: Buffer, headers: Record<string, string>): void {
  response.writeHead(200, { ...headers, 'content-length': body.length, 'x-content-type-options': 'nosniff' });
  response.end(method === 'HEAD' ? undefined : body);
}
