/**
 * checkEnv: the environment contract (types.ts) checked against any EnvDefinition, so a new
 * environment gets a contract and fuzz check for free (tests/unit/check-env.test.ts runs it
 * over the whole catalogue; scripts/fuzz.ts runs it long).
 *
 *   - reset is deterministic: the same task and seed give the same observation and score,
 *     and the same actions then give the same steps;
 *   - hostile and random action texts (fuzz-inputs.ts) never make step throw or reject;
 *   - every step is well formed: types, finite numbers, progress in [0, 1], terminated and
 *     truncated coherent, a known finish reason, JSON-safe info, score in the declared range;
 *   - the actions validActions offers are accepted;
 *   - dispose releases what reset took (no closable left without dispose, no handle left open);
 *   - every step is timed; steps over `maxStepMs` are listed as problems. A synchronous step
 *     counts the lesser of its wall and CPU time (Node), and one over the bound is timed twice
 *     more from the same state and counts at its fastest, so a pause or a busy machine is not
 *     taken for a slow parse.
 *
 * Works for synchronous and asynchronous environments (only a returned promise is awaited,
 * so synchronous steps are timed without a microtask).
 */
import { FINISH_REASONS, type EnvDefinition, type Step, type TaskInfo } from './types.ts';
import { FuzzStream, hostileCorpus, type FuzzInput } from './fuzz-inputs.ts';
import { Rng } from './rng.ts';

export interface CheckOptions {
  /** Action texts to try, the fixed corpus first (when `corpus` is on) then the seeded stream. Default 2000. */
  inputs?: number;
  /** Try the fixed hostile corpus (fuzz-inputs.ts) before the random stream. Default true. */
  corpus?: boolean;
  /** Tasks to play, in rotation (default: up to 6 spread over env.tasks()). */
  tasks?: readonly TaskInfo[];
  /** Seed of the first episode (episode k uses seed + k) and of the input stream. Default 1. */
  seed?: number;
  /** A synchronous step slower than this is a problem (default 100 ms: parse, rules and render of any reply up to 1 MB). */
  maxStepMs?: number;
  /**
   * The same for an asynchronous environment, whose step runs a command or query (default
   * 2500 ms: the engines stop a command or statement at 1.5–2 s).
   */
  maxAsyncStepMs?: number;
  /** Chance that the next action is one of validActions (to reach deeper states). Default 0.25. */
  walkRate?: number;
  /** Chance of a large (100 kB – 1 MB) input in the random stream (default 0.002). */
  bigRate?: number;
  /** Check at most this many states' validActions in full (each offered action stepped). Default 40. */
  validChecks?: number;
  /** Also seed near-misses with the oracle's action at each task's start. Default true. */
  oracleSeeds?: boolean;
  /**
   * Open resources (e.g. Node's process.getActiveResourcesInfo()); compared before reset and after
   * dispose. Default: Node's, when available.
   */
  resources?: () => readonly string[];
  /**
   * Cut every input to this many characters (the attack keeps its shape at a smaller size). For
   * an environment whose parse is known to be quadratic, so that a 1 MB input would take hours.
   */
  maxLength?: number;
  /** Keep every step's time in the report (for percentiles). */
  keepTimes?: boolean;
  /** Stop trying new inputs after this many ms (the report says how many were tried). */
  timeBudgetMs?: number;
}

export interface CheckReport {
  env: string;
  /** Action texts stepped (fuzz inputs and walk actions; determinism and valid-action checks not counted). */
  inputs: number;
  /** Of those inputs, how many the environment accepted (valid: true). */
  validSteps: number;
  /** Steps, resets, validActions or dispose calls that threw or rejected. */
  exceptions: number;
  episodes: number;
  slowest: { ms: number; input: string; kind: string };
  /** Length of the longest observation seen (an echoed reply shows here). */
  longestObservation: number;
  /** Each distinct problem once, with how often it happened. Empty = the contract holds. */
  problems: string[];
  /** Step times in ms, when `keepTimes` was set. */
  times?: number[];
}

/** How an input is shown in a report: JSON-quoted, non-ASCII escaped, cut to `max` characters, with its length. */
export function describeInput(text: string, max = 80): string {
  const shown = JSON.stringify(text.slice(0, max)).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > max ? `${shown.slice(0, max + 2)}… (${text.length} chars)` : shown;
}

/** An optional score range an environment may declare (not yet part of types.ts). */
type ScoreRange = readonly [number, number] | ((task: TaskInfo) => readonly [number, number]);

const KNOWN_REASONS = new Set<string>(FINISH_REASONS);
const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as { then?: unknown } | null)?.then === 'function';
const nextTick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The process's CPU time in ms (user + system), or null outside Node. */
function cpuMs(): number | null {
  const proc = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (!proc?.cpuUsage) return null;
  const { user, system } = proc.cpuUsage();
  return (user + system) / 1000;
}

function nodeResources(): (() => readonly string[]) | undefined {
  const proc = (globalThis as { process?: { getActiveResourcesInfo?: () => string[] } }).process;
  return proc?.getActiveResourcesInfo ? () => proc.getActiveResourcesInfo!() : undefined;
}

/** Values JSON keeps as they are: null, booleans, finite numbers, strings, arrays and plain objects of those. */
function jsonSafe(value: unknown, depth = 0): string | null {
  if (depth > 20) return 'nested deeper than 20 levels';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `non-finite number ${value}`;
  if (Array.isArray(value)) {
    for (const v of value) {
      const p = jsonSafe(v, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return `a ${proto?.constructor?.name ?? 'non-plain'} object`;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue; // JSON drops it, as intended for optional fields
      const p = jsonSafe(v, depth + 1);
      if (p) return `${k}: ${p}`;
    }
    return null;
  }
  return `a ${typeof value}`;
}

/** Objects in a state (own values, two levels deep) that hold something to release. */
function closables(state: unknown): string[] {
  const found: string[] = [];
  const visit = (v: unknown, path: string, depth: number) => {
    if (v === null || typeof v !== 'object' || depth > 2) return;
    const o = v as Record<string, unknown>;
    if (['dispose', 'close', 'terminate', 'destroy'].some((m) => typeof o[m] === 'function')) {
      found.push(path || '(state)');
      return;
    }
    if (Array.isArray(v) || ArrayBuffer.isView(v)) return;
    for (const [k, x] of Object.entries(o)) visit(x, path ? `${path}.${k}` : k, depth + 1);
  };
  visit(state, '', 0);
  return found;
}

/** Spread `n` tasks over the list (first and last included). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  if (n <= 1) return items.slice(0, Math.max(0, n));
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]);
}

export async function checkEnv(env: EnvDefinition, opts: CheckOptions = {}): Promise<CheckReport> {
  const total = opts.inputs ?? 2000;
  const seed = opts.seed ?? 1;
  const maxStepMs = env.asyncStep ? opts.maxAsyncStepMs ?? 2500 : opts.maxStepMs ?? 100;
  const walkRate = opts.walkRate ?? 0.25;
  const resources = opts.resources ?? nodeResources();
  const deadline = opts.timeBudgetMs === undefined ? Infinity : performance.now() + opts.timeBudgetMs;
  const declared = (env as { scoreRange?: ScoreRange }).scoreRange;

  const problems = new Map<string, { text: string; count: number }>();
  const problem = (key: string, text: string) => {
    const p = problems.get(key);
    if (p) p.count++;
    else problems.set(key, { text, count: 1 });
  };
  const report: CheckReport = {
    env: env.id,
    inputs: 0,
    validSteps: 0,
    exceptions: 0,
    episodes: 0,
    slowest: { ms: 0, input: '', kind: '' },
    longestObservation: 0,
    problems: [],
  };
  if (opts.keepTimes) report.times = [];
  const err = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200);

  let tasks: readonly TaskInfo[];
  try {
    tasks = opts.tasks ?? spread(env.tasks(), 6);
  } catch (e) {
    report.exceptions++;
    report.problems.push(`tasks() threw ${err(e)}`);
    return report;
  }
  if (tasks.length === 0) {
    report.problems.push('no tasks to play');
    return report;
  }

  const rangeOf = (task: TaskInfo): readonly [number, number] | null => {
    if (declared === undefined) return null;
    return typeof declared === 'function' ? declared(task) : declared;
  };

  async function reset(task: TaskInfo, s: number): Promise<{ state: unknown; observation: string; score: number } | null> {
    try {
      const r = env.reset(task, s);
      const init = isThenable(r) ? await r : r;
      if (typeof init?.observation !== 'string') problem('reset-obs', `reset(${task.id}) observation is not a string`);
      if (!Number.isFinite(init?.score)) problem('reset-score', `reset(${task.id}) score ${String(init?.score)} is not finite`);
      return init;
    } catch (e) {
      report.exceptions++;
      problem(`reset-threw:${err(e)}`, `reset(${task.id}, ${s}) threw ${err(e)}`);
      return null;
    }
  }

  function dispose(state: unknown, where: string) {
    if (!env.dispose) return;
    try {
      env.dispose(state);
    } catch (e) {
      report.exceptions++;
      problem(`dispose-threw:${err(e)}`, `dispose (${where}) threw ${err(e)}`);
    }
  }

  function validActions(state: unknown): string[] {
    try {
      const list = env.validActions(state);
      if (!Array.isArray(list) || list.some((a) => typeof a !== 'string')) {
        problem('valid-type', 'validActions did not return an array of strings');
        return [];
      }
      if (new Set(list).size !== list.length) problem('valid-dup', `validActions has duplicates: ${describeInput(list.join(' | '), 160)}`);
      return list;
    } catch (e) {
      report.exceptions++;
      problem(`valid-threw:${err(e)}`, `validActions threw ${err(e)}`);
      return [];
    }
  }

  /** One step, timed and checked. Null when it threw. */
  async function step(state: unknown, input: FuzzInput, task: TaskInfo, count: boolean): Promise<Step<unknown> | null> {
    const cpu = env.asyncStep ? null : cpuMs();
    const started = performance.now();
    let out: Step<unknown>;
    try {
      const r = env.step(state, input.text);
      out = isThenable(r) ? await r : r;
    } catch (e) {
      report.exceptions++;
      problem(`step-threw:${err(e)}`, `step threw ${err(e)} on ${input.kind} ${describeInput(input.text)}`);
      return null;
    }
    let ms = performance.now() - started;
    // A synchronous step's time is its wall time or, where smaller and known, its CPU time: on a
    // machine shared with other work the wall time also counts the turns the step waited.
    if (cpu !== null) ms = Math.min(ms, cpuMs()! - cpu);
    // A synchronous step over the bound is run again from the same state (its steps do not
    // change their state): a slow parse is slow every time, a garbage collection is not. Its
    // time is the fastest of three runs.
    for (let again = 0; again < 2 && ms > maxStepMs && !env.asyncStep; again++) ms = Math.min(ms, timeSync(state, input.text));
    if (count) {
      report.inputs++;
      if (out?.valid === true) report.validSteps++;
      report.times?.push(ms);
    }
    if (ms > report.slowest.ms) report.slowest = { ms, input: describeInput(input.text), kind: input.kind };
    if (ms > maxStepMs) problem(`slow:${input.kind}`, `step took ${ms.toFixed(0)} ms (> ${maxStepMs} ms) on ${input.kind} ${describeInput(input.text)}`);
    const bad = wellFormed(out, task);
    if (bad) problem(`form:${bad}`, `malformed step (${bad}) on ${input.kind} ${describeInput(input.text)}`);
    if (typeof out?.observation === 'string') report.longestObservation = Math.max(report.longestObservation, out.observation.length);
    return bad && (out === null || typeof out !== 'object') ? null : out;
  }

  /** The time of one more synchronous step, as above (its result is the one already checked; a throw is counted there). */
  function timeSync(state: unknown, text: string): number {
    const cpu = cpuMs();
    const started = performance.now();
    try {
      env.step(state, text);
    } catch {
      // already counted on the first run
    }
    const wall = performance.now() - started;
    return cpu === null ? wall : Math.min(wall, cpuMs()! - cpu);
  }

  function wellFormed(s: Step<unknown>, task: TaskInfo): string | null {
    if (s === null || typeof s !== 'object') return 'not an object';
    if (s.state === undefined) return 'no state';
    if (typeof s.observation !== 'string') return 'observation is not a string';
    for (const k of ['reward', 'score'] as const) if (typeof s[k] !== 'number' || !Number.isFinite(s[k])) return `${k} ${String(s[k])} is not a finite number`;
    if (s.progress !== undefined && !(typeof s.progress === 'number' && s.progress >= 0 && s.progress <= 1)) return `progress ${String(s.progress)} is not in [0, 1]`;
    for (const k of ['valid', 'terminated', 'truncated'] as const) if (typeof s[k] !== 'boolean') return `${k} is not a boolean`;
    if (s.terminated && s.truncated) return 'both terminated and truncated';
    if (s.finishReason !== undefined && !KNOWN_REASONS.has(s.finishReason)) return `unknown finishReason ${String(s.finishReason)}`;
    if (s.finishReason === 'Complete' && !s.terminated) return 'finishReason Complete without terminated';
    if (s.truncated && s.finishReason === undefined) return 'truncated without a finishReason (the machine sets truncated at the step limit itself)';
    if (s.info !== undefined) {
      const p = s.info === null || typeof s.info !== 'object' || Array.isArray(s.info) ? 'not an object' : jsonSafe(s.info);
      if (p) return `info is not JSON-safe (${p})`;
    }
    const range = rangeOf(task);
    if (range && !(s.score >= range[0] && s.score <= range[1])) return `score ${s.score} outside the declared range [${range[0]}, ${range[1]}]`;
    return null;
  }

  const ended = (s: Step<unknown>, t: number, limit: number) => s.terminated || s.truncated || s.finishReason !== undefined || t >= limit;

  // 1. Determinism: per task, two resets with one seed, then the same walk of offered actions on both.
  const seeds = new Map<string, string[]>();
  for (const task of tasks) {
    const before = resources?.();
    const a = await reset(task, seed);
    const b = await reset(task, seed);
    if (a && b) {
      if (a.observation !== b.observation || a.score !== b.score) {
        problem('reset-nondeterministic', `reset(${task.id}, ${seed}) twice gave different ${a.observation !== b.observation ? 'observations' : 'scores'}`);
      }
      const own: string[] = [];
      if (opts.oracleSeeds !== false && env.oracleAction) {
        try {
          const o = env.oracleAction(a.state, task);
          if (o !== null) own.push(o);
        } catch (e) {
          report.exceptions++;
          problem(`oracle-threw:${err(e)}`, `oracleAction threw ${err(e)}`);
        }
      }
      seeds.set(task.id, own);
      let sa = a.state;
      let sb = b.state;
      const limit = Math.min(5, env.maxSteps(task));
      for (let t = 1; t <= limit; t++) {
        const offered = validActions(sa);
        const text = offered.length > 0 ? offered[(t * 7) % offered.length] : own[0] ?? 'check valid actions';
        const input = { kind: 'determinism', text };
        const x = await step(sa, input, task, false);
        const y = await step(sb, input, task, false);
        if (!x || !y) break;
        if (x.observation !== y.observation || x.score !== y.score || x.valid !== y.valid || x.terminated !== y.terminated) {
          problem('step-nondeterministic', `${task.id} seed ${seed}: the same actions gave different steps at step ${t} (${describeInput(text)}): ${describeInput(x.observation, 60)} vs ${describeInput(y.observation, 60)}`);
          break;
        }
        sa = x.state;
        sb = y.state;
        if (ended(x, t, limit)) break;
      }
      const held = closables(a.state);
      if (held.length > 0 && !env.dispose) problem('no-dispose', `the state holds ${held.join(', ')} but the environment has no dispose`);
      dispose(sa, 'determinism');
      dispose(sb, 'determinism');
    }
    if (before && resources) {
      await nextTick();
      const after = resources();
      const left = leftOpen(before, after);
      if (left.length > 0) problem('leak', `after reset and dispose of ${task.id}, still open: ${left.join(', ')}`);
    }
    if (performance.now() > deadline) break;
  }

  // 2. The fuzz: the corpus, then the stream; a walk of offered actions mixed in to reach deeper states.
  // Built on first use from the first state's actions, then tried once across episodes.
  let corpusList: FuzzInput[] | null = opts.corpus === false ? [] : null;
  const stream = new FuzzStream(seed ^ 0x0f0f, { bigRate: opts.bigRate });
  // Walk choices have their own generator, so the corpus length does not shift them.
  const walk = Rng.fromSeed(seed ^ 0x7777);
  let corpusAt = 0;
  let validChecks = opts.validChecks ?? 40;
  let episode = 0;
  while (report.inputs < total && performance.now() < deadline) {
    const task = tasks[episode % tasks.length];
    const init = await reset(task, seed + episode);
    episode++;
    report.episodes++;
    if (!init) {
      if (episode > 3 && report.episodes === report.exceptions) break; // reset always fails: nothing more to learn
      continue;
    }
    let state = init.state;
    const limit = env.maxSteps(task);
    const own = seeds.get(task.id) ?? [];
    for (let t = 1; report.inputs < total && performance.now() < deadline; t++) {
      const offered = validActions(state);
      // Every offered action is accepted (in a sample of states; steps from the same state, so
      // environments whose state holds a live resource see them in sequence).
      if (validChecks > 0 && offered.length > 0) {
        validChecks--;
        await checkOffered(state, offered, task);
      }
      let input: FuzzInput;
      const pool = offered.length > 0 ? [...offered, ...own] : own;
      // With a small budget, half of it goes to a sample spread over the corpus.
      if (corpusList === null) {
        const all = hostileCorpus(pool.length > 0 ? pool : ['check valid actions']);
        corpusList = spread(all, Math.min(all.length, Math.ceil(total / 2)));
      }
      if (corpusAt < corpusList.length) input = corpusList[corpusAt++];
      else if (offered.length > 0 && walk.uniform() < walkRate) input = { kind: 'walk', text: offered[walk.below(offered.length)] };
      else input = stream.next(pool);
      if (opts.maxLength !== undefined && input.text.length > opts.maxLength) input = { kind: `${input.kind} (cut)`, text: input.text.slice(0, opts.maxLength) };
      const s = await step(state, input, task, true);
      if (!s) break; // threw: start a new episode (the state may be gone)
      state = s.state;
      if (ended(s, t, limit)) break;
    }
    dispose(state, 'fuzz');
  }
  if (report.inputs < total && performance.now() >= deadline) problem('budget', `time budget spent after ${report.inputs} of ${total} inputs`);

  report.problems = [...problems.values()].map((p) => (p.count > 1 ? `${p.text} [×${p.count}]` : p.text));
  return report;

  async function checkOffered(state: unknown, offered: readonly string[], task: TaskInfo) {
    let accepted = 0;
    const refused: string[] = [];
    for (const a of offered) {
      const s = await step(state, { kind: 'offered', text: a }, task, false);
      if (!s) continue;
      if (s.valid) accepted++;
      else refused.push(a);
    }
    // A game that offers its fixed action list may refuse one now (an illegal Hanoi move is
    // SmartPlay's invalid step); one that offers what can be done now must accept each.
    if (env.actionList === 'fixed') {
      if (accepted === 0) problem('offered-none', `${task.id}: none of the offered actions is accepted (${describeInput(offered.join(' | '), 160)})`);
    } else if (refused.length > 0) {
      problem(`offered-refused`, `${task.id}: offered action${refused.length > 1 ? 's' : ''} refused (valid: false): ${describeInput(refused.join(' | '), 160)}`);
    }
  }
}

/** Resource types whose count grew between two snapshots. */
function leftOpen(before: readonly string[], after: readonly string[]): string[] {
  const count = (xs: readonly string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
  const b = count(before);
  const out: string[] = [];
  for (const [k, n] of count(after)) if (n > (b.get(k) ?? 0)) out.push(`${k} ×${n - (b.get(k) ?? 0)}`);
  return out;
}
