import { titleFromPath } from '../normalize.js';
import { type Json, sentence, text, isObject, asObject, asArray } from './json.js';
import { type Operation, endpointTitle } from './operations.js';
import { type Spec, deref } from './refs.js';
import { type Draft, TextBuilder } from './text-builder.js';

/** The `#info` document: title, version, servers, tags, security schemes and the endpoint list. */

export function renderOverview(spec: Spec, operations: Operation[]): Draft {
  const info = asObject(spec.root.info);
  const title = text(info.title) ?? titleFromPath(spec.file);
  const builder = new TextBuilder();
  builder.heading(1, title);
  const version = text(info.version);
  builder.paragraph(
    `${version ? `Version ${version}. ` : ''}OpenAPI ${String(spec.root.openapi)} specification with ` +
      `${operations.length} operations and ${Object.keys(spec.schemas).length} component schemas.`,
  );
  builder.markdown(info.description, 1);

  const servers = asArray(spec.root.servers).filter(isObject);
  if (servers.length > 0) {
    builder.heading(2, 'Servers');
    builder.list(servers.map((server) => sentence(`${String(server.url)}`, server.description)));
  }
  const tags = asArray(spec.root.tags).filter(isObject);
  if (tags.length > 0) {
    builder.heading(2, 'Tags');
    builder.list(tags.map((tag) => sentence(String(tag.name), tag.description)));
  }
  const schemes = asObject(asObject(spec.root.components).securitySchemes);
  if (Object.keys(schemes).length > 0) {
    builder.heading(2, 'Security schemes');
    builder.list(
      Object.entries(schemes).map(([name, raw]) => {
        const scheme = deref(spec, raw, spec.fileRefs) ?? {};
        return sentence(`\`${name}\`: ${describeScheme(scheme)}`, scheme.description);
      }),
    );
  }
  if (operations.length > 0) {
    builder.heading(2, 'Endpoints');
    builder.list(operations.map((operation) => endpointTitle(operation)));
  }
  const contact = asObject(info.contact);
  const contactParts = [text(contact.name), text(contact.email), text(contact.url)].filter(Boolean);
  const terms = text(info.termsOfService);
  if (contactParts.length > 0 || terms) {
    builder.heading(2, 'Contact');
    builder.paragraph(
      [
        contactParts.length > 0 ? `Contact: ${contactParts.join(', ')}.` : '',
        terms ? `Terms of service: ${terms}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return {
    id: `${spec.file}#info`,
    title,
    text: builder.text,
    blocks: builder.blocks,
    metadata: {
      chunk_type: 'overview',
      openapi: String(spec.root.openapi),
      api_title: title,
      ...(version ? { api_version: version } : {}),
      servers: servers.map((server) => String(server.url)),
      tags: tags.map((tag) => String(tag.name)),
      security_schemes: Object.keys(schemes),
      operation_count: operations.length,
      schema_count: Object.keys(spec.schemas).length,
    },
    refIds: new Set(),
    unresolved: new Set(),
  };
}

function describeScheme(scheme: Json): string {
  switch (scheme.type) {
    case 'http':
      return `HTTP ${String(scheme.scheme ?? '')} authentication${scheme.bearerFormat ? ` (${String(scheme.bearerFormat)})` : ''}`;
    case 'apiKey':
      return `API key in ${String(scheme.in ?? 'header')} \`${String(scheme.name ?? '')}\``;
    case 'openIdConnect':
      return `OpenID Connect (${String(scheme.openIdConnectUrl ?? '')})`;
    case 'oauth2':
      return `OAuth 2.0, ${Object.entries(asObject(scheme.flows))
        .map(([flow, raw]) => {
          const details = asObject(raw);
          const urls = [details.authorizationUrl, details.tokenUrl].filter((url) => typeof url === 'string');
          const scopes = Object.entries(asObject(details.scopes)).map(
            ([scope, meaning]) => `${scope} (${String(meaning)})`,
          );
          return `${flow} flow${urls.length ? ` via ${urls.join(' and ')}` : ''}${scopes.length ? ` with scopes ${scopes.join(', ')}` : ''}`;
        })
        .join('; ')}`;
    default:
      return String(scheme.type ?? 'unknown scheme');
  }
}
