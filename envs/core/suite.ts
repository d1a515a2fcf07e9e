/**
 * The suite contract. A suite is a benchmark as a part: what the benchmark decides about the
 * episodes of the environments it holds — the conversation a model gets (how one step is asked
 * and how the replies become the action), which tasks a run plays and how many times, which
 * score table its episodes count in, and which of its own logs can be read. SmartPlay,
 * AgentBench and AgentBoard are suites (suites/), and so is `custom`, for games from no paper.
 *
 * An environment names the suites it belongs to in its metadata (EnvMeta.suites, the first is
 * its default) and gives each suite's conversation parameters (EnvDefinition.conversation), so
 * one environment can be in two suites. Suites are registered like environments: one folder
 * under suites/ and one line in suites/index.ts.
 */
import type { PromptContext, PromptPlan, ProtocolParams, SamplingDefaults } from './prompts/index.ts';
import type { ChatMessage } from './smartplay.ts';
import type { EnvDefinition, TaskInfo } from './types.ts';

/** An environment's place in a suite, as its catalogue line says it. */
export interface SuiteMembership {
  /** The suite's id (suites/index.ts), e.g. 'agentbench'. */
  suite: string;
  /** The environment's column in the suite's published table (AgentBench 'OS', AgentBoard 'BA'); per task for SmartPlay. */
  column?: string;
}

/** How many episodes a run plays of one task under a suite, and why. */
export interface BatchDefaults {
  /** Episodes (seeds) per task. */
  episodes: number;
  /** True when the suite plays every task of the set (once each), not one task many times. */
  wholeSet: boolean;
  /** Where the numbers come from, for a hint beside the control. */
  why: string;
}

/** The splits a run picks from, where an environment has them (AgentBench's dev and test sets). */
export type Split = 'dev' | 'test';

/**
 * The score tables the scoring module builds (runtime/scores): each suite's episodes count in
 * one. 'plain' is a table of its own per suite: mean score and success rate per task, with
 * intervals and no published rows.
 */
export type ScoreTableKind = 'smartplay' | 'agentbench' | 'agentboard' | 'plain';

/** How a suite lets a request's oldest history be cut when the model's context is exceeded. */
export interface HistoryCut {
  /** The request with its `dropped` oldest history lines left out. */
  cut(messages: readonly ChatMessage[], dropped: number): ChatMessage[];
  /** The next, shorter request after `dropped` lines, or null when nothing is left to cut. */
  next(messages: readonly ChatMessage[], dropped: number): { messages: ChatMessage[]; droppedLines: number } | null;
}

export interface Suite {
  /** Stable id, lower case: what EnvMeta.suites, records and the CLI's --env name. */
  id: string;
  /** The benchmark's own name, for people ('SmartPlay'). */
  name: string;
  /** One line for the catalogue: what the suite is. */
  summary: string;

  // The conversation.
  /** The requests of one step and the action taken from their replies. */
  prompt(ctx: PromptContext, params: ProtocolParams): PromptPlan;
  /** Sampling the suite fixes (a run's own settings override it); the prompt file may set the reply budget. */
  sampling(params: ProtocolParams): SamplingDefaults;
  /**
   * How the suite meets a model whose context is exceeded: a shorter request (SmartPlay lets the
   * API cut its history), or, without it, the episode ends as Context Limit Exceeded.
   */
  historyCut?: HistoryCut;
  /** Its replies span lines (AgentBench's Think/Act with a code block): the CLI then reads a player's replies as JSON Lines. */
  multiLineReplies?: boolean;

  // The plan.
  /** Episodes per task for a run, and whether a run plays the whole set. */
  batchDefaults(task: TaskInfo): BatchDefaults;
  /** The tasks a run of this suite plays for an environment by default (its published set; `split` where the environment has splits). */
  defaultTasks(env: EnvDefinition, split: Split): TaskInfo[];

  // The scores.
  /** The suite scores progress as well as success (AgentBoard's progress rate): a play view shows it from the start. */
  progress: boolean;
  /** The table its episodes count in. */
  table: ScoreTableKind;
  /** The metrics a batch summary shows (names in the table's score records). */
  summaryMetrics: readonly string[];
}

/** Whether an environment's tasks come in dev and test splits. */
export function hasSplits(env: { tasks(): TaskInfo[] }): boolean {
  return env.tasks().some((t) => t.split === 'dev' || t.split === 'test');
}
