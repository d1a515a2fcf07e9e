/**
 * Batches under each benchmark's own protocol: how many episodes a batch plays by default
 * (SmartPlay's recorded settings, envs/core/README.md, "SmartPlay"; AgentBench and AgentBoard play every task of
 * the set once) and what a finished batch reports (the benchmark's metric through
 * runtime/scores, never "success 0/20" for a game that defines no success).
 * Used by the CLI's `run --agent … --episodes` and the Watch view's batch.
 */
import type { Benchmark } from '../envs/core/types.ts';
import type { EpisodeRecord } from './records.ts';
import { computeScores, type TaskInfoFn } from './scores/index.ts';
import { formatEstimate, scoreRecords } from './scores/format.ts';

export interface BatchDefaults {
  /** Episodes (seeds) per task. */
  episodes: number;
  /** True when the protocol plays every task of the set (once each), not one task many times. */
  wholeSet: boolean;
  /** Where the numbers come from, for a hint beside the control. */
  why: string;
}

/** SmartPlay's recorded episode counts by upstream game name (`iter` in envs/core/README.md, "SmartPlay"). */
const SMARTPLAY_EPISODES: Record<string, number> = {
  'BanditTwoArmedHighLowFixed-v0': 20,
  'RockPaperScissorBasic-v0': 20,
  'Hanoi3Disk-v0': 10,
  // Not in the paper's table; played with Hanoi's count.
  'Hanoi4Disk-v0': 10,
  'MessengerL1-v0': 100,
  'MessengerL2-v0': 100,
  // SmartPlay lists L3 with 100 episodes but records no human score for it (envs/core/README.md, "SmartPlay").
  'MessengerL3-v0': 100,
};

/** A batch's default size under the benchmark's protocol. */
export function batchDefaults(env: { id: string; benchmark: Benchmark }, task: { id: string; name: string }): BatchDefaults {
  if (env.benchmark === 'SmartPlay') {
    const n = SMARTPLAY_EPISODES[task.name];
    return n
      ? { episodes: n, wholeSet: false, why: `SmartPlay plays ${task.name} ${n} times (its recorded settings).` }
      : { episodes: 20, wholeSet: false, why: `SmartPlay records no count for ${task.name}; 20 episodes, as for most of its games.` };
  }
  return { episodes: 1, wholeSet: true, why: `${env.benchmark} plays every task of the set once.` };
}

/** The metrics a batch summary shows, per benchmark. */
const SUMMARY_METRICS: Record<Benchmark, readonly string[]> = {
  SmartPlay: ['score', 'normalised'],
  AgentBench: ['successRate', 'overall_cat_accuracy'],
  AgentBoard: ['progressRate', 'successRate', 'groundingAccuracy'],
};

export interface BatchFigure {
  benchmark: Benchmark;
  /** Group key ('random', 'model:gpt-4o', 'human:ann', …). */
  group: string;
  /** Game (task id) or task set ('OS', 'BA', …). */
  set: string;
  metric: string;
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
}

export interface BatchSummary {
  episodes: number;
  /** Episodes not scored (unfinished, practice, a task the catalogue does not know), with why. */
  skipped: number;
  figures: BatchFigure[];
  /** One line per group and set, e.g. "Hanoi3Disk-v0 · random policy: score 0.40 [0.10, 0.70] n=10; normalised 0.13 [0.03, 0.23] n=10". */
  lines: string[];
}

const METRIC_LABELS: Record<string, string> = {
  score: 'score',
  normalised: 'normalised',
  successRate: 'success %',
  overall_cat_accuracy: 'overall_cat_accuracy %',
  progressRate: 'progress %',
  groundingAccuracy: 'grounding %',
};

/**
 * The benchmark's metric for a finished batch: per group of players and game / task set, each
 * figure with n and a 95% bootstrap interval (seeded: the same batch gives the same summary).
 * The pooled "humans" group is left out (a batch's people are listed each).
 */
export function batchSummary(records: readonly EpisodeRecord[], taskInfo: TaskInfoFn, options: { resamples?: number; seed?: number } = {}): BatchSummary {
  const report = computeScores(records, { taskInfo, resamples: options.resamples ?? 1000, seed: options.seed });
  const labels = new Map(report.groups.map((g) => [g.key, g.label]));
  const names = new Map<string, string>([
    ...(report.smartplay?.games.map((g) => [g.task, g.name] as [string, string]) ?? []),
    ...(report.agentbench?.sets.map((s) => [s.key, s.name] as [string, string]) ?? []),
    ...(report.agentboard?.sets.map((s) => [s.key, s.name] as [string, string]) ?? []),
  ]);
  const figures: BatchFigure[] = [];
  for (const r of scoreRecords(report)) {
    if (r.source !== 'computed' || r.group === 'humans' || !SUMMARY_METRICS[r.benchmark].includes(r.metric)) continue;
    figures.push({ benchmark: r.benchmark, group: r.group, set: r.set, metric: r.metric, value: r.value, low: r.low, high: r.high, n: r.n ?? 0 });
  }
  const lines: string[] = [];
  const byRow = new Map<string, BatchFigure[]>();
  for (const f of figures) {
    const key = `${f.group}\u0000${f.set}`;
    byRow.set(key, [...(byRow.get(key) ?? []), f]);
  }
  for (const list of byRow.values()) {
    const { group, set } = list[0];
    const parts = list.map((f) =>
      f.metric === 'normalised' && f.value === null
        ? 'normalised: none (no published human score for this game)'
        : `${METRIC_LABELS[f.metric] ?? f.metric} ${formatEstimate({ value: f.value, n: f.n, ci: f.low === null || f.high === null ? null : [f.low, f.high] }, f.benchmark === 'SmartPlay' ? 2 : 1)}`,
    );
    lines.push(`${names.get(set) ?? set} · ${labels.get(group) ?? group}: ${parts.join('; ')}`);
  }
  return { episodes: records.length, skipped: report.skipped.length, figures, lines };
}
