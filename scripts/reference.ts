/**
 * Batches under each benchmark's protocol, recorded as the app's JSON Lines episodes:
 * `reference` (random and oracle on every task set: every table's floor and ceiling rows
 * from real runs) and `run --all-tasks` (one driver over a whole task set). Each episode is
 * played headless through the same episode machine and drivers as `run`.
 */
import { UsageError, parseFlags } from './flags.ts';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { entries, loadEnv } from '../envs/index.ts';
import { startEpisode, whenIdle } from '../envs/core/runner.ts';
import type { EnvDefinition, TaskInfo } from '../envs/core/types.ts';
import type { EpisodeOutput } from '../envs/core/episode.ts';
import { recordOfEpisode, type EpisodeRecord } from '../runtime/records.ts';
import { policyDriver, type Driver } from '../runtime/drivers/driver.ts';
import { runEpisodes } from '../runtime/runEpisodes.ts';
import { batchSummary } from '../runtime/batch.ts';
import { planEpisodes } from '../runtime/plan.ts';
import { envTaskInfo } from '../runtime/taskInfo.ts';
import { toJsonl } from '../runtime/jsonl.ts';

const APP_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export const REFERENCE_USAGE = `Usage: reference --out FILE.jsonl [--env ENV[,ENV…]] [--agent random,oracle] [--seed N]
        [--max-steps N] [--tasks N]
  Plays the reference players on every task of each benchmark environment under the
  benchmark's protocol (SmartPlay: 20 episodes of Bandit and RPS, 10 of Hanoi; AgentBench
  and AgentBoard: every task of the set once), writes them as the app's JSON Lines export
  (import it in the app's scores view, or run \`scores\` on it) and prints each batch's
  summary. Oracles play only where an environment has one. --tasks N plays only the first
  N tasks of each set (a quick look; the tables then stand on fewer tasks).`;


export interface RecordOptions {
  seeds: readonly number[];
  driverFor(seed: number): Driver;
  maxSteps?: number;
  /** Called with each finished episode's outcome line. */
  onEpisode?(output: EpisodeOutput, seed: number): void;
}

/** Plays one task for each seed and returns the episodes as records; an episode the driver left open ends as Given Up. */
export async function recordEpisodes(env: EnvDefinition, task: TaskInfo, options: RecordOptions): Promise<{ records: EpisodeRecord[]; error: Error | null }> {
  const records: EpisodeRecord[] = [];
  const startedAt = new Map<number, string>();
  let error: Error | null = null;
  await runEpisodes({
    seeds: options.seeds,
    unfinished: 'give-up',
    driverFor: options.driverFor,
    open: async (seed) => {
      startedAt.set(seed, new Date().toISOString());
      const actor = startEpisode(env, task, { seed, maxSteps: options.maxSteps });
      const ready = await whenIdle(actor);
      if (ready.context.error) throw new Error(ready.context.error);
      return actor;
    },
    close: (run) => {
      const final = run.actor.getSnapshot();
      const output = final.output!;
      options.onEpisode?.(output, run.seed);
      if (run.result.error) error = run.result.error;
      const id = randomUUID();
      const endedAt = new Date().toISOString();
      records.push(recordOfEpisode(final.context, { id, driver: run.driver.info, appVersion: APP_VERSION, startedAt: startedAt.get(run.seed)!, endedAt, outcome: output }));
    },
  });
  return { records, error };
}

/** Every task of the set under its suite's plan (runtime/plan.ts): each task its suite's number of seeds (or `episodes`), from `seed` up. */
export async function recordSet(
  env: EnvDefinition,
  driverFor: (task: TaskInfo, seed: number) => Driver,
  options: { seed?: number; episodes?: number; maxSteps?: number; tasks?: number; onEpisode?(task: TaskInfo, output: EpisodeOutput, seed: number): void },
): Promise<{ records: EpisodeRecord[]; error: Error | null }> {
  const all: EpisodeRecord[] = [];
  const tasks = env.tasks().slice(0, options.tasks ?? Infinity);
  for (const task of tasks) {
    const seeds = planEpisodes(env, [task], { firstSeed: options.seed ?? 0, seedsPerTask: options.episodes }).map((e) => e.seed);
    const { records, error } = await recordEpisodes(env, task, {
      seeds,
      driverFor: (seed) => driverFor(task, seed),
      maxSteps: options.maxSteps,
      onEpisode: (output, seed) => options.onEpisode?.(task, output, seed),
    });
    all.push(...records);
    if (error) return { records: all, error };
  }
  return { records: all, error: null };
}


function wholeNumber(flags: Map<string, string | true>, name: string, min: number): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name} takes a whole number of at least ${min}.`);
  return Number(v);
}

/** `reference --out FILE`: returns the exit code (0 ok, 1 a run failed, 2 usage); progress and summaries go to `out`. */
export async function referenceCommand(args: string[], out: (s: string) => void): Promise<number> {
  try {
    const flags = parseFlags(args);
    if (flags.has('help')) {
      out(REFERENCE_USAGE + '\n');
      return 0;
    }
    const file = flags.get('out');
    if (typeof file !== 'string') throw new UsageError('Give --out FILE.jsonl.');
    const known = new Set(['out', 'env', 'agent', 'seed', 'max-steps', 'tasks']);
    for (const name of flags.keys()) if (!known.has(name)) throw new UsageError(`Unknown option --${name}.`);
    const envFlag = flags.get('env');
    if (envFlag === true) throw new UsageError('--env takes environment ids.');
    const envIds = envFlag ? envFlag.split(',').filter(Boolean) : entries().map((e) => e.id);
    const agentFlag = flags.get('agent') ?? 'random,oracle';
    if (agentFlag === true) throw new UsageError('--agent takes random, oracle or both.');
    const agents = agentFlag.split(',').filter(Boolean);
    for (const a of agents) if (a !== 'random' && a !== 'oracle') throw new UsageError('--agent is random, oracle or random,oracle.');
    const seed = wholeNumber(flags, 'seed', 0) ?? 0;
    const maxSteps = wholeNumber(flags, 'max-steps', 1);
    const tasks = wholeNumber(flags, 'tasks', 1);

    const envs = await Promise.all(envIds.map((id) => loadEnv(id)));
    const records: EpisodeRecord[] = [];
    for (const env of envs) {
      for (const agent of agents as ('random' | 'oracle')[]) {
        if (agent === 'oracle' && !env.oracleAction) {
          out(`${env.id}: no oracle; random only.\n`);
          continue;
        }
        const t0 = performance.now();
        const played = await recordSet(env, (task, s) => policyDriver(agent, env, task, { seed: s }), { seed, maxSteps, tasks });
        records.push(...played.records);
        const summary = batchSummary(played.records, envTaskInfo([env]), { resamples: 1000 });
        out(`${env.id} ${agent}: ${played.records.length} episodes in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
        for (const line of summary.lines) out(`  ${line}\n`);
        if (played.error) {
          writeFileSync(file, toJsonl(records));
          out(`${env.id} ${agent} stopped: ${played.error.message}\n`);
          return 1;
        }
      }
    }
    writeFileSync(file, toJsonl(records));
    out(`Wrote ${records.length} episodes to ${file}.\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      out(`${e.message}\n\n${REFERENCE_USAGE}\n`);
      return 2;
    }
    out(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
