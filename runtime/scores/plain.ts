/**
 * The plain table: for a suite from no paper (the custom suite's games), each group's mean score
 * and success rate per task, with n and a bootstrap interval, and no published rows — the game
 * scores as itself, never beside a paper's numbers.
 */
import { meanEstimate, type BootstrapOptions, type Estimate } from './bootstrap.ts';
import type { Group } from './facts.ts';
import type { Scored } from './types.ts';

export interface PlainCell {
  /** The mean of the episodes' scores. */
  meanScore: Estimate;
  /** Percent of episodes that succeeded, over those whose game defines success (null without any). */
  successRate: Estimate;
}

export interface PlainRow {
  group: Group;
  cells: Record<string, PlainCell>;
}

/** One suite's table. */
export interface PlainSuiteTable {
  suite: string;
  name: string;
  /** Task ids in first-seen order, each with its name for the header. */
  tasks: { key: string; name: string }[];
  rows: PlainRow[];
}

/** A table per suite present. */
export interface PlainTable {
  suites: PlainSuiteTable[];
}

export function plainTable(scored: readonly Scored[], groups: readonly Group[], boot: BootstrapOptions): PlainTable {
  const bySuite = new Map<string, Scored[]>();
  for (const e of scored) bySuite.set(e.meta.suite, [...(bySuite.get(e.meta.suite) ?? []), e]);
  const suites: PlainSuiteTable[] = [];
  for (const [suite, episodes] of bySuite) {
    const tasks: PlainSuiteTable['tasks'] = [];
    for (const e of episodes) if (!tasks.some((t) => t.key === e.facts.task)) tasks.push({ key: e.facts.task, name: e.meta.name ?? e.facts.task });
    const rows: PlainRow[] = [];
    for (const group of groups) {
      const cells: Record<string, PlainCell> = {};
      for (const task of tasks) {
        const mine = episodes.filter((e) => e.facts.task === task.key && e.groups.some((g) => g.key === group.key));
        if (mine.length === 0) continue;
        const judged = mine.filter((e) => e.facts.success !== null);
        cells[task.key] = {
          meanScore: meanEstimate(`plain|${suite}|${group.key}|${task.key}|score`, mine.map((e) => e.facts.score), boot),
          successRate: judged.length
            ? meanEstimate(`plain|${suite}|${group.key}|${task.key}|success`, judged.map((e) => (e.facts.success ? 1 : 0)), boot, 100)
            : { value: null, n: 0, ci: null },
        };
      }
      if (Object.keys(cells).length > 0) rows.push({ group, cells });
    }
    suites.push({ suite, name: episodes[0].meta.suiteName, tasks, rows });
  }
  return { suites };
}
