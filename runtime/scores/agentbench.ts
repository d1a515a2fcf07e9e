/**
 * AgentBench's scores (README.md, Upstream; the paper's Tables 3 and 4), in percent:
 * the success rate per task set; for DB the accuracy per category, SELECT (every row that
 * is not INSERT or UPDATE), INSERT, UPDATE and its main metric overall_cat_accuracy =
 * mean(SELECT, INSERT, UPDATE) (an absent category counts 0, as upstream's metric does);
 * the finish-reason mix (Table 4); and the overall score OA = the mean over the tasks
 * present of score / Weight⁻¹ (all eight tasks: Table 3's OA).
 *
 * A task set's score is its benchmark metric: DB's overall_cat_accuracy, else the success
 * rate. Intervals are stratified by task set and, within DB, by category.
 */
import { bootstrapMeans, pooledMean, sparse, type BootstrapOptions, type Estimate, type Part, type Statistic, type Stratum } from './bootstrap.ts';
import type { Group } from './facts.ts';
import { AGENTBENCH_ROWS, AGENTBENCH_SOURCE, AGENTBENCH_TASKS, AGENTBENCH_WEIGHT_INVERSE, type AgentBenchTask } from './published.ts';
import type { Scored } from './types.ts';
import type { FinishReason } from '../../envs/core/types.ts';

/** The three categories upstream reports last, after the question types. */
const TAIL = ['SELECT', 'INSERT', 'UPDATE'];

/**
 * Upstream's per-category metrics, in its order (then any other category met, by name). The DB
 * environment keeps its own list for its metric (envs/db/check.ts): the scores read records, not
 * the environment's modules, so the list is written here from README.md, Upstream (DBBench.metrics).
 */
const DB_CATEGORIES: readonly string[] = ['other', 'counting', 'comparison', 'ranking', 'aggregation-SUM', 'aggregation-MIN', 'aggregation-MAX', 'aggregation-AVG'];

/** Categories in upstream's order, then any others by name, then SELECT, INSERT and UPDATE. */
export function orderCategories(categories: readonly string[]): string[] {
  const known = DB_CATEGORIES;
  const tail = TAIL;
  const set = new Set(categories);
  return [
    ...known.filter((c) => set.has(c)),
    ...[...set].filter((c) => !known.includes(c) && !tail.includes(c)).sort(),
    ...tail.filter((c) => set.has(c)),
  ];
}

/** SELECT is every category but INSERT and UPDATE (so DELETE rows count as SELECT, as upstream). */
export function dbKind(category: string): 'SELECT' | 'INSERT' | 'UPDATE' {
  return category === 'INSERT' || category === 'UPDATE' ? category : 'SELECT';
}

/** Finish reasons in the paper's Table 4 order with its labels, then this project's own two. */
export const FINISH_REASON_LABELS: readonly { reason: FinishReason; label: string }[] = [
  { reason: 'Complete', label: 'Completed' },
  { reason: 'Context Limit Exceeded', label: 'Context Limit Exceeded' },
  { reason: 'Invalid Format', label: 'Invalid Format' },
  { reason: 'Invalid Action', label: 'Invalid Action' },
  { reason: 'Task Limit Exceeded', label: 'Task Limit Exceeded' },
  { reason: 'Given Up', label: 'Given Up' },
  { reason: 'Task Error', label: 'Task Error' },
];

function isTask(x: string | undefined): x is AgentBenchTask {
  return (AGENTBENCH_TASKS as readonly string[]).includes(x ?? '');
}

/**
 * OA over the tasks given: the mean of score / Weight⁻¹ (scores in percent). With all eight
 * tasks this is the paper's (1/8) Σ; with fewer it is the same average over those present.
 */
export function overallScore(scores: Partial<Record<AgentBenchTask, number>>): { value: number; tasks: AgentBenchTask[]; missing: AgentBenchTask[] } {
  const tasks = AGENTBENCH_TASKS.filter((t) => scores[t] !== undefined);
  const value = tasks.length === 0 ? NaN : tasks.reduce((a, t) => a + (scores[t] as number) / AGENTBENCH_WEIGHT_INVERSE[t], 0) / tasks.length;
  return { value, tasks, missing: AGENTBENCH_TASKS.filter((t) => scores[t] === undefined) };
}

export interface AgentBenchSet {
  /** The paper's task name ('OS', 'DB') or, without one, the env id. */
  key: string;
  column: AgentBenchTask | null;
  name: string;
  /** True when the set's tasks carry categories (DB): its score is overall_cat_accuracy. */
  categorised: boolean;
}

export interface FinishShare {
  reason: FinishReason;
  label: string;
  count: number;
  /** Percent of the episodes. */
  share: Estimate;
}

export interface CategoryAccuracy {
  /** A category (other, counting, …), or SELECT / INSERT / UPDATE. */
  category: string;
  accuracy: Estimate;
}

export interface AgentBenchCell {
  episodes: number;
  /** Percent of episodes that succeeded. */
  successRate: Estimate;
  /** The task's metric in the paper's table: overall_cat_accuracy for DB, else the success rate. */
  score: Estimate;
  /** DB only: per category, then SELECT, INSERT, UPDATE. */
  categories?: CategoryAccuracy[];
  /** DB only: mean of the SELECT, INSERT and UPDATE accuracies. */
  overallCatAccuracy?: Estimate;
  finishReasons: FinishShare[];
}

export interface AgentBenchRow {
  group: Group;
  /** Keyed by set key; a set the group did not play is absent. */
  cells: Record<string, AgentBenchCell>;
  /** OA over the paper's tasks this group played; null when it played none of them. */
  overall: { value: Estimate; tasks: AgentBenchTask[]; missing: AgentBenchTask[] } | null;
  /** Finish-reason mix over all of the group's AgentBench episodes (as Table 4). */
  finishReasons: FinishShare[];
}

export interface PublishedAgentBenchRow {
  model: string;
  /** The paper's OA over all eight tasks. */
  OA: number;
  /** OA recomputed over the tasks present in this table (comparable with the rows above). */
  overallPresent: number | null;
  /** Aligned with the table's sets: the paper's score, null where it has no column. */
  scores: (number | null)[];
}

export interface AgentBenchTable {
  sets: AgentBenchSet[];
  rows: AgentBenchRow[];
  /** The paper's tasks not in these episodes (OA is over the others). */
  missing: AgentBenchTask[];
  published: { source: string; weightInverse: Record<AgentBenchTask, number>; rows: PublishedAgentBenchRow[] };
  notes: string[];
}

/** One episode as a stratum row: column 0 success (1/0), column 1 + r its finish reason (one-hot). */
function episodeRow(e: Scored): [number, number][] {
  const out: [number, number][] = [];
  if (e.facts.success === true) out.push([0, 1]);
  const r = FINISH_REASON_LABELS.findIndex((f) => f.reason === e.facts.finishReason);
  if (r >= 0) out.push([1 + r, 1]);
  return out;
}

export function agentbenchTable(episodes: readonly Scored[], groups: readonly Group[], boot: BootstrapOptions): AgentBenchTable {
  const sets = new Map<string, AgentBenchSet>();
  for (const e of episodes) {
    const col = isTask(e.meta.column) ? e.meta.column : null;
    const key = col ?? e.facts.env;
    const set = sets.get(key) ?? { key, column: col, name: col ?? e.facts.env, categorised: false };
    if (e.meta.category !== undefined) set.categorised = true;
    sets.set(key, set);
  }
  const rank = (s: AgentBenchSet) => (s.column ? AGENTBENCH_TASKS.indexOf(s.column) : AGENTBENCH_TASKS.length);
  const ordered = [...sets.values()].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
  const setOf = (e: Scored) => (isTask(e.meta.column) ? e.meta.column : e.facts.env);

  const notes: string[] = [];
  const rows: AgentBenchRow[] = [];
  for (const group of groups) {
    const mine = episodes.filter((e) => e.groups.some((g) => g.key === group.key));
    if (mine.length === 0) continue;
    rows.push(agentbenchRow(group, mine, ordered, setOf, boot, notes));
  }

  const present = ordered.flatMap((s) => (s.column ? [s.column] : []));
  return {
    sets: ordered,
    rows,
    missing: AGENTBENCH_TASKS.filter((t) => !present.includes(t)),
    published: {
      source: AGENTBENCH_SOURCE,
      weightInverse: AGENTBENCH_WEIGHT_INVERSE,
      rows: Object.entries(AGENTBENCH_ROWS).map(([model, row]) => {
        const scores = ordered.map((s) => (s.column ? row.scores[AGENTBENCH_TASKS.indexOf(s.column)] : null));
        const partial: Partial<Record<AgentBenchTask, number>> = {};
        for (const t of present) partial[t] = row.scores[AGENTBENCH_TASKS.indexOf(t)];
        const oa = overallScore(partial).value;
        return { model, OA: row.OA, overallPresent: Number.isFinite(oa) ? oa : null, scores };
      }),
    },
    notes: [...new Set(notes)],
  };
}

/**
 * A group's figures in one joint bootstrap: a stratum per plain task set and per category of
 * a categorised one (DB), each row holding success and the finish reason.
 */
function agentbenchRow(
  group: Group,
  mine: readonly Scored[],
  sets: readonly AgentBenchSet[],
  setOf: (e: Scored) => string,
  boot: BootstrapOptions,
  notes: string[],
): AgentBenchRow {
  const strata: Stratum[] = [];
  const stats: Statistic[] = [];
  const push = (f: Statistic) => stats.push(f) - 1;
  const addStratum = (eps: readonly Scored[]): Part => {
    strata.push(sparse(eps.map(episodeRow), 1 + FINISH_REASON_LABELS.length));
    return { k: strata.length - 1, w: eps.length };
  };
  /** The mean of column c over the parts' episodes, in percent; NaN with no episodes. */
  const pooled = (parts: readonly Part[], c: number) => pooledMean(parts, c, 100);
  const finishStats = (parts: readonly Part[]) => FINISH_REASON_LABELS.map((_, r) => push(pooled(parts, 1 + r)));
  /** Each paper task's score statistic, for OA. */
  const scoreStat = new Map<AgentBenchTask, Statistic>();
  const allParts: Part[] = [];
  const build: ((est: Estimate[]) => void)[] = [];
  const cells: Record<string, AgentBenchCell> = {};
  const withN = (e: Estimate, n: number): Estimate => ({ ...e, n });
  const shares = (est: Estimate[], idx: number[], eps: readonly Scored[]): FinishShare[] =>
    FINISH_REASON_LABELS.map(({ reason, label }, r) => ({
      reason,
      label,
      count: eps.filter((e) => e.facts.finishReason === reason).length,
      share: withN(est[idx[r]], eps.length),
    }));

  for (const set of sets) {
    const eps = mine.filter((e) => setOf(e) === set.key);
    if (eps.length === 0) continue;
    if (!set.categorised) {
      const parts = [addStratum(eps)];
      allParts.push(...parts);
      const sr = pooled(parts, 0);
      const iSR = push(sr);
      if (set.column) scoreStat.set(set.column, sr);
      const iFinish = finishStats(parts);
      build.push((est) => {
        const rate = withN(est[iSR], eps.length);
        cells[set.key] = { episodes: eps.length, successRate: rate, score: rate, finishReasons: shares(est, iFinish, eps) };
      });
      continue;
    }
    // Categorised (DB): a stratum per category.
    const byCat = new Map<string, Scored[]>();
    for (const e of eps) {
      const c = e.meta.category ?? 'other';
      byCat.set(c, [...(byCat.get(c) ?? []), e]);
    }
    const cats = orderCategories([...byCat.keys()]);
    const partOf = new Map(cats.map((c) => [c, addStratum(byCat.get(c) as Scored[])]));
    const parts = [...partOf.values()];
    allParts.push(...parts);
    const kindParts = (kind: string) => cats.filter((c) => dbKind(c) === kind).map((c) => partOf.get(c) as Part);
    const kinds = (['SELECT', 'INSERT', 'UPDATE'] as const).map((kind) => pooled(kindParts(kind), 0));
    // Upstream's acc() returns 0 for a category with no rows; overall_cat_accuracy averages that 0.
    const orZero = (x: number) => (Number.isNaN(x) ? 0 : x);
    const overallCat: Statistic = (m) => kinds.reduce((a, f) => a + orZero(f(m)), 0) / 3;
    for (const kind of ['SELECT', 'INSERT', 'UPDATE'] as const) {
      if (kindParts(kind).length === 0) notes.push(`${set.name}, ${group.label}: no ${kind} tasks; overall_cat_accuracy counts its accuracy as 0, as AgentBench does.`);
    }
    const selectCats = cats.filter((c) => dbKind(c) === 'SELECT');
    const iCats = selectCats.map((c) => push(pooled([partOf.get(c) as Part], 0)));
    const iKinds = kinds.map(push);
    const iOverall = push(overallCat);
    const iSuccess = push(pooled(parts, 0));
    if (set.column) scoreStat.set(set.column, overallCat);
    const iFinish = finishStats(parts);
    build.push((est) => {
      const count = (list: Part[]) => list.reduce((a, p) => a + p.w, 0);
      const categories: CategoryAccuracy[] = [
        ...selectCats.map((c, j) => ({ category: c, accuracy: withN(est[iCats[j]], byCat.get(c)!.length) })),
        ...(['SELECT', 'INSERT', 'UPDATE'] as const).map((kind, j) => ({ category: kind, accuracy: withN(est[iKinds[j]], count(kindParts(kind))) })),
      ];
      const overallCatAccuracy = withN(est[iOverall], eps.length);
      cells[set.key] = {
        episodes: eps.length,
        successRate: withN(est[iSuccess], eps.length),
        score: overallCatAccuracy,
        categories,
        overallCatAccuracy,
        finishReasons: shares(est, iFinish, eps),
      };
    });
  }

  const oaTasks = AGENTBENCH_TASKS.filter((t) => scoreStat.has(t));
  const iOA =
    oaTasks.length === 0
      ? -1
      : push((m) => {
          const scores: Partial<Record<AgentBenchTask, number>> = {};
          for (const t of oaTasks) scores[t] = (scoreStat.get(t) as Statistic)(m);
          return overallScore(scores).value;
        });
  const iAllFinish = finishStats(allParts);
  const est = bootstrapMeans(`agentbench|${group.key}`, strata, stats, boot);
  for (const f of build) f(est);
  const oaN = oaTasks.reduce((a, t) => a + (cells[t]?.episodes ?? 0), 0);
  return {
    group,
    cells,
    overall: iOA < 0 ? null : { value: withN(est[iOA], oaN), tasks: oaTasks, missing: AGENTBENCH_TASKS.filter((t) => !oaTasks.includes(t)) },
    finishReasons: shares(est, iAllFinish, mine),
  };
}
