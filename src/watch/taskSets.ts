/**
 * The task sets a Watch batch can play for one environment, and the episodes (task × seed)
 * each one means under its benchmark's protocol: AgentBench and AgentBoard play every task
 * of the set once; SmartPlay plays each game its recorded number of times (runtime/batch.ts).
 * Sets come from what the tasks carry (a `split` such as dev/test, a `difficulty`), never
 * from an environment id, so every environment gets them.
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { batchDefaults } from '../../runtime/batch.ts';

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
function field(task: TaskInfo, name: 'split' | 'difficulty'): string | undefined {
  const value = (task as unknown as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Groups of tasks by a field, when the field splits the tasks into a few real groups. */
function groupsBy(tasks: TaskInfo[], name: 'split' | 'difficulty', most: number): Map<string, TaskInfo[]> | null {
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
  const v0 = all.filter((t) => t.benchmarkV0);
  if (v0.length > 0 && v0.length < all.length) sets.push({ key: 'v0', label: `${env.benchmark}'s published games (${v0.length})`, tasks: v0 });
  for (const [value, tasks] of groupsBy(all, 'split', 4) ?? []) sets.push({ key: `split:${value}`, label: `The ${value} split (${tasks.length} tasks)`, tasks });
  for (const [value, tasks] of groupsBy(all, 'difficulty', 4) ?? []) sets.push({ key: `difficulty:${value}`, label: `Difficulty ${value} (${tasks.length} tasks)`, tasks });
  return sets;
}

/**
 * The episodes a set means: each task once from `seed` (whole-set benchmarks), or `seedsPerTask`
 * seeds from `seed` per task (SmartPlay; null = the benchmark's own count for each game).
 */
export function batchJobs(env: EnvDefinition, set: TaskSet, seed: number, seedsPerTask: number | null): BatchJob[] {
  const jobs: BatchJob[] = [];
  for (const task of set.tasks) {
    const defaults = batchDefaults(env, task);
    // A whole-set task with its own fixed problem plays once; SmartPlay repeats even a fixed game
    // (the driver's own randomness and the model's sampling follow the episode's seed).
    const fixed = defaults.wholeSet && env.usesSeed?.(task) === false;
    const count = fixed ? 1 : defaults.wholeSet ? (seedsPerTask ?? 1) : (seedsPerTask ?? defaults.episodes);
    for (let k = 0; k < count; k++) jobs.push({ taskId: task.id, taskName: task.name, seed: seed + k });
  }
  return jobs;
}

/** One sentence saying what the batch will play, for the form. */
export function describeJobs(env: EnvDefinition, set: TaskSet, jobs: readonly BatchJob[]): string {
  const tasks = set.tasks.length;
  if (jobs.length === tasks) return `${jobs.length} episode${jobs.length === 1 ? '' : 's'}: every task once (${env.benchmark}'s protocol).`;
  return `${jobs.length} episodes: ${tasks} task${tasks === 1 ? '' : 's'} × their seeds (${env.benchmark} repeats each game).`;
}
