import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { EXIT, ProgressBar, runCli } from '@agentic-rag/core/cli';
import {
  countWords,
  pagePassages,
  POSTGRES_MARKUP,
  PYTHON_MARKUP,
  type ManualMarkup,
  type Passage,
} from '../manuals/index.js';

const HELP = `Usage: pnpm eval:build-docs [options]

Builds the corpus.jsonl of the BEIR datasets in eval/datasets/ from manuals installed with apt:
PostgreSQL 15 (postgresql-doc-15) and Python 3.11 (python3.11-doc). Each page is cut into
passages of roughly 80-400 words at the manual's own section boundaries: small sections are
merged with the next, long ones split between paragraphs. The output is deterministic: the same
packages give byte-identical files. Queries and judgments are written by hand, not here.

Options:
  --manual NAME     postgres, python or all (default all)
  --source DIR      the manual's HTML directory (default: the Debian package's)
  --out DIR         where the dataset folders go (default eval/datasets)
  -h, --help        show this help`;

const LIMITS = { minWords: 80, maxWords: 400 };

interface Manual {
  name: string;
  /** The dataset folder under --out. */
  folder: string;
  defaultSource: string;
  markup: ManualMarkup;
  /** Page paths relative to the source directory, in reading order. */
  pages: (source: string) => Promise<string[]>;
}

const classes = (element: Element): string[] => (element.attribs.class ?? '').split(/\s+/);

/**
 * PostgreSQL: the tutorial, the SQL language part, server administration, and the reference of SQL
 * commands and client and server applications — what people running and querying a server ask
 * about. Left out of the administration part: building from source and the regression tests
 * (compiler flags and test harness details, a different audience). Left out of the manual:
 * client interfaces (libpq, ECPG), server programming, internals, appendixes and release notes.
 */
const postgres: Manual = {
  name: 'postgres',
  folder: 'postgres-docs',
  defaultSource: '/usr/share/doc/postgresql-doc-15/html',
  markup: POSTGRES_MARKUP,
  pages: async (source) => {
    const excluded = /^(?:install|installation|supported-platforms|regress)/;
    const pages: string[] = [];
    const parts = [
      'tutorial.html',
      'sql.html',
      'admin.html',
      'sql-commands.html',
      'reference-client.html',
      'reference-server.html',
    ];
    for (const part of parts) {
      for (const page of await tocLinks(path.join(source, part))) {
        if (!excluded.test(page) && !pages.includes(page)) pages.push(page);
      }
    }
    return pages;
  },
};

/** Python library modules that ordinary programs and scripts use most, grouped as the library reference groups them. */
const PYTHON_MODULES = [
  // built-ins
  'functions', 'constants', 'stdtypes', 'exceptions',
  // text
  'string', 're', 'textwrap',
  // data types
  'datetime', 'zoneinfo', 'collections', 'collections.abc', 'heapq', 'bisect', 'copy', 'pprint', 'enum',
  // numbers
  'math', 'decimal', 'random', 'statistics',
  // functional
  'itertools', 'functools', 'operator',
  // files and directories
  'pathlib', 'os.path', 'tempfile', 'glob', 'shutil',
  // binary data
  'struct',
  // persistence, archives and file formats
  'pickle', 'sqlite3', 'gzip', 'zipfile', 'tarfile', 'csv', 'configparser',
  // cryptographic services
  'hashlib', 'secrets',
  // operating system
  'os', 'io', 'time', 'argparse', 'logging', 'logging.config', 'logging.handlers',
  // concurrency
  'threading', 'multiprocessing', 'concurrent.futures', 'subprocess', 'queue',
  'asyncio', 'asyncio-runner', 'asyncio-task', 'asyncio-stream', 'asyncio-sync', 'asyncio-subprocess',
  'asyncio-queue', 'asyncio-exceptions', 'asyncio-eventloop', 'asyncio-future', 'asyncio-dev',
  // networking
  'socket',
  // internet data and protocols
  'json', 'base64', 'urllib.request', 'urllib.parse', 'uuid',
  // development tools
  'typing', 'unittest', 'unittest.mock',
  // debugging and runtime
  'doctest', 'timeit', 'pdb', 'sys', 'warnings', 'dataclasses', 'contextlib', 'abc', 'traceback', 'inspect',
  // packaging
  'venv',
  // text processing helpers
  'shlex',
]; // prettier-ignore

/** The FAQs answer the questions people actually ask; the extending, Windows and GUI ones are niche. */
const PYTHON_FAQS = ['general', 'programming', 'design', 'library'];

/** The HOWTOs about C extensions, porting from Python 2 and curses are for other audiences. */
const PYTHON_HOWTOS = [
  'annotations', 'argparse', 'descriptor', 'enum', 'functional', 'ipaddress', 'logging',
  'logging-cookbook', 'regex', 'sockets', 'sorting', 'unicode', 'urllib2',
]; // prettier-ignore

/**
 * Python: the whole tutorial, the HOWTOs for Python programmers, and the library reference pages
 * of the modules listed above; the language reference, C API, packaging and what's-new pages are
 * left out.
 */
const python: Manual = {
  name: 'python',
  folder: 'python-docs',
  defaultSource: '/usr/share/doc/python3.11-doc/html',
  markup: PYTHON_MARKUP,
  pages: async (source) => {
    const tutorial = await tocLinks(path.join(source, 'tutorial', 'index.html'), 'toctree-wrapper');
    return [
      ...tutorial.map((page) => `tutorial/${page}`),
      ...PYTHON_HOWTOS.map((page) => `howto/${page}.html`),
      ...PYTHON_FAQS.map((page) => `faq/${page}.html`),
      ...PYTHON_MODULES.map((page) => `library/${page}.html`),
    ];
  },
};

const MANUALS = [postgres, python];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      manual: { type: 'string', default: 'all' },
      source: { type: 'string' },
      out: { type: 'string', default: 'eval/datasets' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return EXIT.ok;
  }
  const selected =
    values.manual === 'all' ? MANUALS : MANUALS.filter((manual) => manual.name === values.manual);
  if (selected.length === 0)
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `--manual must be postgres, python or all, not "${values.manual}"`,
    );
  if (values.source && selected.length > 1)
    throw new RagError(ErrorCode.INVALID_INPUT, '--source needs one --manual');
  for (const manual of selected) await build(manual, values.source ?? manual.defaultSource, values.out);
  return EXIT.ok;
}

async function build(manual: Manual, sourceOption: string, outDirectory: string): Promise<void> {
  const started = performance.now();
  if (!existsSync(sourceOption))
    throw new RagError(
      ErrorCode.NOT_FOUND,
      `${sourceOption} does not exist: install the manual's Debian package or pass --source`,
    );
  // python3.11-doc's html is a symlink into python3.11's folder; relative links resolve from the target.
  const source = await realpath(sourceOption);
  const pages = await manual.pages(source);
  const progress = new ProgressBar({ label: manual.name });
  const passages: Passage[] = [];
  const seen = new Map<string, string>();
  for (const [index, page] of pages.entries()) {
    const html = await readFile(path.join(source, page), 'utf8').catch((error: unknown) => {
      throw new RagError(ErrorCode.FILE_UNREADABLE, `${page}: cannot read the page`, { cause: error });
    });
    const pageId = page.replace(/\.html$/, '');
    for (const passage of pagePassages(html, pageId, manual.markup, LIMITS)) {
      const previous = seen.get(passage._id);
      if (previous !== undefined)
        throw new RagError(
          ErrorCode.INTERNAL,
          `passage id ${passage._id} comes from ${previous} and ${page}`,
        );
      seen.set(passage._id, page);
      passages.push(passage);
    }
    progress.update(index + 1, pages.length, page);
  }
  progress.finish();
  const directory = path.join(outDirectory, manual.folder);
  await mkdir(directory, { recursive: true });
  const body = passages.map((passage) => JSON.stringify(passage)).join('\n') + '\n';
  await writeFile(path.join(directory, 'corpus.jsonl'), body);
  printSummary(manual, source, pages.length, passages, Buffer.byteLength(body), performance.now() - started);
}

function printSummary(
  manual: Manual,
  source: string,
  pages: number,
  passages: Passage[],
  bytes: number,
  milliseconds: number,
): void {
  const words = passages.map((passage) => countWords(passage.text)).sort((a, b) => a - b);
  const at = (fraction: number) =>
    words[Math.min(words.length - 1, Math.floor(fraction * words.length))] ?? 0;
  const within = words.filter((count) => count >= LIMITS.minWords && count <= LIMITS.maxWords).length;
  const total = words.reduce((sum, count) => sum + count, 0);
  console.log(
    [
      `${manual.name}: ${passages.length} passages from ${pages} pages of ${source}`,
      `  words: total ${total}, min ${at(0)}, p10 ${at(0.1)}, median ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)}`,
      `  within ${LIMITS.minWords}-${LIMITS.maxWords} words: ${within} (${((100 * within) / Math.max(1, words.length)).toFixed(1)}%)`,
      `  wrote ${manual.folder}/corpus.jsonl (${(bytes / 1e6).toFixed(2)} MB) in ${(milliseconds / 1000).toFixed(1)} s`,
    ].join('\n'),
  );
}

/** The pages a table-of-contents block links to, in order, without fragments or duplicates. */
async function tocLinks(file: string, tocClass = 'toc'): Promise<string[]> {
  const dom = parseDocument(await readFile(file, 'utf8'));
  const links: string[] = [];
  const visit = (nodes: ChildNode[], inToc: boolean) => {
    for (const node of nodes) {
      if (node.type !== 'tag') continue;
      const here = inToc || classes(node).includes(tocClass);
      const href = node.attribs.href;
      if (here && node.name === 'a' && href && !/^[a-z]+:/.test(href)) {
        const page = href.split('#')[0] ?? '';
        if (page.endsWith('.html') && !links.includes(page)) links.push(page);
      }
      visit(node.children, here);
    }
  };
  visit(dom.children, false);
  return links;
}

runCli(main);
