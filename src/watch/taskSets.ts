/**
 * The task sets a Watch batch can play for one environment, and the episodes (task × seed)
 * each one means under its suite, planned as the CLI plans them (runtime/plan.ts): AgentBench
 * and AgentBoard play every task of the set once; SmartPlay plays each game its recorded number
 * of times. Sets come from the suite (its default set) and from what the tasks carry (a `split`
 * such as dev/test, a `difficulty`), never from an environment id, so every environment gets them.
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { defaultTasks, planEpisodes } from '../../runtime/plan.ts';
import { suiteById, suiteOf } from '../../suites/index.ts';

export interface TaskSet {
  /** Stable key for a <select> ('all', 'split:test', 'difficulty:easy', 'v0'). */
  key: string;
  label: string;
  tasks: TaskInfo[];
}

export interface BatchJob {
  taskId: string;
  /** Upstream name, for the progress list. */
  taskName: string;
  seed: number;
}

/** A string field of a task that some tasks carry (split, difficulty), or undefined. */
function field(task: TaskInfo, name: 'split' | 'difficulty' | 'suite'): string | undefined {
  const value = (task as unknown as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Groups of tasks by a field, when the field splits the tasks into a few real groups. */
function groupsBy(tasks: TaskInfo[], name: 'split' | 'difficulty' | 'suite', most: number): Map<string, TaskInfo[]> | null {
  const groups = new Map<string, TaskInfo[]>();
  for (const t of tasks) {
    const value = field(t, name);
    if (value === undefined) return null;
    groups.set(value, [...(groups.get(value) ?? []), t]);
  }
  return groups.size >= 2 && groups.size <= most ? groups : null;
}

export function taskSets(env: EnvDefinition): TaskSet[] {
  const all = env.tasks();
  const sets: TaskSet[] = [{ key: 'all', label: `All ${env.title} tasks (${all.length})`, tasks: all }];
  // The suite's own set, where it is not all of them (SmartPlay's published games); a split set is listed below.
  const own = defaultTasks(env);
  if (own.length > 0 && own.length < all.length && !own.every((t) => t.split !== undefined)) sets.push({ key: 'v0', label: `${suiteOf(env).name}'s published games (${own.length})`, tasks: own });
  // An environment in several suites whose tasks each belong to one (ALFWorld): a set per suite, then per suite and split.
  for (const [value, tasks] of groupsBy(all, 'suite', 4) ?? []) {
    const name = suiteById(value).name;
    sets.push({ key: `suite:${value}`, label: `${name}'s tasks (${tasks.length})`, tasks });
    for (const [split, inSplit] of groupsBy(tasks, 'split', 4) ?? []) sets.push({ key: `suite:${value}:split:${split}`, label: `${name}, the ${split} split (${inSplit.length} tasks)`, tasks: inSplit });
  }
  if (!all.some((t) => t.suite !== undefined)) for (const [value, tasks] of groupsBy(all, 'split', 4) ?? []) sets.push({ key: `split:${value}`, label: `The ${value} split (${tasks.length} tasks)`, tasks });
  for (const [value, tasks] of groupsBy(all, 'difficulty', 4) ?? []) sets.push({ key: `difficulty:${value}`, label: `Difficulty ${value} (${tasks.length} tasks)`, tasks });
  return sets;
}

/**
 * The episodes a set means: each task once from `seed` (whole-set suites), or `seedsPerTask`
 * seeds from `seed` per task (null = the suite's own count for each task).
 */
export function batchJobs(env: EnvDefinition, set: TaskSet, seed: number, seedsPerTask: number | null): BatchJob[] {
  return planEpisodes(env, set.tasks, { firstSeed: seed, seedsPerTask }).map(({ task, seed: s }) => ({ taskId: task.id, taskName: task.name, seed: s }));
}

/** One sentence saying what the batch will play, for the form. */
export function describeJobs(env: EnvDefinition, set: TaskSet, jobs: readonly BatchJob[]): string {
  const tasks = set.tasks.length;
  const suite = suiteOf(env).name;
  if (jobs.length === tasks) return `${jobs.length} episode${jobs.length === 1 ? '' : 's'}: every task once (${suite}'s plan).`;
  return `${jobs.length} episodes: ${tasks} task${tasks === 1 ? '' : 's'} × their seeds (${suite} repeats each game).`;
}
