/**
 * What an evaluation run plays: every (environment, task, seed) of a benchmark's task set, in a
 * fixed order, so a run can be split into shards and resumed by key. The set follows each
 * benchmark's protocol: SmartPlay plays its published games its recorded number of times
 * (runtime/batch.ts), AgentBench and AgentBoard every task of the set once; environments with a
 * dev and a test split (AgentBench's OS and DB) play one of them.
 */
import type { Benchmark, EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { getTask } from '../../envs/index.ts';
import { batchDefaults } from '../batch.ts';
import { envTaskInfo } from '../taskInfo.ts';

export type Split = 'dev' | 'test';

/** One episode to play. */
export interface EvalUnit {
  env: EnvDefinition;
  task: TaskInfo;
  seed: number;
  /** `env/task/seed`: what resume and shards compare. */
  key: string;
}

export function unitKey(env: string, task: string, seed: number): string {
  return `${env}/${task}/${seed}`;
}

/** An --env value: environment ids and benchmark names (smartplay, agentbench, agentboard), comma-separated. */
export function resolveEnvIds(spec: string, catalogue: readonly { id: string; benchmark: Benchmark }[]): string[] {
  const ids: string[] = [];
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const byId = catalogue.find((e) => e.id === item);
    const group = byId ? [byId] : catalogue.filter((e) => e.benchmark.toLowerCase() === item.toLowerCase());
    if (group.length === 0) {
      const benchmarks = [...new Set(catalogue.map((e) => e.benchmark.toLowerCase()))];
      throw new Error(`Unknown environment or benchmark "${item}". Known: ${[...catalogue.map((e) => e.id), ...benchmarks].join(', ')}.`);
    }
    for (const e of group) if (!ids.includes(e.id)) ids.push(e.id);
  }
  if (ids.length === 0) throw new Error('No environment given.');
  return ids;
}

export function hasSplits(env: EnvDefinition): boolean {
  return env.tasks().some((t) => t.split === 'dev' || t.split === 'test');
}

/**
 * The benchmark's task set of one environment: with splits, the tasks of `split`; SmartPlay, the
 * games its paper scores (those with a published column); otherwise every task.
 */
export function benchmarkTasks(env: EnvDefinition, split: Split): TaskInfo[] {
  const tasks = env.tasks();
  if (hasSplits(env)) return tasks.filter((t) => t.split === split);
  if (env.benchmark === 'SmartPlay') {
    const info = envTaskInfo([env]);
    return tasks.filter((t) => info(env.id, t.id)?.column !== undefined);
  }
  return tasks;
}

export interface PlanOptions {
  /** Default 'test' (the split the papers report). */
  split?: Split;
  /** Play these task ids (or upstream names) instead of the benchmark's set. */
  tasks?: readonly string[];
  /** Seeds per task; default the benchmark's count (batchDefaults). */
  seeds?: number;
  /** First seed (default 0): seeds are first, first + 1, … */
  firstSeed?: number;
}

/** Every episode of the run, environment by environment, task by task, seed by seed. */
export function planUnits(envs: readonly EnvDefinition[], options: PlanOptions = {}): EvalUnit[] {
  const split = options.split ?? 'test';
  const units: EvalUnit[] = [];
  for (const env of envs) {
    const tasks = options.tasks ? options.tasks.map((id) => getTask(env, id)) : benchmarkTasks(env, split);
    for (const task of tasks) {
      const n = options.seeds ?? batchDefaults(env, task).episodes;
      for (let i = 0; i < n; i++) {
        const seed = (options.firstSeed ?? 0) + i;
        units.push({ env, task, seed, key: unitKey(env.id, task.id, seed) });
      }
    }
  }
  return units;
}

/** `i/n` with 1 ≤ i ≤ n (as Playwright's --shard). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new Error(`--shard takes i/n with 1 ≤ i ≤ n (e.g. 1/4), not "${text}".`);
  return { index, count };
}

/**
 * Shard i of n: every n-th unit from the i-th, so each shard gets a fair mix of tasks and the
 * shards together hold every unit exactly once.
 */
export function shardOf<T>(units: readonly T[], shard: { index: number; count: number }): T[] {
  return units.filter((_, k) => k % shard.count === shard.index - 1);
}
