import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SessionContext, type Session } from '../session/session.js';
import { GraphPage } from './GraphPage.js';

const session: Session = {
  apiKey: 'key',
  workspaceId: 'demo',
  setWorkspaceId: () => undefined,
  signOut: () => undefined,
};

// Effects do not run on the server: this is the page as first drawn for a URL, before any answer.
const render = (search: string) =>
  renderToStaticMarkup(
    createElement(
      SessionContext.Provider,
      { value: session },
      createElement(GraphPage, { params: new URLSearchParams(search) }),
    ),
  );

describe('GraphPage', () => {
  it('opens with the search box and the id form open', () => {
    const html = render('');
    expect(html).toContain('<label for="graph-search">Find entities</label>');
    expect(html).toContain('<details class="graph-by-id" open="">');
    expect(html).toMatch(/<label for="graph-ids">Entity ids/);
    expect(html).toContain('<button type="submit">Expand</button>');
  });

  it('shows the search from the URL, with the id form folded away', () => {
    const html = render('q=warranty');
    expect(html).toMatch(/<input id="graph-search" type="search" [^>]*value="warranty"/);
    expect(html).toContain('<details class="graph-by-id">');
    expect(html).toContain('Searching…');
  });

  it('puts the expanded ids and hops from the URL in the id form', () => {
    const html = render('ids=Person%3ASmith%2C+J.&ids=Concept%3Awarranty&depth=2');
    expect(html).toMatch(/<input id="graph-ids" [^>]*value="Person:Smith, J., Concept:warranty"/);
    expect(html).toMatch(/<option selected="">2<\/option>/);
    expect(html).toContain('Expanding…');
  });
});
