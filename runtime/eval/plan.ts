/**
 * What an evaluation run plays: every (environment, task, seed) of each environment's suite set,
 * in a fixed order, so a run can be split into shards and resumed by key. The plan is the one
 * the app's batches use (runtime/plan.ts): SmartPlay plays its published games its recorded
 * number of times, AgentBench and AgentBoard every task of the set once, a custom suite every
 * task its count; environments with a dev and a test split (AgentBench's OS and DB) play one.
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { hasSplits } from '../../envs/core/suite.ts';
import { getTask } from '../../envs/index.ts';
import { suites } from '../../suites/index.ts';
import { defaultTasks, planEpisodes, type Split } from '../plan.ts';

export type { Split } from '../plan.ts';
export { hasSplits };

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

/** An --env value: environment ids and suite ids (smartplay, agentbench, agentboard, custom, …), comma-separated. */
export function resolveEnvIds(spec: string, catalogue: readonly { id: string; suites: readonly { suite: string }[] }[]): string[] {
  return [...resolveEnvSuites(spec, catalogue).keys()];
}

/**
 * An --env value as environment → the suites it is played under: a suite id names its own (ALFWorld
 * given as "agentboard" plays AgentBoard's tasks only); an environment id, every suite it is in.
 */
export function resolveEnvSuites(spec: string, catalogue: readonly { id: string; suites: readonly { suite: string }[] }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const byId = catalogue.find((e) => e.id === item);
    const suite = item.toLowerCase();
    const group = byId ? [byId] : catalogue.filter((e) => e.suites.some((m) => m.suite === suite));
    if (group.length === 0) {
      const known = suites().map((s) => s.id).filter((id) => catalogue.some((e) => e.suites.some((m) => m.suite === id)));
      throw new Error(`Unknown environment or suite "${item}". Known: ${[...catalogue.map((e) => e.id), ...known].join(', ')}.`);
    }
    for (const e of group) {
      const named = byId ? e.suites.map((m) => m.suite) : [suite];
      out.set(e.id, [...new Set([...(out.get(e.id) ?? []), ...named])]);
    }
  }
  if (out.size === 0) throw new Error('No environment given.');
  return out;
}

export interface PlanOptions {
  /** Default 'test' (the split the papers report). */
  split?: Split;
  /** Play these task ids (or upstream names) instead of the benchmark's set. */
  tasks?: readonly string[];
  /** Seeds per task; default the suite's count (Suite.batchDefaults). */
  seeds?: number;
  /** First seed (default 0): seeds are first, first + 1, … */
  firstSeed?: number;
  /** Per environment, the suites whose sets to play (resolveEnvSuites); default every suite it is in. */
  suites?: ReadonlyMap<string, readonly string[]>;
}

/** Every episode of the run, environment by environment, task by task, seed by seed (runtime/plan.ts). */
export function planUnits(envs: readonly EnvDefinition[], options: PlanOptions = {}): EvalUnit[] {
  const split = options.split ?? 'test';
  const units: EvalUnit[] = [];
  for (const env of envs) {
    const suites = options.suites?.get(env.id) ?? env.suites.map((m) => m.suite);
    // Each suite's own set; an environment in several suites (ALFWorld) plays each one's tasks.
    const tasks = options.tasks ? options.tasks.map((id) => getTask(env, id)) : [...new Set(suites.flatMap((s) => defaultTasks(env, split, s)))];
    for (const { task, seed } of planEpisodes(env, tasks, { seedsPerTask: options.seeds, firstSeed: options.firstSeed })) {
      units.push({ env, task, seed, key: unitKey(env.id, task.id, seed) });
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
