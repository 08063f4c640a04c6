import type { Element } from 'domhandler';
import { cleanHeading, type ManualMarkup } from './html-passages.js';

const classes = (element: Element): string[] => (element.attribs.class ?? '').split(/\s+/);

const POSTGRES_SECTIONS = new Set([
  'chapter', 'preface', 'appendix', 'sect1', 'sect2', 'sect3', 'sect4', 'simplesect',
  'refentry', 'refsynopsisdiv', 'refsect1', 'refsect2', 'refsect3',
]); // prettier-ignore

/** PostgreSQL's DocBook HTML (postgresql-doc-15): sections are divs of a DocBook class. */
export const POSTGRES_MARKUP: ManualMarkup = {
  isContentRoot: (element) => element.name === 'body',
  isSection: (element) =>
    element.name === 'div' && classes(element).some((name) => POSTGRES_SECTIONS.has(name)),
  isChrome: (element) =>
    element.name === 'div' &&
    classes(element).some((name) => ['navheader', 'navfooter', 'toc'].includes(name)),
  cleanTitle: cleanHeading,
};

/** Python's Sphinx HTML (python3.11-doc): sections are <section> elements inside div.body. */
export const PYTHON_MARKUP: ManualMarkup = {
  isContentRoot: (element) => element.name === 'div' && classes(element).includes('body'),
  isSection: (element) => element.name === 'section',
  isChrome: (element) =>
    (element.name === 'a' && classes(element).includes('headerlink')) ||
    (element.name === 'div' &&
      classes(element).some((name) => ['related', 'sphinxsidebar', 'footer'].includes(name))),
  cleanTitle: (title) => cleanHeading(title.replace(/\s+—\s+Python [\d.]+ documentation$/, '')),
};
