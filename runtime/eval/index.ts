/**
 * `eval`: a model (or a reference policy) over a benchmark's whole task set, written to a JSON
 * Lines file as episodes finish, resumable, and splittable into shards. The CLI's `eval`
 * command is this plus flags, a progress display and the scores table at the end.
 */
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { Driver } from '../drivers/driver.ts';
import { hasContent, openOutput, readResume } from './output.ts';
import { planUnits, shardOf, type EvalUnit, type PlanOptions } from './plan.ts';
import { playerKey } from './resume.ts';
import { runEval, type EvalRunResult, type FinishedEpisode } from './run.ts';

export { parseShard, planUnits, resolveEnvIds, resolveEnvSuites, hasSplits, shardOf, unitKey, type EvalUnit, type PlanOptions, type Split } from './plan.ts';
export { resumeState, type ResumeState } from './resume.ts';
export { runEval, type EvalRunOptions, type EvalRunResult, type FinishedEpisode, type InfraError } from './run.ts';
export { progressBar, progressLine, progressFigures, formatDuration, type ProgressCounts } from './progress.ts';

export interface EvaluateOptions extends PlanOptions {
  envs: readonly EnvDefinition[];
  /** Only this slice of the run (`i/n`, 1-based). */
  shard?: { index: number; count: number };
  /** The output file (JSON Lines). A fresh run refuses a file that holds anything. */
  out: string;
  /** Skip the (task, seed) pairs the file holds complete; play its infrastructure failures again. */
  resume?: boolean;
  driverFor(env: EnvDefinition, task: TaskInfo, seed: number): Driver;
  concurrency?: number;
  appVersion: string;
  maxSteps?: number;
  signal?: AbortSignal;
  stopAfterFailures?: number;
  /** Before the first episode: what this run plays, and what the file already held. */
  onPlan?(info: { total: number; toPlay: number; held: number; retried: number }): void;
  /** After each episode is written. */
  onEpisode?(episode: FinishedEpisode): void;
}

export interface EvaluateResult extends EvalRunResult {
  /** Units in this run (this shard), and those the file already held complete. */
  total: number;
  held: number;
}

export async function evaluate(options: EvaluateOptions): Promise<EvaluateResult> {
  const planned = planUnits(options.envs, options);
  const units: EvalUnit[] = options.shard ? shardOf(planned, options.shard) : planned;
  const state = options.resume ? readResume(options.out) : undefined;
  if (!state && hasContent(options.out)) throw new Error(`${options.out} already holds episodes: add --resume to continue that run, or choose another --out.`);
  const todo = state ? units.filter((u) => !state.done.has(u.key)) : units;
  if (todo.length > 0) {
    // Made before the file is touched, so a player that cannot play here (no oracle) fails early.
    const first = todo[0];
    const player = playerKey(options.driverFor(first.env, first.task, first.seed).info);
    const others = [...(state?.players ?? [])].filter((p) => p !== player);
    if (others.length > 0) throw new Error(`${options.out} holds episodes of ${others.join(', ')}, not ${player}: resume a run with the same player, or choose another --out.`);
  }
  options.onPlan?.({ total: units.length, toPlay: todo.length, held: units.length - todo.length, retried: state?.retried ?? 0 });
  const output = openOutput(options.out, state);
  try {
    const result = await runEval({
      units: todo,
      driverFor: options.driverFor,
      concurrency: options.concurrency,
      appVersion: options.appVersion,
      maxSteps: options.maxSteps,
      signal: options.signal,
      stopAfterFailures: options.stopAfterFailures,
      write: (episode) => {
        output.append(episode.record);
        options.onEpisode?.(episode);
      },
    });
    return { ...result, total: units.length, held: units.length - todo.length };
  } finally {
    output.close();
  }
}
