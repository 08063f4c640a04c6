import { existsSync } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pagePassages, POSTGRES_MARKUP, PYTHON_MARKUP, type ManualMarkup } from '../../manuals/index.js';
import { rstToMarkdown } from './rst-to-markdown.js';

/**
 * The three manuals Debian packages as documentation, read as benchmark corpora. Each page becomes
 * one Markdown document whose sections are the manual's own; the engine's chunker then cuts it.
 * HTML pages go through the same section cutter as the eval datasets (manuals/); the kernel's
 * reStructuredText through rstToMarkdown.
 */
export type ManualName = 'postgres-docs' | 'python-docs' | 'linux-docs';

export interface ManualPage {
  manual: ManualName;
  /** Path of the page under the manual's root, e.g. `sql-createtable.html`, `PCI/pci.rst.gz`. */
  page: string;
}

export interface CorpusDocument {
  /** Where the document goes under the corpus directory, ending in `.md`. */
  path: string;
  title: string;
  headings: string[];
  markdown: string;
}

interface Manual {
  name: ManualName;
  /** The Debian package that installs it. */
  debianPackage: string;
  root: string;
  pages: (root: string) => Promise<string[]>;
  toMarkdown: (content: Buffer, page: string) => { title: string; headings: string[]; markdown: string };
}

/** Sections as the manual cuts them; the chunker, not this, decides chunk sizes. */
const SECTION_LIMITS = { minWords: 40, maxWords: 5000 };

function htmlToMarkdown(markup: ManualMarkup) {
  return (content: Buffer, page: string) => {
    const passages = pagePassages(
      content.toString('utf8'),
      page.replace(/\.html$/, ''),
      markup,
      SECTION_LIMITS,
    );
    const title = passages[0]?.title.split(' — ')[0] ?? page;
    const headings: string[] = [title];
    const lines = [`# ${title}`, ''];
    for (const passage of passages) {
      const heading = passage.title.includes(' — ')
        ? passage.title.slice(passage.title.indexOf(' — ') + 3)
        : '';
      if (heading !== '') {
        // "Parent › Child; Other" names merged sections; the last part is what the section says.
        headings.push(...heading.split('; ').map((part) => part.split(' › ').at(-1)!));
        lines.push(`## ${heading}`, '');
      }
      lines.push(passage.text, '');
    }
    return { title, headings, markdown: passages.length === 0 ? '' : lines.join('\n') };
  };
}

/** Every HTML page under `root` but the generated indexes, search page and copies of sources. */
async function htmlPages(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter(
      (page) => !/(?:^|\/)(?:_[a-z]+\/|genindex|search\.html|py-modindex|bookindex|index\.html$)/.test(page),
    )
    .sort();
}

const MANUALS: Record<ManualName, Manual> = {
  'postgres-docs': {
    name: 'postgres-docs',
    debianPackage: 'postgresql-doc-15',
    root: '/usr/share/doc/postgresql-doc-15/html',
    pages: htmlPages,
    toMarkdown: htmlToMarkdown(POSTGRES_MARKUP),
  },
  'python-docs': {
    name: 'python-docs',
    debianPackage: 'python3.11-doc',
    root: '/usr/share/doc/python3.11/html',
    pages: htmlPages,
    toMarkdown: htmlToMarkdown(PYTHON_MARKUP),
  },
  'linux-docs': {
    name: 'linux-docs',
    debianPackage: 'linux-doc-6.1',
    // The package ships the kernel's Documentation/ as gzipped .rst and .txt (and a Sphinx build
    // under html/, not used: the sources are the text people write).
    root: '/usr/share/doc/linux-doc-6.1/Documentation',
    pages: async (root) => {
      const entries = await readdir(root, { withFileTypes: true, recursive: true });
      return entries
        .filter((entry) => entry.isFile() && /\.(?:rst|txt)(?:\.gz)?$/.test(entry.name))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
        .sort();
    },
    toMarkdown: (content, page) => {
      const text = (page.endsWith('.gz') ? gunzipSync(content) : content).toString('utf8');
      const converted = rstToMarkdown(text);
      const title = converted.headings[0] ?? page.replace(/\.(?:rst|txt)(?:\.gz)?$/, '');
      const markdown =
        converted.headings.length === 0 ? `# ${title}\n\n${converted.markdown}` : converted.markdown;
      return { title, headings: converted.headings.length === 0 ? [title] : converted.headings, markdown };
    },
  },
};

export const MANUAL_NAMES = Object.keys(MANUALS) as ManualName[];

export function manualPackage(name: ManualName): string {
  return MANUALS[name].debianPackage;
}

/** The manuals whose files are missing (their packages are not installed). */
export function missingManuals(names: readonly ManualName[]): ManualName[] {
  return names.filter((name) => !existsSync(MANUALS[name].root));
}

/**
 * The pages of the given manuals in a fixed order; several manuals are interleaved page by page,
 * so a small corpus of `debian-docs` still holds all three.
 */
export async function manualPages(
  names: readonly ManualName[],
  roots: Partial<Record<ManualName, string>> = {},
): Promise<ManualPage[]> {
  const lists = await Promise.all(
    names.map(async (name) => {
      const root = await realpath(roots[name] ?? MANUALS[name].root);
      return (await MANUALS[name].pages(root)).map((page) => ({ manual: name, page }));
    }),
  );
  const pages: ManualPage[] = [];
  for (let index = 0; lists.some((list) => index < list.length); index++) {
    for (const list of lists) if (index < list.length) pages.push(list[index]!);
  }
  return pages;
}

/** One page as a Markdown document; `undefined` for a page with no text (a redirect, a table of contents). */
export async function pageDocument(
  page: ManualPage,
  roots: Partial<Record<ManualName, string>> = {},
): Promise<CorpusDocument | undefined> {
  const manual = MANUALS[page.manual];
  const root = await realpath(roots[page.manual] ?? manual.root);
  const converted = manual.toMarkdown(await readFile(path.join(root, page.page)), page.page);
  if (converted.markdown.trim() === '') return undefined;
  return {
    path: `${page.manual}/${page.page.replace(/\.(?:html|rst|txt)(?:\.gz)?$/, '')}.md`,
    ...converted,
  };
}
