/**
 * How a benchmark's own logs name an environment and its tasks, through its catalogue line
 * (`logs`, envs/<id>/logs.ts): the log importers (runtime/importers/) ask each environment
 * instead of naming any.
 */
import type { TaskInfo } from './types.ts';

export interface EnvLogs {
  /**
   * Whether a log file at `path` is this environment's, by the benchmark's folder layout
   * (AgentBoard: `logs/{env}.jsonl`; AgentBench: `{agent}/{task}/runs.jsonl`).
   */
  ownsPath(path: string): boolean;
  /** Whether a log's text is this environment's, for a file picked without that layout (its opening turns say). */
  ownsText?(text: string): boolean;
  /**
   * The problems an AgentBoard record can be, by its content (`task_name`: the domain or gym
   * level; `goal`: the goal line): the importer breaks a tie by the record's `id`. A record's `id`
   * alone numbers problems within the run, so a run of a subset numbers them from 0.
   */
  recordTasks?(tasks: readonly TaskInfo[], record: { taskName: string; goal: string }): TaskInfo[];
  /** Our task for an AgentBench sample, from its index and result. */
  sampleTask?(tasks: readonly TaskInfo[], index: unknown, result: Record<string, unknown>): TaskInfo | null;
  /** How upstream's turn that states the problem starts, for a history where our reset observation is not found. */
  problemTurn?: string;
}
