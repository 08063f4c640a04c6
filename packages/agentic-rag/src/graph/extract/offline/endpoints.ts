import type { Span } from '../../facts.js';
import { isPluralName, resourceName } from '../../naming/index.js';
import type { Collector } from './collector.js';
import type { Region } from './layout.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const HTTP_METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);
export const METHOD_PATTERN = HTTP_METHODS.join('|');

/** Endpoints and resources. */

/** `/v2/shipments/shp_01J2.../events` → `/shipments/{shipmentId}/events`: a concrete id is a parameter. */
function templatePath(path: string): string | null {
  const segments = path.split('/').filter((segment) => segment.length > 0);
  if (segments.length > 0 && /^v\d+$/.test(segments[0]!)) segments.shift();
  if (segments.length === 0) return null;
  const templated = segments.map((segment, index) => {
    if (!/^[a-z]{2,8}_[A-Za-z0-9]{4,}$/.test(segment) || !/\d/.test(segment)) return segment;
    const previous = index > 0 ? resourceName(segments[index - 1]!) : '';
    return /^[a-z]+$/.test(previous) ? `{${previous}Id}` : '{id}';
  });
  return `/${templated.join('/')}`;
}

/**
 * The collection an API path starts with, when it looks like one: a lower-case plural word
 * (after an optional version or `api` segment). "/oauth/token" or "/etc/hosts" name no resource.
 * The name is the shared resource name the OpenAPI loader gives it too (`/shipments/...` →
 * `shipment`, `/rate-cards` → `rate-card`); the span covers the segment as written.
 */
export function resourceOf(path: string, start: number): { name: string; span: Span } | null {
  const match = /^(\/(?:api|v\d+(?:\.\d+)*))?\/([a-z][a-z_-]*)(?=$|[/?#])/.exec(path);
  if (!match) return null;
  const segment = match[2]!;
  if (!isPluralName(segment)) return null;
  const name = resourceName(segment);
  const offset = start + (match[1]?.length ?? 0) + 1;
  return { name, span: { start: offset, end: offset + segment.length } };
}

/**
 * Adds an endpoint and the resource its path starts with. `path` names the endpoint;
 * `written` is the path as the text has it at `writtenStart` (they differ for a curl URL).
 */
export function addEndpoint(
  collector: Collector,
  method: string,
  path: string,
  span: Span,
  written: { path: string; start: number } = { path, start: span.end - path.length },
): void {
  if (path.length <= 1) return;
  const name = `${method} ${path}`;
  collector.add({ type: 'Endpoint', name, span, properties: { method, path } });
  const resource = resourceOf(written.path, written.start);
  if (resource) {
    collector.add({ type: 'Resource', name: resource.name, span: resource.span, derived: true });
    collector.relations.push({
      from: { type: 'Resource', name: resource.name },
      to: { type: 'Endpoint', name },
      type: 'RESOURCE_HAS_ENDPOINT',
      weight: 1,
    });
  }
}

/** `curl [-X METHOD] URL` in fenced code: the one kind of code that names an API operation. */
export function scanCurlCommands(text: string, fences: readonly Region[], collector: Collector): void {
  for (const fence of fences) {
    const body = text.slice(fence.start, fence.end);
    for (const command of body.matchAll(/\bcurl\b(?:[^\n]*\\\n)*[^\n]*/g)) {
      const commandStart = fence.start + command.index;
      const source = command[0];
      const url = /(?<=[\s"'])["']?(?:\$\{?\w+\}?|https?:\/\/[^/\s"']+)(\/[^\s"'?#\\]*)/.exec(source);
      if (!url?.[1]) continue;
      const path = templatePath(url[1]);
      if (path === null) continue;
      const explicit = /(?:^|\s)(?:-X|--request)\s*([A-Z]+)\b/.exec(source);
      const hasBody = /(?:^|\s)(?:-d|--data(?:-raw|-binary|-urlencode)?|-F|--form|--json)\b/.test(source);
      const method = explicit?.[1] ?? (hasBody ? 'POST' : 'GET');
      if (!HTTP_METHOD_SET.has(method)) continue;
      const pathStart = commandStart + url.index + url[0].length - url[1].length;
      const start = explicit ? commandStart + explicit.index + explicit[0].indexOf(method) : commandStart;
      const span = { start, end: pathStart + url[1].length };
      // The path as written may hold a concrete id; the name uses the template.
      addEndpoint(collector, method, path, span, { path: url[1], start: pathStart });
    }
  }
}

export function scanProseEndpoints(prose: string, collector: Collector): void {
  const pattern = new RegExp(`(?<![\\w-])(${METHOD_PATTERN})\\s+(\\/[\\w\\-./{}]*)`, 'g');
  for (const match of prose.matchAll(pattern)) {
    const pathStart = match.index + match[0].length - match[2]!.length;
    // A sentence may end right after the path: "... on POST /shipments."
    const path = match[2]!.replace(/[.,;:)]+$/, '');
    addEndpoint(collector, match[1]!, path, { start: match.index, end: pathStart + path.length });
  }
}
