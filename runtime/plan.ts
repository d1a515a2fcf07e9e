/**
 * What a run plays, the same everywhere: the CLI's `eval`, `reference` and `run --episodes`, and
 * the app's Watch batches all plan through here, so they agree on the episodes of any
 * environment. The suite decides (envs/core/suite.ts): its default task set and its count of
 * episodes per task; a suite that plays every task once plays a task with its own fixed problem
 * (one that ignores the seed) once whatever the count.
 */
import type { Split } from '../envs/core/suite.ts';
import type { EnvDefinition, TaskInfo } from '../envs/core/types.ts';
import { suiteOf } from '../suites/index.ts';

export type { Split } from '../envs/core/suite.ts';

/** One episode to play. */
export interface PlannedEpisode {
  task: TaskInfo;
  seed: number;
}

export interface EpisodeCount {
  /** Seeds per task instead of the suite's count (null or absent: the suite's). */
  seedsPerTask?: number | null;
  /** The suite whose plan it is (default: the environment's first). */
  suite?: string;
}

/** How many episodes a run plays of one task. */
export function episodesOf(env: EnvDefinition, task: TaskInfo, options: EpisodeCount = {}): number {
  const defaults = suiteOf(env, options.suite, task).batchDefaults(task);
  const fixed = defaults.wholeSet && env.usesSeed?.(task) === false;
  if (fixed) return 1;
  return options.seedsPerTask ?? defaults.episodes;
}

/** The tasks a run plays when none are named: the suite's set (in `split` where the environment has splits). */
export function defaultTasks(env: EnvDefinition, split: Split = 'test', suite?: string): TaskInfo[] {
  const chosen = suiteOf(env, suite);
  // An environment in several suites may list tasks of one suite only (ALFWorld): the suite plays its own.
  return chosen.defaultTasks(env, split).filter((t) => t.suite === undefined || t.suite === chosen.id);
}

/** Every episode of these tasks, task by task, seeds from `firstSeed` up. */
export function planEpisodes(env: EnvDefinition, tasks: readonly TaskInfo[], options: EpisodeCount & { firstSeed?: number } = {}): PlannedEpisode[] {
  const out: PlannedEpisode[] = [];
  for (const task of tasks) {
    const n = episodesOf(env, task, options);
    for (let k = 0; k < n; k++) out.push({ task, seed: (options.firstSeed ?? 0) + k });
  }
  return out;
}
