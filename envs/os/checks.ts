/**
 * AgentBench OS answer checking (README.md, Upstream), in TypeScript. A check pipeline starts with
 * params = [answer]; each entry runs with the params as its arguments and, when it succeeds,
 * appends its output to them; a null entry runs the task's example script (the live ground
 * truth). Any failing entry fails the task. Upstream's python check scripts become the
 * functions below; shell scripts (the example, bash check scripts, python code as `python3 -c`)
 * run in the shell after the episode.
 */
import { PyError, evaluate, newEnv, pyStr } from './pyexpr.ts';
import { pyStrip } from './protocol.ts';
import type { Shell } from './shell.ts';

export type CheckKind = 'integer-match' | 'string-match' | 'size-match' | 'containing' | 'in' | 'calc';

/**
 * One entry of a check list: the example script (null upstream), a named check (upstream's
 * python check files, run as TypeScript), or a script run in the shell with the params as its
 * arguments (`source` says which field it came from).
 */
export type CheckEntry = { kind: 'example' } | { kind: CheckKind } | { kind: 'script'; code: string; source: string };

const normNewlines = (s: string) => s.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
/** Python's str.strip(): two index scans (a `\s+$` pattern is quadratic on long runs of spaces). */
const strip = pyStrip;

/** Python's int(str): optional sign, digits with single underscores between them, surrounding whitespace. */
export function pythonInt(text: string): bigint | null {
  const m = /^([+-]?)(\d+(?:_\d+)*)$/.exec(pyStrip(text));
  if (!m) return null;
  const value = BigInt(m[2].replace(/_/g, ''));
  return m[1] === '-' ? -value : value;
}

export function integerMatch(a: string, b: string): boolean {
  const x = pythonInt(a);
  const y = pythonInt(b);
  return x !== null && y !== null && x === y;
}

export function stringMatch(a: string, b: string): boolean {
  return strip(normNewlines(a)) === strip(normNewlines(b));
}

/** `b` (the expected text) is contained in the answer. */
export function containing(a: string, b: string): boolean {
  return strip(normNewlines(a)).includes(strip(normNewlines(b)));
}

/** The answer is contained in `b`. */
export function within(a: string, b: string): boolean {
  return strip(normNewlines(b)).includes(strip(normNewlines(a)));
}

/** Size units in upstream's dictionary order; the first suffix the text ends with wins. */
const SIZE_UNITS: readonly [string, bigint][] = [
  ['B', 1n],
  ['Byte', 1n],
  ['K', 1024n],
  ['KB', 1024n],
  ['M', 1024n ** 2n],
  ['MB', 1024n ** 2n],
  ['G', 1024n ** 3n],
  ['GB', 1024n ** 3n],
  ['T', 1024n ** 4n],
  ['TB', 1024n ** 4n],
  ['P', 1024n ** 5n],
  ['PB', 1024n ** 5n],
];

/**
 * Upstream's size parser: strip, take the first unit the text ends with and require an integer
 * before it. Quirks kept: "8.0K" and "12KB" (ends with "B" first, "12K" is no integer) fail.
 */
export function parseSize(text: string): bigint | null {
  const s = strip(text);
  for (const [unit, factor] of SIZE_UNITS) {
    if (s.endsWith(unit)) {
      const n = pythonInt(s.slice(0, -unit.length));
      return n === null ? null : n * factor;
    }
  }
  return pythonInt(s);
}

export function sizeMatch(a: string, b: string): boolean {
  const x = parseSize(a);
  if (x === null) return false;
  const y = parseSize(b);
  return y !== null && x === y;
}

/** The expressions dev check/0.sh feeds to `calc` (tasks 3 and 5). */
export const CALC_EXPRESSIONS: readonly string[] = [
  '15 + (27 * 4) - 10',
  '8 * (14 - 6) + 12',
  '3 + (6.7 * 9) - 5.5',
  '20 / (5 + 2) - 1',
  '9 * (16 / 8) + 3',
  '25 - (8 * 3) + 2',
  '14 + (25.6 / 2) - 5.2',
  '18 / (6 - 2) + 9',
  '17 + (18.2 / 2) - 2.8',
  '36 / (6 - 3) + 10',
  '5 + (10 * 4) - 8',
  '50 / (5 + 2) - 6',
  '8 * (16 / 4) + 9',
  '21 - (9 * 2) + 4',
];

/** Single-quote a word for the shell. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * check/0.sh: for each expression, `calc "<expr>"` runs in a fresh non-interactive shell, and
 * Python evaluates `abs(<its output> - <"%.6f" of the expression>) < 1e-5` with the output pasted
 * into the code, so a non-numeric output is a syntax error, i.e. a failure.
 */
export async function calcCheck(shell: Shell, signal?: AbortSignal): Promise<boolean> {
  for (const expression of CALC_EXPRESSIONS) {
    const expected = (evaluate(`"%.6f" % (${expression})`) as { v: string }).v;
    const result = await shell.run(`calc ${shellQuote(expression)}`, [], { signal });
    // $(...) drops trailing newlines; the rest is pasted into the python source as is.
    const output = result.output.replace(/\n+$/, '');
    try {
      const verdict = evaluate(`abs(${output} - ${expected})<1e-5`, newEnv());
      if (pyStr(verdict) !== 'True') return false;
    } catch (err) {
      if (err instanceof PyError) return false;
      throw err;
    }
  }
  return true;
}

export function runNamedCheck(kind: Exclude<CheckKind, 'calc'>, params: readonly string[]): boolean {
  const [a = '', b = ''] = params;
  if (params.length < 2) return false; // upstream: IndexError on argv[2] → non-zero exit
  switch (kind) {
    case 'integer-match':
      return integerMatch(a, b);
    case 'string-match':
      return stringMatch(a, b);
    case 'size-match':
      return sizeMatch(a, b);
    case 'containing':
      return containing(a, b);
    case 'in':
      return within(a, b);
  }
}

/** Time limit for one example or check script after the episode (longer than an interactive command's). */
export const CHECK_TIMEOUT_MS = 10_000;

export interface CheckOutcome {
  success: boolean;
  /** The params at the end (answer, then each entry's output). */
  params: string[];
}

/** Run a task's check list against an answer (`null` answers count as the text "None", as str(None)). */
export async function runChecks(
  shell: Shell,
  entries: readonly CheckEntry[],
  example: string | null,
  answer: string | null,
  signal?: AbortSignal,
): Promise<CheckOutcome> {
  const params = [answer === null ? 'None' : answer];
  for (const entry of entries) {
    if (entry.kind === 'example') {
      if (example === null) return { success: false, params };
      const result = await shell.run(example, params, { signal, timeoutMs: CHECK_TIMEOUT_MS });
      if (result.exitCode !== 0) return { success: false, params };
      params.push(result.output);
    } else if (entry.kind === 'script') {
      // Upstream: `bash -c CODE -- params...`; a non-zero exit fails, else the output is appended.
      const result = await shell.run(entry.code, params, { signal, timeoutMs: CHECK_TIMEOUT_MS });
      if (result.exitCode !== 0 || result.timedOut) return { success: false, params };
      params.push(result.output);
    } else if (entry.kind === 'calc') {
      if (!(await calcCheck(shell, signal))) return { success: false, params };
      params.push('');
    } else {
      if (!runNamedCheck(entry.kind, params)) return { success: false, params };
      params.push('');
    }
  }
  return { success: true, params };
}
