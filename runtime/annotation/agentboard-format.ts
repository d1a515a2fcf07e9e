/**
 * AgentBoard's test.jsonl row format (envs/babyai/README.md and envs/pddl/README.md, Upstream), both ways, so a
 * set written here can be used by AgentBoard itself and AgentBoard's sets load here.
 *
 * Row: {"id", "task", "goal", "subgoals": [...], ["subgoals_1": [...], …], "difficulty",
 * "additional_info": {…}}. AgentBoard reads one list when the row has no "subgoals_1",
 * else every key containing "subgoals", in row order, as alternative lists
 * (tasks/babyai.py load_annotation). The environment's annotation part says what its subgoal
 * texts are (envs/core/annotation.ts `subgoalText`): observation patterns, or goal literal
 * texts, which here become the `goal-literal` state predicate with `match` crediting (the
 * environment answers whether the literal holds).
 *
 * Lines are written the way Python's json.dumps writes them (", " and ": " separators,
 * non-ASCII as \uXXXX), so exporting an imported row gives back the same bytes.
 *
 * A set written here by an annotator carries who wrote which version in one extra field,
 * `agentplay` (last in the row; AgentBoard reads only the keys containing "subgoals", so it
 * ignores it). Reading it back restores the set as it was (author, version, labels, …), so
 * export → import → export is byte-identical. AgentBoard's own sets are written without it.
 */
import * as v from 'valibot';
import type { LeafMatcher, Matcher, SubgoalSet } from './schema.ts';
import { CreditingSchema, parseSubgoalSet } from './schema.ts';
import { GOAL_LITERAL, type SubgoalText } from '../../envs/core/annotation.ts';

export { GOAL_LITERAL };

/** Author of AgentBoard's own sets (built in as version 1, and rows read without `agentplay`). */
export const AGENTBOARD_AUTHOR = 'agentboard';

/** The row field holding a set's authorship; its name must not contain "subgoals" (AgentBoard would read it as a list). */
export const AUTHORSHIP_KEY = 'agentplay';

const Version = v.pipe(v.number(), v.integer(), v.minValue(1));
/** What `agentplay` holds: everything of the set that AgentBoard's row has no place for. */
const AuthorshipSchema = v.object({
  task: v.pipe(v.string(), v.minLength(1)),
  author: v.pipe(v.string(), v.minLength(1)),
  version: Version,
  parent_version: v.nullable(Version),
  created_at: v.string(),
  crediting: CreditingSchema,
  labels: v.array(v.string()),
  title: v.optional(v.string()),
});
type Authorship = v.InferOutput<typeof AuthorshipSchema>;

function authorshipOf(set: SubgoalSet): Authorship {
  return {
    task: set.task,
    author: set.author,
    version: set.version,
    parent_version: set.parentVersion,
    created_at: set.createdAt,
    crediting: set.crediting,
    labels: set.subgoals.map((s) => s.label),
    ...(set.title !== undefined ? { title: set.title } : {}),
  };
}

/**
 * AgentBoard's `id` for one of our tasks: the number of catalogue ids like "babyai-12" (the
 * row AgentBoard numbers so), else the task id itself.
 */
export function problemIdOf(env: string, task: string): number | string {
  const rest = task.startsWith(`${env}-`) ? task.slice(env.length + 1) : '';
  return /^\d+$/.test(rest) ? Number(rest) : task;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Python's json.dumps(value) with default arguments. */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return String(value);
  }
  if (typeof value === 'string') {
    // JSON.stringify escapes quotes, backslashes and control characters as Python does;
    // Python's ensure_ascii also escapes everything beyond ASCII (as UTF-16 units).
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => (c === '\u007f' ? c : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')));
  }
  if (Array.isArray(value)) return '[' + value.map(pyJsonDumps).join(', ') + ']';
  const entries = Object.entries(value as Record<string, unknown>);
  return '{' + entries.map(([k, v]) => pyJsonDumps(k) + ': ' + pyJsonDumps(v)).join(', ') + '}';
}

/** The row's subgoal-list keys as AgentBoard reads them. */
export function subgoalKeys(row: Record<string, unknown>): string[] {
  if (!('subgoals_1' in row)) return 'subgoals' in row ? ['subgoals'] : [];
  return Object.keys(row).filter((k) => k.includes('subgoals'));
}

export interface FromRowOptions {
  /** What the row's subgoal texts are: the annotation part of the row's environment says (EnvAnnotation.subgoalText). */
  subgoalText: SubgoalText;
  /** Task id for the row (default `${row.task}-${row.id}`, the catalogue's ids for BabyAI and PDDL). */
  taskId?: (row: Record<string, unknown>) => string;
  author?: string;
  version?: number;
  parentVersion?: number | null;
  createdAt?: string;
}

export type RowResult<T> = { ok: true; value: T } | { ok: false; message: string };

function leafFor(kind: SubgoalText, text: string): LeafMatcher {
  return kind === 'literal' ? { kind: 'predicate', name: GOAL_LITERAL, params: { text } } : { kind: 'pattern', pattern: text };
}

/** One test.jsonl row as a subgoal set. */
export function setFromAgentBoardRow(row: Record<string, unknown>, o: FromRowOptions): RowResult<SubgoalSet> {
  const env = typeof row.task === 'string' ? row.task : '';
  if (!env) return { ok: false, message: 'the row has no "task"' };
  const keys = subgoalKeys(row);
  if (keys.length === 0) return { ok: false, message: 'the row has no "subgoals"' };
  const lists = keys.map((k) => row[k]);
  if (!lists.every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'))) {
    return { ok: false, message: `${keys.join(', ')}: expected lists of strings` };
  }
  const texts = lists as string[][];
  if (texts.some((l) => l.length !== texts[0].length)) {
    return { ok: false, message: `the alternative lists ${keys.join(', ')} differ in length (AgentBoard indexes them together)` };
  }
  const kind = o.subgoalText;
  let own: Authorship | null = null;
  if (AUTHORSHIP_KEY in row) {
    const a = v.safeParse(AuthorshipSchema, row[AUTHORSHIP_KEY]);
    if (!a.success) return { ok: false, message: `"${AUTHORSHIP_KEY}": ${a.issues[0].message}` };
    own = a.output;
    if (own.labels.length !== texts[0].length) return { ok: false, message: `"${AUTHORSHIP_KEY}" names ${own.labels.length} labels for ${texts[0].length} subgoals` };
  }
  const subgoals = texts[0].map((first, i) => {
    const matcher: Matcher = texts.length === 1 ? leafFor(kind, first) : { kind: 'any', of: texts.map((l) => leafFor(kind, l[i])) };
    return { label: own ? own.labels[i] : first.trim(), matcher };
  });
  // Every field in row order but the authorship; the list keys hold null (the lists live in `subgoals`) to keep their place.
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (k !== AUTHORSHIP_KEY) fields[k] = keys.includes(k) ? null : v;
  const parsed = parseSubgoalSet({
    format: 1,
    env,
    task: own ? own.task : o.taskId ? o.taskId(row) : `${env}-${String(row.id)}`,
    author: own ? own.author : (o.author ?? AGENTBOARD_AUTHOR),
    version: own ? own.version : (o.version ?? 1),
    parentVersion: own ? own.parent_version : (o.parentVersion ?? null),
    createdAt: own ? own.created_at : (o.createdAt ?? new Date().toISOString()),
    ...(own?.title !== undefined ? { title: own.title } : {}),
    crediting: own ? own.crediting : kind === 'literal' ? 'match' : 'subgoal',
    subgoals,
    agentboard: { fields },
  });
  return parsed.ok ? parsed : { ok: false, message: parsed.message };
}

function leafText(m: LeafMatcher): string | null {
  if (m.kind === 'pattern') return m.pattern;
  if (m.kind === 'predicate' && m.name === GOAL_LITERAL && typeof m.params.text === 'string') return m.params.text;
  return null;
}

/** The set's subgoals as AgentBoard's lists, or why they cannot be (regexes and most predicates have no AgentBoard form). */
export function agentboardLists(set: SubgoalSet): RowResult<string[][]> {
  const width = Math.max(1, ...set.subgoals.map((s) => (s.matcher.kind === 'any' ? s.matcher.of.length : 1)));
  const lists: string[][] = Array.from({ length: width }, () => []);
  for (const [i, s] of set.subgoals.entries()) {
    const leaves = s.matcher.kind === 'any' ? s.matcher.of : [s.matcher];
    if (leaves.length !== width && width > 1) {
      return { ok: false, message: `subgoal ${i + 1} has ${leaves.length} alternatives; AgentBoard needs the same number (${width}) for every subgoal` };
    }
    for (const [j, leaf] of leaves.entries()) {
      const text = leafText(leaf);
      if (text === null) return { ok: false, message: `subgoal ${i + 1} ("${s.label}"): a ${leaf.kind} matcher has no AgentBoard form` };
      lists[j].push(text);
    }
  }
  return { ok: true, value: lists };
}

/** Fields for a set that did not come from a row (its id, goal and difficulty are the caller's). */
export interface RowDefaults {
  id?: number | string;
  goal?: string;
  difficulty?: string;
  additional_info?: unknown;
}

/** The set as one test.jsonl row (an object in AgentBoard's key order). */
export function agentboardRow(set: SubgoalSet, defaults: RowDefaults = {}): RowResult<Record<string, unknown>> {
  const lists = agentboardLists(set);
  if (!lists.ok) return lists;
  const named = lists.value.map((l, j) => [j === 0 ? 'subgoals' : `subgoals_${j}`, l] as const);
  const fields =
    set.agentboard?.fields ??
    Object.fromEntries(
      Object.entries({ id: defaults.id, task: set.env, goal: defaults.goal, subgoals: null, difficulty: defaults.difficulty, additional_info: defaults.additional_info }).filter(
        ([, v]) => v !== undefined,
      ),
    );
  const row: Record<string, unknown> = {};
  let placed = false;
  for (const [k, v] of Object.entries(fields)) {
    if (v === null && (k === 'subgoals' || /^subgoals_\d+$/.test(k))) {
      if (!placed) for (const [name, l] of named) row[name] = l;
      placed = true;
    } else row[k] = v;
  }
  if (!placed) for (const [name, l] of named) row[name] = l;
  if (set.author !== AGENTBOARD_AUTHOR) row[AUTHORSHIP_KEY] = authorshipOf(set);
  return { ok: true, value: row };
}

/** test.jsonl text for many sets (one line each, newline-terminated), or the first set that cannot be written. */
export function agentboardJsonl(sets: readonly SubgoalSet[], defaults: (set: SubgoalSet) => RowDefaults = () => ({})): RowResult<string> {
  let out = '';
  for (const set of sets) {
    const row = agentboardRow(set, defaults(set));
    if (!row.ok) return { ok: false, message: `${set.env}/${set.task}: ${row.message}` };
    out += pyJsonDumps(row.value) + '\n';
  }
  return { ok: true, value: out };
}

/** Sets from test.jsonl text: all lines or none; the message names the first bad line. */
export function setsFromAgentBoardJsonl(text: string, o: FromRowOptions): RowResult<SubgoalSet[]> {
  const sets: SubgoalSet[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    if (lines[n].trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(lines[n]);
    } catch {
      return { ok: false, message: `line ${n + 1}: not JSON` };
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return { ok: false, message: `line ${n + 1}: not a JSON object` };
    const r = setFromAgentBoardRow(row as Record<string, unknown>, o);
    if (!r.ok) return { ok: false, message: `line ${n + 1}: ${r.message}` };
    sets.push(r.value);
  }
  return { ok: true, value: sets };
}

export interface ImportPlan {
  /** Sets to store: rows that carry their authorship as written, anonymous rows of this task as new versions. */
  store: SubgoalSet[];
  /** Anonymous rows equal to the task's built-in set: AgentBoard's own, already there, never stored as someone's version. */
  builtin: number;
  /** Anonymous rows of other tasks (their version numbers would be guesses: import them on their own task's page). */
  otherTasks: number;
}

const sameSubgoals = (a: SubgoalSet, b: SubgoalSet) => JSON.stringify(a.subgoals.map((s) => s.matcher)) === JSON.stringify(b.subgoals.map((s) => s.matcher));

/**
 * What importing rows (setsFromAgentBoardJsonl, read without an author) on the page of
 * `env`/`task` does. A row with `agentplay` is stored as the set it was (its author and version);
 * an anonymous row equal to AgentBoard's own set of the task is that set (nothing stored); any
 * other anonymous row of this task becomes a new version by `author`.
 */
export function planAgentBoardImport(
  sets: readonly SubgoalSet[],
  o: { env: string; task: string; builtin: SubgoalSet | null; author: string; nextVersion: number; createdAt?: string },
): ImportPlan {
  const plan: ImportPlan = { store: [], builtin: 0, otherTasks: 0 };
  let next = o.nextVersion;
  for (const s of sets) {
    const anonymous = s.author === AGENTBOARD_AUTHOR;
    if (!anonymous) plan.store.push(s);
    else if (s.env !== o.env || s.task !== o.task) plan.otherTasks++;
    else if (o.builtin && sameSubgoals(s, o.builtin)) plan.builtin++;
    else {
      plan.store.push({ ...s, author: o.author, version: next++, parentVersion: o.builtin?.version ?? null, createdAt: o.createdAt ?? s.createdAt });
    }
  }
  return plan;
}
