import { z } from 'zod';
import { ErrorCode, RagError } from '../errors/index.js';
import type { Tool } from './tool.js';

export const MAX_EXPRESSION_LENGTH = 500;
export const MAX_NESTING_DEPTH = 50;

type Operator = '+' | '-' | '*' | '/' | '%' | '^' | '(' | ')' | ',';

type Token =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'name'; name: string; position: number }
  | { kind: 'operator'; operator: Operator; position: number }
  | { kind: 'end'; position: number };

const OPERATORS = new Map<string, Operator>([
  ['+', '+'],
  ['-', '-'],
  ['−', '-'],
  ['*', '*'],
  ['×', '*'],
  ['/', '/'],
  ['÷', '/'],
  ['%', '%'],
  ['^', '^'],
  ['(', '('],
  [')', ')'],
  [',', ','],
]);

// Maps, not object literals: a name such as "constructor" must not find Object.prototype's members.
const CONSTANTS = new Map<string, number>([
  ['pi', Math.PI],
  ['e', Math.E],
]);

interface MathFunction {
  minArguments: number;
  maxArguments: number;
  apply: (...args: number[]) => number;
}

const FUNCTIONS = new Map<string, MathFunction>([
  ['sqrt', { minArguments: 1, maxArguments: 1, apply: Math.sqrt }],
  ['abs', { minArguments: 1, maxArguments: 1, apply: Math.abs }],
  ['round', { minArguments: 1, maxArguments: 2, apply: roundTo }],
  ['min', { minArguments: 1, maxArguments: Infinity, apply: Math.min }],
  ['max', { minArguments: 1, maxArguments: Infinity, apply: Math.max }],
  ['log', { minArguments: 1, maxArguments: 1, apply: Math.log10 }],
  ['ln', { minArguments: 1, maxArguments: 1, apply: Math.log }],
  ['exp', { minArguments: 1, maxArguments: 1, apply: Math.exp }],
]);

// A decimal point needs a digit after it, so a sentence's full stop ("is 3.") is never a number.
const NUMBER = /(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Evaluates an arithmetic expression without eval: numbers (`2`, `0.5`, `.5`, `1.5e3`), `+ - * /`,
 * `%` (remainder, sign of the dividend), `^` or `**` (power, right-associative, binding tighter
 * than unary minus: `-2^2` is -4), parentheses, the constants `pi` and `e`, and `sqrt abs round
 * min max log ln exp` (`log` is base 10, `ln` natural, `round(x, digits)` rounds half away from
 * zero). A comma only separates function arguments, so `1,200` is not a number here; prose with
 * thousands separators goes through `extractArithmetic` first. No implicit multiplication: `2pi`
 * and `2(3)` are errors.
 *
 * Malformed or over-limit expressions throw INVALID_INPUT; well-formed ones whose value is not a
 * finite number (division by zero, `sqrt(-1)`, overflow) throw TOOL_FAILED.
 */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new RagError(
      ErrorCode.INVALID_INPUT,
      `expression is longer than ${MAX_EXPRESSION_LENGTH} characters`,
      { details: { length: expression.length } },
    );
  }
  const value = new Parser(tokenize(expression)).parse();
  // 15 significant digits hide binary floating-point noise: 0.1 + 0.2 answers 0.3.
  const rounded = Number(value.toPrecision(15));
  return rounded === 0 ? 0 : rounded;
}

const calcInput = z.object({
  expression: z
    .string()
    .min(1)
    .max(MAX_EXPRESSION_LENGTH)
    .describe('an arithmetic expression, e.g. (120 - 20) / 4'),
});

export const calcTool: Tool<typeof calcInput> = {
  name: 'calc',
  description:
    'Evaluates an arithmetic expression: + - * / % ^, parentheses, pi, e, sqrt, abs, round, min, max, log (base 10), ln, exp.',
  inputSchema: calcInput,
  timeoutMs: 1_000,
  async run({ expression }) {
    const value = evaluateArithmetic(expression);
    return { output: `${expression.trim()} = ${value}`, data: { expression, value } };
  },
};

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < expression.length) {
    const char = expression[position] as string;
    if (/\s/.test(char)) {
      position++;
      continue;
    }
    NUMBER.lastIndex = position;
    const number = NUMBER.exec(expression);
    if (number) {
      const value = Number(number[0]);
      if (!Number.isFinite(value)) throw syntaxError(`number ${number[0]} is too large`, position);
      tokens.push({ kind: 'number', value, position });
      position += number[0].length;
      continue;
    }
    NAME.lastIndex = position;
    const name = NAME.exec(expression);
    if (name) {
      tokens.push({ kind: 'name', name: name[0].toLowerCase(), position });
      position += name[0].length;
      continue;
    }
    if (expression.startsWith('**', position)) {
      tokens.push({ kind: 'operator', operator: '^', position });
      position += 2;
      continue;
    }
    const operator = OPERATORS.get(char);
    if (!operator) throw syntaxError(`unexpected character "${char}"`, position);
    tokens.push({ kind: 'operator', operator, position });
    position++;
  }
  tokens.push({ kind: 'end', position });
  return tokens;
}

/** Recursive descent that computes as it parses: the grammar is small enough to need no tree. */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    const value = this.sum();
    const token = this.peek();
    if (token.kind !== 'end') throw unexpected(token);
    return value;
  }

  private sum(): number {
    let value = this.product();
    for (;;) {
      if (this.accept('+')) value = finite(value + this.product(), 'addition');
      else if (this.accept('-')) value = finite(value - this.product(), 'subtraction');
      else return value;
    }
  }

  private product(): number {
    let value = this.unary();
    for (;;) {
      if (this.accept('*')) value = finite(value * this.unary(), 'multiplication');
      else if (this.accept('/')) value = value / nonZero(this.unary());
      else if (this.accept('%')) value = value % nonZero(this.unary());
      else return value;
    }
  }

  private unary(): number {
    if (this.accept('-')) return -this.nested(() => this.unary());
    if (this.accept('+')) return this.nested(() => this.unary());
    return this.power();
  }

  private power(): number {
    const base = this.primary();
    if (!this.accept('^')) return base;
    // The exponent is a unary so that 2^-1 works and 2^3^2 groups as 2^(3^2).
    return finite(base ** this.nested(() => this.unary()), 'power');
  }

  private primary(): number {
    const token = this.next();
    if (token.kind === 'number') return token.value;
    if (token.kind === 'operator' && token.operator === '(') {
      const value = this.nested(() => this.sum());
      this.expect(')');
      return value;
    }
    if (token.kind !== 'name') throw unexpected(token);
    const fn = FUNCTIONS.get(token.name);
    if (fn) {
      this.expect('(');
      const args = this.nested(() => this.arguments());
      this.expect(')');
      if (args.length < fn.minArguments || args.length > fn.maxArguments) {
        throw new RagError(
          ErrorCode.INVALID_INPUT,
          `${token.name} takes ${describeArity(fn)}, got ${args.length}`,
          { details: { position: token.position + 1 } },
        );
      }
      return finite(fn.apply(...args), `${token.name}(${args.join(', ')})`);
    }
    const constant = CONSTANTS.get(token.name);
    if (constant !== undefined) return constant;
    throw syntaxError(`unknown name "${token.name}"`, token.position);
  }

  private arguments(): number[] {
    const args = [this.sum()];
    while (this.accept(',')) args.push(this.sum());
    return args;
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_NESTING_DEPTH) {
      throw new RagError(ErrorCode.INVALID_INPUT, `expression nests deeper than ${MAX_NESTING_DEPTH} levels`);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private accept(operator: Operator): boolean {
    const token = this.peek();
    if (token.kind !== 'operator' || token.operator !== operator) return false;
    this.index++;
    return true;
  }

  private expect(operator: Operator): void {
    if (!this.accept(operator)) throw unexpected(this.peek(), `expected "${operator}"`);
  }
}

function finite(value: number, what: string): number {
  if (!Number.isFinite(value)) {
    throw new RagError(ErrorCode.TOOL_FAILED, `${what} does not give a finite number`);
  }
  return value;
}

function nonZero(divisor: number): number {
  if (divisor === 0) throw new RagError(ErrorCode.TOOL_FAILED, 'division by zero');
  return divisor;
}

function roundTo(value: number, digits = 0): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new RagError(ErrorCode.TOOL_FAILED, 'round takes a whole number of digits from 0 to 15');
  }
  const factor = 10 ** digits;
  // toPrecision first so 1.005 rounds to 1.01: 1.005 * 100 is 100.49999999999999 in binary.
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / factor;
}

function describeArity(fn: MathFunction): string {
  if (fn.maxArguments === Infinity) return `at least ${fn.minArguments} argument(s)`;
  if (fn.minArguments === fn.maxArguments) return `${fn.minArguments} argument(s)`;
  return `${fn.minArguments} to ${fn.maxArguments} arguments`;
}

function syntaxError(message: string, position: number): RagError {
  return new RagError(ErrorCode.INVALID_INPUT, `${message} at character ${position + 1}`, {
    details: { position: position + 1 },
  });
}

function unexpected(token: Token, expectation?: string): RagError {
  const found =
    token.kind === 'end'
      ? 'end of expression'
      : token.kind === 'number'
        ? `number ${token.value}`
        : token.kind === 'name'
          ? `"${token.name}"`
          : `"${token.operator}"`;
  return syntaxError(expectation ? `${expectation}, found ${found}` : `unexpected ${found}`, token.position);
}

/** Numbers that are really identifiers: dates (same separator twice) and dotted versions. */
const NOT_ARITHMETIC = [
  /(?<![\d.])\d{4}([-/.])\d{1,2}\1\d{1,2}(?![\d.])/g,
  /(?<![\d.])\d{1,2}([-/.])\d{1,2}\1\d{2,4}(?![\d.])/g,
  /(?<![\d.])\d+(?:\.\d+){2,}/g,
];
const PROSE_OPERATOR = /[-+−*×÷/%^(),\s]/;
// Words right before a bare "a - b" that make it a sum rather than a range or a code.
const ARITHMETIC_CUE =
  /(?:\bwhat\s+is|\bwhat['’]s|\bcompute|\bcalculate|\bevaluate|\bhow\s+much\s+is|\bsolve|=)\s*$/i;
const BARE_SUBTRACTION = /^\d+\s*[-−]\s*\d+$/;
const THOUSANDS = /(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])/g;
const GLUED_START = /\w|\.\w/y;
const GLUED = /[\w.]*/y;

/**
 * Finds the arithmetic in a question ("what is 17.5 * 4 + 3?" → "17.5 * 4 + 3") so the
 * orchestrator can route it to `calc`; null when there is none. A candidate is a run of numbers,
 * operators, parentheses, `pi`/`e` and function calls, and counts only if it parses and has at
 * least one operation, so a lone number ("Algorithm 3.2"), a path ("POST /locations") or a
 * percentage ("10% of 50") is not arithmetic. Dates (2024-01-05, 05/01/2024), versions (1.2.3),
 * and numbers glued to letters (x86, 3D, 0x7f) are never part of one. A bare "a - b" of two whole
 * numbers is usually a range ("pages 10-20") or a code, so it counts only straight after a cue
 * like "what is" or "compute". Thousands separators (1,200) are read as such only when the
 * candidate has no function call, where commas separate arguments; a comma between digits that
 * is not a thousands group (1,5) makes the candidate ambiguous and it is skipped.
 */
export function extractArithmetic(question: string): string | null {
  let masked = question;
  for (const pattern of NOT_ARITHMETIC) masked = masked.replace(pattern, (match) => '#'.repeat(match.length));
  const view = arithmeticView(masked);
  for (const run of view.matchAll(/[^#]+/g)) {
    let text = run[0];
    if (!hasFunctionCall(text)) {
      text = text.replace(THOUSANDS, (match) => match.replace(/,/g, ''));
      if (/\d,\d/.test(text)) continue;
    }
    for (const part of splitTopLevelCommas(text)) {
      const candidate = trimUnbalanced(part.text);
      if (!isArithmetic(candidate)) continue;
      if (BARE_SUBTRACTION.test(candidate)) {
        const before = question.slice(0, run.index) + text.slice(0, part.offset);
        if (!ARITHMETIC_CUE.test(before)) continue;
      }
      return candidate;
    }
  }
  return null;
}

/** The question with every character that cannot be part of arithmetic replaced by '#'. */
function arithmeticView(text: string): string {
  let view = '';
  let position = 0;
  while (position < text.length) {
    NUMBER.lastIndex = position;
    const number = NUMBER.exec(text);
    if (number) {
      const end = position + number[0].length;
      GLUED_START.lastIndex = end;
      GLUED.lastIndex = end;
      // "3D", "x86" (caught as a word below), "0x7f", "1.x": part of a name, not a number.
      if (GLUED_START.test(text) && GLUED.exec(text)) {
        view += '#'.repeat(GLUED.lastIndex - position);
        position = GLUED.lastIndex;
      } else {
        view += number[0];
        position = end;
      }
      continue;
    }
    NAME.lastIndex = position;
    const name = NAME.exec(text);
    if (name) {
      const word = name[0].toLowerCase();
      const end = position + name[0].length;
      const keep = CONSTANTS.has(word) || (FUNCTIONS.has(word) && /^\s*\(/.test(text.slice(end, end + 20)));
      view += keep ? name[0] : '#'.repeat(name[0].length);
      position = end;
      continue;
    }
    const char = text[position] as string;
    view += PROSE_OPERATOR.test(char) ? char : '#';
    position++;
  }
  return view;
}

function hasFunctionCall(text: string): boolean {
  return [...text.matchAll(/([A-Za-z]+)\s*\(/g)].some((match) =>
    FUNCTIONS.has((match[1] as string).toLowerCase()),
  );
}

function splitTopLevelCommas(text: string): Array<{ text: string; offset: number }> {
  const parts: Array<{ text: string; offset: number }> = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= text.length; index++) {
    const char = text[index];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === undefined || (char === ',' && depth <= 0)) {
      const raw = text.slice(start, index);
      parts.push({ text: raw, offset: start + raw.length - raw.trimStart().length });
      start = index + 1;
    }
  }
  return parts;
}

/** Drops parentheses that belong to the surrounding prose: "(see 3 + 4)" leaves "3 + 4)". */
function trimUnbalanced(text: string): string {
  let candidate = text.trim();
  const count = (char: string) => candidate.split(char).length - 1;
  while (candidate.startsWith('(') && count('(') > count(')')) candidate = candidate.slice(1).trim();
  while (candidate.endsWith(')') && count(')') > count('(')) candidate = candidate.slice(0, -1).trim();
  return candidate;
}

/** Parses, and has an operation; a division by zero still counts: `calc` will explain it. */
function isArithmetic(candidate: string): boolean {
  if (candidate.length === 0 || candidate.length > MAX_EXPRESSION_LENGTH) return false;
  let tokens: Token[];
  try {
    tokens = tokenize(candidate);
    new Parser(tokens).parse();
  } catch (error) {
    if (!(error instanceof RagError) || error.code !== ErrorCode.TOOL_FAILED) return false;
    return true;
  }
  return tokens.some((token, index) => {
    if (token.kind === 'name') return FUNCTIONS.has(token.name);
    if (token.kind !== 'operator' || !'+-*/%^'.includes(token.operator)) return false;
    const previous = tokens[index - 1];
    return (
      previous !== undefined &&
      (previous.kind === 'number' ||
        previous.kind === 'name' ||
        (previous.kind === 'operator' && previous.operator === ')'))
    );
  });
}
