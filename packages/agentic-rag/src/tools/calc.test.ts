import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../errors/index.js';
import { calcTool, evaluateArithmetic, extractArithmetic } from './calc.js';

describe('evaluateArithmetic', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['17.5 * 4 + 3', 73],
    ['2 ^ 10', 1024],
    ['2 ** 10', 1024],
    ['2 ^ 3 ^ 2', 512], // right-associative: 2^(3^2)
    ['-2 ^ 2', -4], // power binds tighter than unary minus
    ['(-2) ^ 2', 4],
    ['2 ^ -1', 0.5],
    ['--3', 3],
    ['-(4 - 6)', 2],
    ['+5', 5],
    ['7 % 3', 1],
    ['-7 % 3', -1],
    ['5.5 % 2', 1.5],
    ['1.5e3 * 2', 3000],
    ['2E-3 * 1000', 2],
    ['.5 + .25', 0.75],
    ['0.1 + 0.2', 0.3], // binary noise rounded away
    ['10 × 3 ÷ 2 − 1', 14],
    ['  12  /4 ', 3],
  ])('%s = %d', (expression, value) => {
    expect(evaluateArithmetic(expression)).toBe(value);
  });

  it.each([
    ['sqrt(16)', 4],
    ['abs(-3.5)', 3.5],
    ['round(2.5)', 3],
    ['round(-2.5)', -3], // half away from zero, as on a calculator
    ['round(1.005, 2)', 1.01],
    ['round(3.14159, 3)', 3.142],
    ['min(4, 2, 8)', 2],
    ['max(1, 200)', 200],
    ['log(1000)', 3],
    ['ln(e)', 1],
    ['exp(0)', 1],
    ['round(pi, 4)', 3.1416],
    ['Sqrt(9) + ABS(-1)', 4],
    ['max(sqrt(16), 2 ^ 3) - min(1, -1)', 9],
  ])('%s = %d', (expression, value) => {
    expect(evaluateArithmetic(expression)).toBe(value);
  });

  it('rounds away floating-point noise to 15 significant digits but keeps real precision', () => {
    expect(evaluateArithmetic('1 / 3')).toBe(0.333333333333333);
    expect(evaluateArithmetic('123456789 * 1000')).toBe(123456789000);
    expect(evaluateArithmetic('-0 * 5')).toBe(0);
    expect(Object.is(evaluateArithmetic('-0 * 5'), -0)).toBe(false);
  });

  it.each([
    ['1 / 0', 'division by zero'],
    ['5 % (2 - 2)', 'division by zero'],
    ['sqrt(-1)', 'sqrt(-1) does not give a finite number'],
    ['ln(0)', 'ln(0) does not give a finite number'],
    ['10 ^ 400', 'power does not give a finite number'],
    ['1e300 * 1e300', 'multiplication does not give a finite number'],
    ['round(2, 16)', 'round takes a whole number of digits from 0 to 15'],
  ])('%s fails with TOOL_FAILED: %s', (expression, message) => {
    expect(() => evaluateArithmetic(expression)).toThrow(
      expect.objectContaining({ code: ErrorCode.TOOL_FAILED, message }),
    );
  });

  it.each([
    ['', 'unexpected end of expression at character 1'],
    ['1 +', 'unexpected end of expression at character 4'],
    ['(1 + 2', 'expected ")", found end of expression at character 7'],
    ['1 + 2)', 'unexpected ")" at character 6'],
    ['1 2', 'unexpected number 2 at character 3'],
    ['2pi', 'unexpected "pi" at character 2'],
    ['2(3)', 'unexpected "(" at character 2'],
    ['1,200', 'unexpected "," at character 2'],
    ['foo(1)', 'unknown name "foo" at character 1'],
    ['sqrt 4', 'expected "(", found number 4 at character 6'],
    ['sqrt(1, 2)', 'sqrt takes 1 argument(s), got 2'],
    ['round(1, 2, 3)', 'round takes 1 to 2 arguments, got 3'],
    ['1 = 1', 'unexpected character "=" at character 3'],
    ['1e400', 'number 1e400 is too large at character 1'],
    ['alert(1)', 'unknown name "alert" at character 1'],
    ['constructor', 'unknown name "constructor" at character 1'],
    ['__proto__', 'unknown name "__proto__" at character 1'],
    ['1.', 'unexpected character "." at character 2'],
  ])('%j is INVALID_INPUT: %s', (expression, message) => {
    expect(() => evaluateArithmetic(expression)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_INPUT, message }),
    );
  });

  it('accepts 50 levels of nesting and refuses 51', () => {
    expect(evaluateArithmetic(`${'('.repeat(50)}1${')'.repeat(50)}`)).toBe(1);
    expect(() => evaluateArithmetic(`${'('.repeat(51)}1${')'.repeat(51)}`)).toThrow(
      expect.objectContaining({
        code: ErrorCode.INVALID_INPUT,
        message: 'expression nests deeper than 50 levels',
      }),
    );
    expect(() => evaluateArithmetic(`${'-'.repeat(60)}1`)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_INPUT }),
    );
  });

  it('refuses expressions longer than 500 characters', () => {
    const longest = `1${' + 1'.repeat(124)}`.padEnd(500, ' ');
    expect(longest).toHaveLength(500);
    expect(evaluateArithmetic(longest)).toBe(125);
    expect(() => evaluateArithmetic(`${longest} `)).toThrow(
      expect.objectContaining({
        code: ErrorCode.INVALID_INPUT,
        message: 'expression is longer than 500 characters',
      }),
    );
  });
});

describe('calcTool', () => {
  it('answers with the expression and its value', async () => {
    const result = await calcTool.run(
      { expression: ' 17.5 * 4 + 3 ' },
      { signal: new AbortController().signal },
    );
    expect(result).toEqual({
      output: '17.5 * 4 + 3 = 73',
      data: { expression: ' 17.5 * 4 + 3 ', value: 73 },
    });
  });

  it('validates the length in its input schema', () => {
    expect(calcTool.inputSchema.safeParse({ expression: '1'.repeat(501) }).success).toBe(false);
    expect(calcTool.inputSchema.safeParse({ expression: '' }).success).toBe(false);
    expect(calcTool.inputSchema.safeParse({ expression: '1+1' }).success).toBe(true);
  });
});

describe('extractArithmetic', () => {
  it.each([
    ['what is 17.5 * 4 + 3?', '17.5 * 4 + 3'],
    ['compute (120 - 20) / 4', '(120 - 20) / 4'],
    ['how much is 2^10', '2^10'],
    ['How much is 2**10?', '2**10'],
    ['what is 2^10-1?', '2^10-1'],
    ['What is 100-37?', '100-37'],
    ['What’s 100 - 37?', '100 - 37'],
    ['calculate -5 + 3', '-5 + 3'],
    ['what is sqrt(16)?', 'sqrt(16)'],
    ['what is max(1,200) + 1', 'max(1,200) + 1'],
    ['what is 1,200 * 3?', '1200 * 3'],
    ['what is 1,234,567 / 1,000?', '1234567 / 1000'],
    ['what is 5/0', '5/0'], // still arithmetic: calc explains the division by zero
    ['costs $17.5 * 4 in total', '17.5 * 4'],
    ['see (3 + 4) here', '(3 + 4)'],
    ['The answer (3 * 4) is here', '(3 * 4)'],
    ['For 2, 3 * 4', '3 * 4'],
    ['2 + 2 = 4, right?', '2 + 2'],
    ['what is 10 × 3?', '10 × 3'],
    ['what is pi * 2', 'pi * 2'],
    ['I have 3 apples; what is 4 * 5?', '4 * 5'],
  ])('%j → %j', (question, expression) => {
    expect(extractArithmetic(question)).toBe(expression);
    // Whatever is extracted must be something calc accepts as input.
    expect(calcTool.inputSchema.safeParse({ expression }).success).toBe(true);
  });

  it.each([
    ['what is Algorithm 3.2?'],
    ['POST /locations'],
    ['GET /v1/items/3'],
    ['what happened on 2024-01-05?'],
    ['what is 2024-01-05'],
    ['born 05/01/1990'],
    ['meeting on 12.05.2024 at 10:30'],
    ['42'],
    ['what is -5'],
    ['Release 1.2.3 notes'],
    ['x86-64 assembly'],
    ['COVID-19 cases'],
    ['a 3D model'],
    ['what is 0x7f + 1'],
    ['What is on pages 10-20?'],
    ['call 555-1234'],
    ['what is 10% of 50'],
    ['what is 1,5 + 2'], // a decimal comma or a list: ambiguous, so not guessed
    ['HTTP/1.1 and HTTP/2'],
    ['is e bigger'],
    ['the log of errors'],
    ['what is constructor + 1'],
    ['Is it 3.'],
    [''],
  ])('%j has no arithmetic', (question) => {
    expect(extractArithmetic(question)).toBeNull();
  });
});
