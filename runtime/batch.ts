/**
 * What a finished batch reports: its suite's own metric through runtime/scores (never "success
 * 0/20" for a game that defines no success). How many episodes a batch plays is the suite's
 * (Suite.batchDefaults, planned by runtime/plan.ts). Used by the CLI's `run --agent … --episodes`
 * and the Watch view's batch.
 */
import type { EpisodeRecord } from './records.ts';
import { computeScores, type TaskInfoFn } from './scores/index.ts';
import { formatEstimate, scoreRecords } from './scores/format.ts';
import { suites } from '../suites/index.ts';

export type { BatchDefaults } from '../envs/core/suite.ts';

/** The metrics a batch summary shows for a suite, by its name as score records carry it. */
function summaryMetrics(suiteName: string): readonly string[] {
  return suites().find((s) => s.name === suiteName)?.summaryMetrics ?? ['meanScore', 'successRate'];
}

export interface BatchFigure {
  /** The suite's name. */
  benchmark: string;
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
  meanScore: 'mean score',
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
    ...(report.plain?.suites.flatMap((t) => t.tasks.map((x) => [x.key, x.name] as [string, string])) ?? []),
  ]);
  const figures: BatchFigure[] = [];
  for (const r of scoreRecords(report)) {
    if (r.source !== 'computed' || r.group === 'humans' || !summaryMetrics(r.benchmark).includes(r.metric)) continue;
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
        : `${METRIC_LABELS[f.metric] ?? f.metric} ${formatEstimate({ value: f.value, n: f.n, ci: f.low === null || f.high === null ? null : [f.low, f.high] }, f.metric === 'score' || f.metric === 'normalised' || f.metric === 'meanScore' ? 2 : 1)}`,
    );
    lines.push(`${names.get(set) ?? set} · ${labels.get(group) ?? group}: ${parts.join('; ')}`);
  }
  return { episodes: records.length, skipped: report.skipped.length, figures, lines };
}
