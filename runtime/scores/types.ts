/** Shapes shared by the scoring modules. */
import type { BootstrapOptions } from './bootstrap.ts';
import type { EpisodeFacts, Group } from './facts.ts';

/** The tables a suite's episodes count in (envs/core/suite.ts). */
export type { ScoreTableKind } from '../../envs/core/suite.ts';
import type { ScoreTableKind } from '../../envs/core/suite.ts';

/** What scoring needs to know about a task; the caller supplies it (scoring never loads environments). */
export interface TaskMeta {
  /** The suite the task is scored under: its id and its name for tables ('agentbench', 'AgentBench'). */
  suite: string;
  suiteName: string;
  /** The table its episodes count in (the suite's). */
  table: ScoreTableKind;
  /**
   * The task's column in the paper's table: SmartPlay 'Bandit' | 'RPS' | 'Hanoi' | 'MessengerL1' |
   * 'MessengerL2'; AgentBench 'OS' | 'DB'; AgentBoard 'BA' | 'PL'. Absent when the paper has
   * no column for it (e.g. Hanoi4Disk-v0).
   */
  column?: string;
  /** Upstream name for tables, e.g. 'Hanoi4Disk-v0' (defaults to the task id or env id). */
  name?: string;
  /** AgentBoard's per-problem label: 'easy' or 'hard' (anything else is in neither split). */
  difficulty?: string;
  /** AgentBench DB: the row's category (type[0]): other, counting, …, INSERT, UPDATE. */
  category?: string;
}

export type TaskInfoFn = (env: string, task: string) => TaskMeta | undefined;

export type HumanSource = 'recorded' | 'published';

export interface ScoreOptions extends Partial<BootstrapOptions> {
  taskInfo: TaskInfoFn;
  /** SmartPlay's human baseline: the paper's row ('published', the default) or recorded human episodes. */
  humanSource?: HumanSource;
  /** Episode ids the researcher excluded. */
  excluded?: ReadonlySet<string>;
  /** Count only each person's first attempt at a task (by `attempt` where recorded, else the earliest start). */
  firstAttemptOnly?: boolean;
}

/** An episode ready for scoring: its facts, its task's metadata and the groups it counts in. */
export interface Scored {
  facts: EpisodeFacts;
  meta: TaskMeta;
  groups: Group[];
}
