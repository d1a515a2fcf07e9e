/**
 * Every task form AgentBench's OS loader accepts (README.md, Upstream), turned into what the
 * environment runs: a script is a string, `{code}` or `{file}` with `language` bash (default)
 * or python; `create` is an object (`local`/`image`, `init` as a script or a list), or a list
 * (a dev-set quirk: ignored); `start` is a script; `evaluation` has `match` (a string or an
 * object) or `check` (a list, null = the example's output, or one script) with `example`.
 *
 * Python scripts become `python3 -c CODE "$@"` (the embedded shell's python3 runs the subset in
 * pyexpr.ts); upstream's python check files are matched by name and run as TypeScript
 * (checks.ts). The same code loads the built-in sets and imported files: a form that cannot run
 * is a TaskProblem naming the task, the field and why; imported files are refused with it, and
 * built-in tasks carry it in their note (runnable: false).
 */
import type { CheckEntry, CheckKind } from './checks.ts';
import { shellQuote } from './checks.ts';

export type ResolveFile = (path: string) => string | undefined;

/** A script as bash source, as a function of the episode seed (our seeded replacements use it). */
export type Script = (seed: number) => string;

export type Evaluation =
  | { kind: 'match'; answer?: string; regex?: string; strip: boolean }
  | { kind: 'check'; entries: CheckEntry[]; example: string | null };

/** A form that cannot be used, with where it is. */
export class TaskProblem extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'TaskProblem';
  }
}

/** upstream's python check scripts, by file name. */
export const PYTHON_CHECKS: Record<string, Exclude<CheckKind, 'calc'>> = {
  'integer-match.py': 'integer-match',
  'string-match.py': 'string-match',
  'size-match.py': 'size-match',
  'containing.py': 'containing',
  'in.py': 'in',
};

/** Images the embedded shell provides (upstream's `local-os/<name>`). */
export const IMAGES = new Set(['default', 'packages']);

export interface LoadOptions {
  /** Reads a file named by the task, relative to its folder (already confined). */
  resolveFile?: ResolveFile;
  /** Our replacements for files that are not shipped (dev set), used when resolveFile has none. */
  replacements?: Record<string, Script>;
  /** Check files that run as a TypeScript check when not shipped (dev `check/0.sh` → calc). */
  namedChecks?: Record<string, CheckKind>;
}

export interface LoadedTask {
  description: string;
  labels: string[];
  /** The image named by create.local / create.image ('default' when none). */
  image: string;
  init: Script[];
  start: string | null;
  evaluation: Evaluation;
  /** evaluation.example (a top-level `example`, as two group-6 test tasks have, is ignored as upstream does). */
  example: string | null;
  /** Files read, for the note. */
  files: string[];
  /** Python scripts that run in the embedded python subset (may not all run). */
  python: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const describeValue = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `${typeof v}${v === undefined ? '' : ` ${String(JSON.stringify(v)).slice(0, 60)}`}`;

/**
 * A `file` path normalised inside the task file's folder ("a/./b" → "a/b"), or null when it
 * could reach anything else: absolute paths (/x, \\x, C:x, ~), a ".." that climbs out, NUL.
 * Checked before any reader is asked, so nothing outside is ever read (and no content is shown).
 */
export function confinedPath(path: string): string | null {
  if (path.includes('\u0000') || /^([\\/~]|[A-Za-z]:)/.test(path)) return null;
  const parts: string[] = [];
  for (const part of path.split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length ? parts.join('/') : null;
}

const LANGUAGES: Record<string, 'bash' | 'python'> = { bash: 'bash', sh: 'bash', shell: 'bash', python: 'python', python3: 'python' };

/** Bash source that runs python code with the script's arguments. */
export const pythonAsBash = (code: string) => `python3 -c ${shellQuote(code)} "$@"`;

class Loader {
  readonly files: string[] = [];
  readonly python: string[] = [];
  constructor(private readonly options: LoadOptions) {}

  language(value: Record<string, unknown>, field: string): 'bash' | 'python' {
    if (value.language === undefined || value.language === null) return 'bash';
    const lang = typeof value.language === 'string' ? LANGUAGES[value.language.toLowerCase()] : undefined;
    if (!lang) {
      const why = value.language === 'c' || value.language === 'c++' ? 'this shell has no C or C++ compiler' : 'only bash and python scripts can run';
      throw new TaskProblem(`language ${JSON.stringify(value.language)} cannot run here: ${why}`, field);
    }
    return lang;
  }

  path(value: unknown, field: string): string {
    if (typeof value !== 'string' || value === '') throw new TaskProblem(`"file" must be a path, not ${describeValue(value)}`, field);
    const path = confinedPath(value);
    if (path === null) {
      throw new TaskProblem(
        `file ${JSON.stringify(value.slice(0, 200))} is refused: a task file may only name files in its own folder or below it (a relative path without "..", not an absolute one)`,
        field,
      );
    }
    return path;
  }

  read(path: string, field: string): Script {
    const text = this.options.resolveFile?.(path);
    if (text !== undefined) {
      this.files.push(path);
      return () => text;
    }
    const replacement = this.options.replacements?.[path];
    if (replacement) {
      this.files.push(`${path} (built-in replacement)`);
      return replacement;
    }
    throw new TaskProblem(
      this.options.resolveFile ? `file "${path}" was not found (paths are relative to the task file)` : `file "${path}" cannot be read (no file reader was given; use "code" instead)`,
      field,
    );
  }

  /** A script (string, {code} or {file}) as bash source. */
  script(value: unknown, field: string): Script {
    if (typeof value === 'string') return () => value;
    if (!isObject(value)) throw new TaskProblem(`a script must be a string, {"code": ...} or {"file": ...}, not ${describeValue(value)}`, field);
    const language = this.language(value, field);
    if (value.code !== undefined && value.file !== undefined) throw new TaskProblem('a script has either "code" or "file", not both', field);
    let source: Script;
    if (value.code !== undefined) {
      if (typeof value.code !== 'string') throw new TaskProblem(`"code" must be a string, not ${describeValue(value.code)}`, field);
      const code = value.code;
      source = () => code;
    } else if (value.file !== undefined) source = this.read(this.path(value.file, field), field);
    else throw new TaskProblem('a script object needs "code" or "file"', field);
    if (language === 'bash') return source;
    this.python.push(field);
    return (seed) => pythonAsBash(source(seed));
  }

  checkEntry(value: unknown, field: string): CheckEntry {
    if (value === null) return { kind: 'example' };
    if (isObject(value) && value.file !== undefined) {
      const path = this.path(value.file, field);
      const name = path.slice(path.lastIndexOf('/') + 1);
      const isPython = this.language(value, field) === 'python' || name.endsWith('.py');
      if (isPython && PYTHON_CHECKS[name]) return { kind: PYTHON_CHECKS[name] };
      const named = this.options.namedChecks?.[path];
      if (named && this.options.resolveFile?.(path) === undefined) return { kind: named };
    }
    return { kind: 'script', code: this.script(value, field)(0), source: field };
  }

  evaluation(value: unknown): { evaluation: Evaluation; example: string | null } {
    const field = 'evaluation';
    if (!isObject(value)) throw new TaskProblem(`"evaluation" must be an object with "match" or "check", not ${describeValue(value)}`, field);
    const hasMatch = value.match !== undefined && value.match !== null;
    const hasCheck = value.check !== undefined;
    if (hasMatch && hasCheck) throw new TaskProblem('has both "match" and "check"; give one', field);
    const example = value.example === undefined || value.example === null ? null : this.script(value.example, 'evaluation.example')(0);
    if (hasMatch) {
      const m = value.match;
      if (typeof m === 'string') return { evaluation: { kind: 'match', answer: m, strip: true }, example };
      if (!isObject(m)) throw new TaskProblem(`"match" must be a string or {"answer"|"regex", "strip"}, not ${describeValue(m)}`, 'evaluation.match');
      if (m.answer !== undefined && typeof m.answer !== 'string') throw new TaskProblem(`must be a string, not ${describeValue(m.answer)}`, 'evaluation.match.answer');
      if (m.regex !== undefined) {
        if (typeof m.regex !== 'string') throw new TaskProblem(`must be a string, not ${describeValue(m.regex)}`, 'evaluation.match.regex');
        try {
          new RegExp(m.regex);
        } catch (err) {
          throw new TaskProblem(`not a valid regular expression: ${(err as Error).message}`, 'evaluation.match.regex');
        }
      }
      if (m.answer === undefined && m.regex === undefined) throw new TaskProblem('needs "answer" or "regex"', 'evaluation.match');
      if (m.strip !== undefined && typeof m.strip !== 'boolean') throw new TaskProblem(`must be true or false, not ${describeValue(m.strip)}`, 'evaluation.match.strip');
      return {
        evaluation: { kind: 'match', answer: m.answer as string | undefined, regex: m.regex as string | undefined, strip: (m.strip as boolean | undefined) ?? false },
        example,
      };
    }
    if (!hasCheck) throw new TaskProblem('needs "match" (the expected answer) or "check" (a check list)', field);
    const single = !Array.isArray(value.check);
    const list = single ? [value.check] : (value.check as unknown[]);
    if (list.length === 0) throw new TaskProblem('the check list is empty', 'evaluation.check');
    const entries = list.map((e, i) => this.checkEntry(e, single ? 'evaluation.check' : `evaluation.check[${i}]`));
    if (example === null && entries.some((e) => e.kind === 'example')) {
      throw new TaskProblem('"example" is required: a null check entry compares with the output of the example script', 'evaluation.example');
    }
    return { evaluation: { kind: 'check', entries, example }, example };
  }
}

/** Load one task object. Throws TaskProblem (with the field) for a form that cannot run. */
export function loadTask(raw: unknown, options: LoadOptions = {}): LoadedTask {
  const loader = new Loader(options);
  if (!isObject(raw)) throw new TaskProblem(`a task must be an object, not ${describeValue(raw)}`);
  if (typeof raw.description !== 'string' || raw.description.trim() === '') {
    throw new TaskProblem(raw.description === undefined ? 'is missing' : `must be a non-empty string, not ${describeValue(raw.description)}`, 'description');
  }
  let labels: string[] = [];
  if (raw.labels !== undefined) {
    if (!Array.isArray(raw.labels) || raw.labels.some((l) => typeof l !== 'string')) throw new TaskProblem('must be a list of strings', 'labels');
    labels = raw.labels as string[];
  }
  let init: Script[] = [];
  let image = 'default';
  const create = raw.create;
  // Quirk kept from the dev set (task 10): a `create` that is a list is ignored (default image, no init).
  if (create !== undefined && create !== null && !Array.isArray(create)) {
    if (!isObject(create)) throw new TaskProblem(`must be an object {"local"|"image", "init"}, not ${describeValue(create)}`, 'create');
    for (const key of ['local', 'image'] as const) {
      const name = create[key];
      if (name === undefined || name === null) continue;
      if (typeof name !== 'string') throw new TaskProblem(`must be a string, not ${describeValue(name)}`, `create.${key}`);
      const short = name.replace(/^local-os\//, '');
      if (!IMAGES.has(short)) throw new TaskProblem(`image ${JSON.stringify(name)} cannot be provided here (this shell has: ${[...IMAGES].join(', ')})`, `create.${key}`);
      image = short;
    }
    const initRaw = create.init;
    if (initRaw !== undefined && initRaw !== null) {
      init = Array.isArray(initRaw)
        ? initRaw.map((s, i) => (s === null ? null : loader.script(s, `create.init[${i}]`))).filter((s): s is Script => s !== null)
        : [loader.script(initRaw, 'create.init')];
    }
  }
  const start = raw.start === undefined || raw.start === null ? null : loader.script(raw.start, 'start')(0);
  const { evaluation, example } = loader.evaluation(raw.evaluation);
  return {
    description: raw.description,
    labels,
    image,
    init,
    start,
    evaluation,
    example,
    files: loader.files,
    python: loader.python,
  };
}
