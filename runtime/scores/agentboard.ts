/**
 * AgentBoard's scores (README.md, Upstream; the paper's Table 3), in percent, per task set:
 * progress rate (the progress at the last step, averaged), success rate, grounding accuracy
 * (valid steps / steps, averaged; a "check …" help action counts as valid, as AgentBoard's
 * environments report it), the easy/hard splits of progress and success, and the
 * progress-versus-step curve (AgentBoard's score_change_record carried forward to the
 * longest episode). The average is the plain mean over the paper's task sets present, as
 * Table 3's Avg. column is over its nine tasks. Intervals are stratified by task set and,
 * within a set, by difficulty.
 */
import { problemMetrics } from '../../envs/core/metrics.ts';
import { bootstrapMeans, pooledMean, sparse, type BootstrapOptions, type Estimate, type Part, type Statistic, type Stratum } from './bootstrap.ts';
import type { Group, StepFacts } from './facts.ts';
import { AGENTBOARD_COLUMNS, AGENTBOARD_ROWS, AGENTBOARD_SOURCE, type AgentBoardColumn } from './published.ts';
import type { Scored } from './types.ts';

export { groundedStep, isHelpAction } from './facts.ts';

export interface ProblemScore {
  /** 0..1 */
  progressRate: number;
  success: boolean;
  /** 0..1 */
  groundingAccuracy: number;
  /** Progress (0..1) after each step, 1-based step t at index t − 1. */
  progressByStep: number[];
}

/** One episode's AgentBoard figures (success as its outcome records it; none recorded counts as failure). */
export function problemScore(steps: StepFacts, success: boolean | null): ProblemScore {
  const n = steps.grounded.length;
  const metricSteps = new Array<{ valid: boolean; progress: number | undefined; terminated: boolean }>(n);
  const progressByStep = new Array<number>(n);
  let last = 0;
  for (let i = 0; i < n; i++) {
    const p = steps.progress[i];
    const progress = Number.isNaN(p) ? undefined : p;
    metricSteps[i] = { valid: steps.grounded[i] === 1, progress, terminated: false };
    if (progress !== undefined) last = progress;
    progressByStep[i] = last;
  }
  const m = problemMetrics(metricSteps, { success: success ?? false });
  return { progressRate: m.progressRate, success: m.success, groundingAccuracy: m.groundingAccuracy, progressByStep };
}

/** The plain mean of the values present (Table 3's Avg.); NaN for none. */
export function averageOver(values: readonly (number | null | undefined)[]): number {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return present.length === 0 ? NaN : present.reduce((a, b) => a + b, 0) / present.length;
}

export interface AgentBoardSet {
  /** The paper's column ('BA', 'PL') or, without one, the env id. */
  key: string;
  column: AgentBoardColumn | null;
  name: string;
  /** Curve length: the most steps any episode of the set took. */
  steps: number;
}

export interface SplitScores {
  /** Episodes in the split. */
  problems: number;
  progressRate: Estimate;
  successRate: Estimate;
}

export interface AgentBoardCell {
  episodes: number;
  /** Percent. */
  progressRate: Estimate;
  successRate: Estimate;
  groundingAccuracy: Estimate;
  /** Value null when the split is empty (AgentBoard's log writes 0 there). */
  easy: SplitScores;
  hard: SplitScores;
  /** Mean progress (percent) after step 1, 2, … of the set's curve length. */
  curve: { step: number; progress: Estimate }[];
}

export interface AgentBoardRow {
  group: Group;
  /** Keyed by set key; a set the group did not play is absent. */
  cells: Record<string, AgentBoardCell>;
  /** Mean over the paper's sets this group played (intervals stratified by set); null for none. */
  average: { progressRate: Estimate; successRate: Estimate; sets: string[] } | null;
}

export interface PublishedAgentBoardRow {
  model: string;
  /** Aligned with the table's sets (null where the paper has no column). */
  progressRate: (number | null)[];
  successRate: (number | null)[];
  /** The mean over the paper's columns of the sets present (comparable with our average). */
  averagePresent: { progressRate: number | null; successRate: number | null };
  /** The paper's own Avg. over its nine tasks. */
  paperAverage: { progressRate: number; successRate: number };
}

export interface AgentBoardTable {
  sets: AgentBoardSet[];
  rows: AgentBoardRow[];
  published: { source: string; rows: PublishedAgentBoardRow[] };
}

function isColumn(x: string | undefined): x is AgentBoardColumn {
  return x !== 'Avg' && (AGENTBOARD_COLUMNS as readonly string[]).includes(x ?? '');
}

interface Prepared {
  e: Scored;
  set: string;
  p: ProblemScore;
}

export function agentboardTable(episodes: readonly Scored[], groups: readonly Group[], boot: BootstrapOptions): AgentBoardTable {
  const sets = new Map<string, AgentBoardSet>();
  const prepared: Prepared[] = episodes.map((e) => {
    const col = isColumn(e.meta.column) ? e.meta.column : null;
    const key = col ?? e.facts.env;
    const p = problemScore(e.facts.steps, e.facts.success);
    const set = sets.get(key) ?? { key, column: col, name: col ?? e.facts.env, steps: 0 };
    set.steps = Math.max(set.steps, p.progressByStep.length);
    sets.set(key, set);
    return { e, set: key, p };
  });
  const rank = (s: AgentBoardSet) => (s.column ? AGENTBOARD_COLUMNS.indexOf(s.column) : AGENTBOARD_COLUMNS.length);
  const ordered = [...sets.values()].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));

  const rows: AgentBoardRow[] = [];
  for (const group of groups) {
    const mine = prepared.filter((x) => x.e.groups.some((g) => g.key === group.key));
    if (mine.length > 0) rows.push(agentboardRow(group, mine, ordered, boot));
  }

  const colIndex = (s: AgentBoardSet) => (s.column ? AGENTBOARD_COLUMNS.indexOf(s.column) : -1);
  const avgIndex = AGENTBOARD_COLUMNS.indexOf('Avg');
  const orNull = (x: number) => (Number.isFinite(x) ? x : null);
  return {
    sets: ordered,
    rows,
    published: {
      source: AGENTBOARD_SOURCE,
      rows: Object.entries(AGENTBOARD_ROWS).map(([model, row]) => {
        const pr = ordered.map((s) => (s.column ? row.progressRate[colIndex(s)] : null));
        const sr = ordered.map((s) => (s.column ? row.successRate[colIndex(s)] : null));
        return {
          model,
          progressRate: pr,
          successRate: sr,
          averagePresent: { progressRate: orNull(averageOver(pr)), successRate: orNull(averageOver(sr)) },
          paperAverage: { progressRate: row.progressRate[avgIndex], successRate: row.successRate[avgIndex] },
        };
      }),
    },
  };
}

/** Columns of a stratum row: progress, success, grounding, then the curve's changes by step. */
const CURVE = 3;

/** An episode as a stratum row: its three figures, then each rise of progress at its step. */
function problemRow({ p }: Prepared): [number, number][] {
  const out: [number, number][] = [];
  [p.progressRate, p.success ? 1 : 0, p.groundingAccuracy].forEach((v, c) => v !== 0 && out.push([c, v]));
  let last = 0;
  p.progressByStep.forEach((v, t) => {
    if (v !== last) out.push([CURVE + t, v - last]);
    last = v;
  });
  return out;
}

/**
 * A group's figures in one joint bootstrap: each set's episodes stratified by difficulty
 * (easy, hard, neither); the curve rides along in cumulative columns.
 */
function agentboardRow(group: Group, mine: readonly Prepared[], sets: readonly AgentBoardSet[], boot: BootstrapOptions): AgentBoardRow {
  const strata: Stratum[] = [];
  const stats: Statistic[] = [];
  const push = (f: Statistic) => stats.push(f) - 1;
  const plans: { set: AgentBoardSet; eps: Prepared[]; figures: number[]; easy: number[]; hard: number[]; curve: number[] }[] = [];
  const setScore: Statistic[][] = [];
  for (const set of sets) {
    const eps = mine.filter((x) => x.set === set.key);
    if (eps.length === 0) continue;
    const parts: Record<string, Part> = {};
    for (const label of ['easy', 'hard', '']) {
      const part = eps.filter((x) => (label === '' ? !['easy', 'hard'].includes(x.e.meta.difficulty ?? '') : x.e.meta.difficulty === label));
      if (part.length === 0) continue;
      strata.push(sparse(part.map(problemRow), CURVE + set.steps, CURVE));
      parts[label] = { k: strata.length - 1, w: part.length };
    }
    const all = Object.values(parts);
    // The set's figure pools its strata by size: the plain mean over its episodes.
    const pooled = (c: number) => pooledMean(all, c, 100);
    const only = (label: string, c: number) => pooledMean(parts[label] ? [parts[label]] : [], c, 100);
    if (set.column) setScore.push([pooled(0), pooled(1)]);
    plans.push({
      set,
      eps,
      figures: [0, 1, 2].map((c) => push(pooled(c))),
      easy: [0, 1].map((c) => push(only('easy', c))),
      hard: [0, 1].map((c) => push(only('hard', c))),
      curve: Array.from({ length: set.steps }, (_, t) => push(pooled(CURVE + t))),
    });
  }
  if (plans.length === 0) return { group, cells: {}, average: null };
  // Table 3's Avg.: the plain mean over the paper's sets played.
  const average = [0, 1].map((c) => push((m) => (setScore.length === 0 ? NaN : setScore.reduce((a, f) => a + f[c](m), 0) / setScore.length)));
  const est = bootstrapMeans(`agentboard|${group.key}`, strata, stats, boot);
  const withN = (e: Estimate, n: number): Estimate => ({ ...e, n });

  const columnEpisodes = plans.reduce((a, x) => a + (x.set.column ? x.eps.length : 0), 0);
  const cells: Record<string, AgentBoardCell> = {};
  for (const { set, eps, figures, easy, hard, curve } of plans) {
    const split = (label: string, idx: number[]): SplitScores => {
      const n = eps.filter((x) => x.e.meta.difficulty === label).length;
      return { problems: n, progressRate: withN(est[idx[0]], n), successRate: withN(est[idx[1]], n) };
    };
    const n = eps.length;
    cells[set.key] = {
      episodes: n,
      progressRate: withN(est[figures[0]], n),
      successRate: withN(est[figures[1]], n),
      groundingAccuracy: withN(est[figures[2]], n),
      easy: split('easy', easy),
      hard: split('hard', hard),
      curve: curve.map((i, t) => ({ step: t + 1, progress: withN(est[i], n) })),
    };
  }
  return {
    group,
    cells,
    average:
      setScore.length === 0
        ? null
        : {
            progressRate: withN(est[average[0]], columnEpisodes),
            successRate: withN(est[average[1]], columnEpisodes),
            sets: plans.filter((x) => x.set.column).map((x) => x.set.key),
          },
  };
}

/** One problem as AgentBoard's log record states it (agentboard/tasks/*.py evaluate_env's log_example). */
export interface AgentBoardLogProblem {
  success: boolean;
  progressRate: number;
  groundingAccuracy: number;
  /** The label AgentBoard used, as the record says (in a subset run, label i of its label file, not always the problem's own). */
  difficulty: string;
}

/** One line of AgentBoard's all_results.txt; a split with no problem is the integer 0, as AgentBoard writes it. */
export interface AgentBoardRunResult {
  task_name: string;
  success_rate: number;
  progress_rate: number;
  grounding_acc: number;
  success_rate_hard: number;
  success_rate_easy: number;
  progress_rate_hard: number;
  progress_rate_easy: number;
}

/** Python's sum(): left to right (AgentBoard's Python before 3.12, which sums floats with compensation). */
const pySum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const pyMean = (xs: readonly number[]) => (xs.length === 0 ? 0 : pySum(xs) / xs.length);

/**
 * What AgentBoard writes to all_results.txt for a run, from its log's records in order: the
 * averages of agentboard/tasks/pddl.py and babyai.py `evaluate` (splits by the records'
 * `difficulty`) and agentboard/eval_main.py (success, progress, grounding), as
 * SummaryLogger.log_run_result (agentboard/utils/logging/logger.py) writes them.
 */
export function agentBoardRunResult(taskName: string, problems: readonly AgentBoardLogProblem[]): AgentBoardRunResult {
  const sr = problems.map((p) => (p.success ? 1 : 0));
  const pr = problems.map((p) => p.progressRate);
  const of = (label: string, xs: readonly number[]) => pyMean(xs.filter((_, i) => problems[i].difficulty === label));
  return {
    task_name: taskName,
    success_rate: pyMean(sr),
    progress_rate: pyMean(pr),
    grounding_acc: pyMean(problems.map((p) => p.groundingAccuracy)),
    success_rate_hard: of('hard', sr),
    success_rate_easy: of('easy', sr),
    progress_rate_hard: of('hard', pr),
    progress_rate_easy: of('easy', pr),
  };
}

/** A number as Python's json.dumps writes it: floats keep ".0", the empty split's 0 stays an integer. */
function pyNumber(x: number, float: boolean): string {
  if (!float) return String(x);
  if (Number.isInteger(x)) return `${x}.0`;
  if (Math.abs(x) < 1e-4 || Math.abs(x) >= 1e16) return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(x);
}

/** The all_results.txt line itself (key order and number forms as AgentBoard's json.dumps). */
export function agentBoardResultLine(result: AgentBoardRunResult, problems: readonly AgentBoardLogProblem[]): string {
  const has = (label: string) => problems.some((p) => p.difficulty === label);
  const parts = Object.entries(result).map(([k, v]) => {
    if (typeof v === 'string') return `${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    const split = /_(hard|easy)$/.exec(k)?.[1];
    return `${JSON.stringify(k)}: ${pyNumber(v, split === undefined || has(split))}`;
  });
  return `{${parts.join(', ')}}`;
}
