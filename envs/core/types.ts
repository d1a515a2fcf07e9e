import type { ProtocolParams } from './prompts/index.ts';
import type { SuiteMembership } from './suite.ts';

/**
 * The environment contract. An environment is pure logic (no DOM): the episode
 * machine (episode.ts) drives it, and drivers (human UI, model, scripts) only
 * ever send raw action text.
 */

/**
 * Why an episode ended, named as AgentBench names its sample statuses
 * ("Given Up" is ours: a person or driver stopped early with GIVE_UP;
 * "Task Error" is AgentBench's name for an environment that failed to start).
 */
export type FinishReason =
  | 'Complete'
  | 'Invalid Format'
  | 'Invalid Action'
  | 'Task Limit Exceeded'
  | 'Context Limit Exceeded'
  | 'Given Up'
  | 'Task Error';

export const FINISH_REASONS: readonly FinishReason[] = [
  'Complete',
  'Invalid Format',
  'Invalid Action',
  'Task Limit Exceeded',
  'Context Limit Exceeded',
  'Given Up',
  'Task Error',
];

/** How an episode ended, as an environment's endWords reads it. */
export interface EpisodeEnd {
  finishReason: FinishReason;
  success: boolean | null;
  score: number;
  steps: number;
}

/** One playable problem of an environment. */
export interface TaskInfo {
  /** Stable, human-readable id, e.g. `hanoi-3`. */
  id: string;
  /** Upstream name, e.g. `Hanoi3Disk-v0`. */
  name: string;
  /** A short title for lists, where the upstream name is only an index (e.g. AgentBench OS's `std-007-bootstrap-00087`); lists show `name` without it. */
  title?: string;
  difficulty?: string;
  /** One or two sentences for the catalogue (the task's question or goal), where the data has one. */
  description?: string;
  /** The task is in its benchmark's published configuration (SmartPlay's benchmark v0 games). */
  benchmarkV0?: boolean;
  /**
   * The benchmark's split the task is in, where it has splits (AgentBench OS and DB: 'dev', 'test';
   * an imported task file's tasks say so, e.g. 'custom', 'file'): filters, plans and scores read it.
   */
  split?: string;
  /**
   * The one suite this task is played and scored under, where its environment is in several and
   * the task belongs to one of them (ALFWorld: AgentBench's House-Holding lists, AgentBoard's set).
   */
  suite?: string;
  /** The task's category, where its benchmark scores by category (AgentBench DB: other, counting, …, INSERT, UPDATE). */
  category?: string;
  /** Topics the benchmark labels the task with (AgentBench OS: file, process, user, …): not a difficulty. */
  tags?: readonly string[];
  /** Other words people look the task up by, e.g. a domain's usual spelling ("blocksworld" for AgentBoard's "blockworld"). */
  keywords?: readonly string[];
}

/** What reset returns: the first observation and the state the env keeps. */
export interface Init<S> {
  state: S;
  observation: string;
  score: number;
}

/** What one step returns. `step` never throws on bad text: it returns `valid: false`. */
export interface Step<S> {
  state: S;
  observation: string;
  reward: number;
  /** False when the text was not understood or the move was illegal (the benchmark's own notion). */
  valid: boolean;
  /** The episode ended by the game's own rules (e.g. Hanoi solved). */
  terminated: boolean;
  /** The episode was cut off (the machine sets this when the step limit is reached). */
  truncated: boolean;
  score: number;
  progress?: number;
  /** Set when the benchmark ends the episode on this step for a reason of its own (e.g. Invalid Format). */
  finishReason?: FinishReason;
  /** Small JSON-safe facts about the step (matched action index, opponent move, ...). */
  info?: Record<string, unknown>;
}

/** What the catalogue shows before an environment's code is loaded (each env's meta.ts). */
export interface EnvMeta {
  id: string;
  title: string;
  /** The suites (benchmarks) its tasks belong to (suites/index.ts); the first is the one it plays under unless told. */
  suites: readonly SuiteMembership[];
  /** One line for the catalogue. */
  summary: string;
  /** What the score means, in a sentence or two for people (shown beside the score). */
  scoreRule?: string;
  /**
   * Why its episodes may not replay exactly from seed and actions (a wall-clock time limit, a real
   * machine), for environments where they may not; absent: they replay exactly. Verifying on
   * import checks only environments without it unless asked (src/lib/importExtras.ts).
   */
  inexactReplay?: string;
}

/** How a person looks at an episode. text: what a model sees; visual: a drawing showing no more than the text; full: the whole map (annotators, demos). */
export type ViewKind = 'text' | 'visual' | 'full';

/** Who took a step: a person, or a driver (a model, a scripted policy). Recorded on every step. */
export type ActorKind = 'human' | 'model' | 'random' | 'oracle' | 'script';
export interface Actor {
  kind: ActorKind;
  /** A model's name, a policy's name ("random policy"), a participant id; never an API key. */
  name?: string;
}

/** What a per-step display needs; both live history entries and stored step records have it. */
export interface StepSummary {
  t: number;
  reward: number;
  score: number;
  info?: Record<string, unknown>;
}

/** A step summary with what the environment answered (terminal and console views). */
export type ObservedStep = StepSummary & { observation: string };

// ---------------------------------------------------------------------------
// The contract, by concern. An environment is all four (plus its catalogue metadata).

/** The game: the rules, from a task and a seed to observations. Pure, no DOM. */
interface GameBase<S, T extends TaskInfo> {
  /**
   * Exactly the text the benchmark shows as the manual/instruction. Where it differs per
   * episode (MESSENGER draws its sentences from the seed) the episode's seed is given.
   */
  manual(task: T, seed?: number): string;
  /** The benchmark's step limit for this task. */
  maxSteps(task: T): number;
  /**
   * 'horizon': the step limit is the game's length (SmartPlay Bandits/RPS never end by themselves),
   * so reaching it completes the episode; 'limit': running out means Task Limit Exceeded.
   */
  limitKind: 'horizon' | 'limit';
  validActions(state: S): string[];
  /**
   * 'fixed': validActions is the game's whole action list, and a move may be illegal now (SmartPlay's
   * games); 'applicable' (the default): what can be done now, each one accepted.
   */
  actionList?: 'fixed' | 'applicable';
  /** The highest score this task allows (Hanoi: its disks; Bandits: one per pull), shown beside the score; absent where the score has no ceiling. */
  maxScore?(task: T): number;
  /**
   * What happened at the end, in the game's own words ("All 3 disks are on rod C.", "The dog, the
   * enemy, caught you."), for the outcome a person reads; null leaves the general words for the finish reason.
   */
  endWords?(state: S, end: EpisodeEnd, task: T): string | null;
  /** Whether the final state counts as success; null where the benchmark defines none. */
  success(state: S): boolean | null;
  /** Release a resource held by the state (database, shell) when the episode ends. */
  dispose?(state: S): void;
  /** Why an episode with these actions may not replay exactly from its seed (verification notes it), or null. */
  replayCaveat?(actions: readonly string[]): string | null;
  /**
   * Interchangeable engines the episodes can run on (the OS task's shells), where there is a choice:
   * the CLI's --shell picks one through the environment's Node side (EnvNode.useBackend); the
   * header's `shell` records the one an episode ran on (backendOf).
   */
  backends?: { readonly ids: readonly string[]; readonly default: string };
  /**
   * The game below the benchmark's protocol, where there is one (ALFWorld: TextWorld's feedback and
   * admissible commands before AgentBench's or AgentBoard's processing): the CLI's `text` and
   * `--valid-actions` print it.
   */
  gameView?(state: S): { text: string; commands: string[] };
  /** The reply that plays one of the game's own commands under the task's protocol (the CLI's `--input raw` for such games). */
  fromCommand?(task: T, command: string): string;
  /** Which backend this episode runs on (the OS task's shell: embedded, webcontainer, linux), for its record's header. */
  backendOf?(state: S): 'embedded' | 'webcontainer' | 'linux' | undefined;
  /**
   * Starts what `reset(task, seed)` will need, when it is known that it will likely come soon (a
   * pointer on a task's Play link, a study's next task), so that reset finds it made: the OS task's
   * shell and its init scripts. The episode is the one a reset alone gives. At most one is kept.
   */
  prepare?(task: T, seed: number): void;
}

/** A game whose steps are plain function calls (the episode machine steps it in place). */
export interface SyncGame<S, T extends TaskInfo> extends GameBase<S, T> {
  asyncStep?: false;
  reset(task: T, seed: number): Init<S>;
  step(state: S, text: string): Step<S>;
}

/** A game whose reset and steps wait on a resource (a shell, a database worker); `signal` aborts a step. */
export interface AsyncGame<S, T extends TaskInfo> extends GameBase<S, T> {
  asyncStep: true;
  reset(task: T, seed: number): Promise<Init<S>>;
  step(state: S, text: string, signal?: AbortSignal): Promise<Step<S>>;
}

export type Game<S, T extends TaskInfo> = SyncGame<S, T> | AsyncGame<S, T>;

/** The task list: the playable problems, and tasks beyond the list (custom seeds, imported files). */
export interface Tasks<T extends TaskInfo> {
  tasks(): T[];
  /** A task beyond tasks() from its id (e.g. BabyAI's `babyai-GoToRedBall-seed42`), or null. */
  resolveTask?(id: string): T | null;
  /**
   * Bring-your-own tasks: parse a file in the benchmark's own task format, register its
   * tasks (tasks() and resolveTask then know them) and return them. Throws an Error whose
   * message names the bad entry. `resolveFile` reads files the task file refers to.
   * `prefix` starts every task id (`<prefix>-NN`): callers give each file its own
   * (runtime/taskFiles.ts taskIdPrefix), so two files' tasks never share an id.
   */
  importTasks?(text: string, resolveFile?: (path: string) => string | undefined, options?: { prefix?: string }): T[];
  /** Whether the episode seed changes this task (default true); a task with its own fixed problem ignores it. */
  usesSeed?(task: T): boolean;
  /** A sentence for the catalogue when the task has no `description` (e.g. a mission computed from its start state). */
  describe?(task: T): string;
  /** The answer the benchmark expects, for an outcome that says it after a wrong answer (null where it has none to show). */
  expectedAnswer?(task: T): string | null;
}

/** The harness: what each of its suites needs to show the game to a model. */
export interface Harness<T extends TaskInfo> {
  /**
   * What suite `suite`'s conversation needs beyond the manual for this task (SmartPlay's history
   * window, AgentBoard's prompt file and goal, AgentBench's opening turns).
   */
  conversation(suite: string, task: T): ProtocolParams;
}

/** The oracle: a privileged policy that sees the hidden state; gives the ceiling line for the task. */
export interface Oracle<S, T extends TaskInfo> {
  /** The action text an oracle plays next, or null when it has none (no plan). */
  oracleAction?(state: S, task: T): string | null;
}

export type EnvDefinition<S = any, T extends TaskInfo = TaskInfo> = EnvMeta & Game<S, T> & Tasks<T> & Harness<T> & Oracle<S, T>;

/** An environment's own benchmark for `npm run bench` (Node): printed lines of figures. */
export interface EnvBench {
  title: string;
  run(seconds: number): Promise<string[]>;
}
