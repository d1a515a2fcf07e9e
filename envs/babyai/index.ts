/**
 * BabyAI as AgentBoard runs it (README.md, Upstream; metrics: ../core/README.md): minigrid 2.3.0 rules
 * (step.ts, view.ts, verifier.ts), AgentBoard's text layer (text.ts, highlevel.ts,
 * session.ts) and subgoal progress (progress.ts), on the 112 problems of
 * AgentBoard's test set (28 levels × seeds 1234–1237, start states in data/layouts.json).
 *
 * Step fields: `score` and `progress` = AgentBoard's progress rate; `reward` = its
 * increase on this step; `terminated` = AgentBoard's done flag (= success);
 * `valid` = infos["action_is_valid"]. The 30-turn limit is the machine's (maxSteps).
 * reset's seed is ignored: each problem has its own fixed seed.
 */
import { babyaiMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../core/types.ts';
import testRows from './data/agentboard-babyai-test.json';
import solutionsJson from './data/solutions.json';
import prompt from './data/prompt.json';
import { agentboardGoal } from './layout.ts';
import { generateLevel } from './levels.ts';
import { FAITHFUL, type TextOptions } from './highlevel.ts';
import { stepWorld, type World } from './step.ts';
import { plannerOracle } from './planner.ts';
import { NOT_RECOGNIZED, startSession, stepSession, type SessionState } from './session.ts';

export interface BabyAITask extends TaskInfo {
  /** AgentBoard problem id 0–111; -1 for a level × seed of the user's own (see babyaiCustomTask). */
  index: number;
  envId: string;
  seed: number;
}

export interface BabyAIState extends SessionState {
  readonly index: number;
  /** Where the current world lies on the stored solution's trajectory (low-level step index), or -1; used by the oracle. */
  readonly solutionCursor: number;
}

interface TestRow {
  id: number;
  subtask: string;
  difficulty: string;
  subgoals: string[][];
  multi: boolean;
}

/** AgentBoard's BabyAI levels in its problem order (game_level 1–21, 24, 25, 27, 28, 29, 31, 32), four seeds each. */
export const BABYAI_LEVELS: readonly string[] = [
  'GoToRedBallGrey',
  'GoToRedBall',
  'GoToRedBallNoDists',
  'GoToObjS6',
  'GoToLocalS8N7',
  'GoToObjMazeS7',
  'GoToImpUnlock',
  'GoToSeqS5R2',
  'GoToRedBlueBall',
  'GoToDoor',
  'GoToObjDoor',
  'Open',
  'OpenRedDoor',
  'OpenDoorLoc',
  'OpenRedBlueDoorsDebug',
  'OpenDoorsOrderN4Debug',
  'Pickup',
  'UnblockPickup',
  'PickupLoc',
  'PickupDistDebug',
  'PickupAbove',
  'Unlock',
  'UnlockLocalDist',
  'UnlockPickupDist',
  'BlockedUnlockPickup',
  'UnlockToUnlock',
  'FindObjS7',
  'KeyCorridorS6R3',
].map((name) => `BabyAI-${name}-v0`);

const ROWS = testRows as TestRow[];
const SOLUTIONS = (solutionsJson as string[]).map((s) => Array.from(s, Number));

const TASKS: BabyAITask[] = Array.from({ length: BABYAI_LEVELS.length * 4 }, (_, k) => {
  const envId = BABYAI_LEVELS[k >> 2];
  const seed = 1234 + (k % 4);
  return { id: `babyai-${k}`, name: `${envId} seed ${seed}`, difficulty: ROWS[k].difficulty, index: k, envId, seed };
});

const starts = new Map<string, { world: World; mission: string }>();

/** A level's start state for a seed (generated once, then shared: worlds are immutable). */
function startOf(envId: string, seed: number): { world: World; mission: string } {
  const key = `${envId}#${seed}`;
  let s = starts.get(key);
  if (!s) {
    const g = generateLevel(envId, seed);
    s = { world: g.world, mission: g.mission };
    starts.set(key, s);
  }
  return s;
}

/** The problem's start state. */
export function babyaiStart(index: number): { world: World; mission: string } {
  return startOf(TASKS[index].envId, TASKS[index].seed);
}

/**
 * Any level × seed as a task: `babyai-<Level>-seed<N>`, e.g. `babyai-GoToRedBall-seed42`
 * (Level as in BabyAI-<Level>-v0, one of the 28 AgentBoard levels). AgentBoard annotated
 * subgoals only for its 112 problems, so such a task has one subgoal, reached when
 * minigrid ends the episode (AgentBoard then says "The task is completed."): its
 * progress is 0 or 1.
 */
export function babyaiCustomTask(id: string): BabyAITask | null {
  const m = /^babyai-([A-Za-z0-9]+)-seed(\d{1,9})$/.exec(id);
  if (!m) return null;
  const envId = `BabyAI-${m[1]}-v0`;
  if (!BABYAI_LEVELS.includes(envId)) return null;
  const seed = Number(m[2]);
  return { id, name: `${envId} seed ${seed}`, difficulty: 'custom', index: -1, envId, seed };
}

const CUSTOM_SUBGOALS: string[][] = [['The task is completed']];

/** The goal AgentBoard shows: the mission with "then" / "after you" read as "and". */
export function babyaiGoal(task: BabyAITask): string {
  return agentboardGoal(startOf(task.envId, task.seed).mission);
}

export const BABYAI_SYSTEM_MESSAGE: string = prompt.system_msg;

/**
 * The VanillaAgent prompt head for a problem: instruction, "Here are examples:" and the
 * example, the goal line and the two help lines (check valid actions, inventory), as
 * AgentBoard's make_prompt builds it, without the final newline before the history.
 */
export function babyaiManual(task: BabyAITask): string {
  let q = prompt.instruction;
  q += '\nHere are examples:\n';
  for (const ex of prompt.examples) q += ex + '\n';
  q += `You should perform actions to accomplish the goal: ${babyaiGoal(task)}\n`;
  q += 'You should use the following commands for help when your action cannot be understood: check valid actions\n';
  q += 'You should use the following commands for help when your action cannot be understood: inventory';
  return q;
}

/** A key for a world: pose, carried object, every cell (object and door state) and the verifier's state. */
function worldKey(w: World): string {
  let cells = '';
  for (const c of w.grid.cells) cells += c ? `${c.id}${c.state ? c.state[0] : ''},` : ',';
  return `${w.agentPos[0]},${w.agentPos[1]},${w.agentDir}|${w.carrying?.id ?? 0}|${JSON.stringify(w.verifier)}|${cells}`;
}

const solutionTrajectories = new Map<number, Map<string, number>>();

/** The last index k such that the world equals the state after k low-level steps of the stored solution, or -1. */
function solutionIndex(index: number, w: World): number {
  if (index < 0) return -1;
  let keys = solutionTrajectories.get(index);
  if (!keys) {
    keys = new Map();
    let world = babyaiStart(index).world;
    keys.set(worldKey(world), 0);
    SOLUTIONS[index].forEach((a, k) => {
      world = stepWorld(world, a).world;
      keys!.set(worldKey(world), k + 1);
    });
    solutionTrajectories.set(index, keys);
  }
  return keys.get(worldKey(w)) ?? -1;
}

function sameList(a: readonly number[], b: readonly number[], offset: number): boolean {
  if (offset + a.length > b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[offset + k]) return false;
  return true;
}

/** Build the environment; `options.faithfulErrors` false prints door indices instead of AgentBoard's dict. */
export function makeBabyAI(options: TextOptions = FAITHFUL): EnvDefinition<BabyAIState, BabyAITask> {
  function doStep(state: BabyAIState, text: string): Step<BabyAIState> {
    const r = stepSession(state, typeof text === 'string' ? text : String(text), options);
    const cursor = r.executed.length > 0 ? solutionIndex(state.index, r.state.world) : state.solutionCursor;
    const next: BabyAIState = { ...r.state, index: state.index, solutionCursor: cursor };
    const progress = next.progress.progress;
    return {
      state: next,
      observation: next.observation,
      reward: progress - state.progress.progress,
      valid: r.valid,
      terminated: next.done,
      truncated: false,
      score: progress,
      progress,
      info: {
        executed: r.executed,
        stepCount: next.world.stepCount,
        minigridReward: r.lowReward,
        minigridTerminated: r.lowTerminated,
        minigridTruncated: r.lowTruncated,
      },
    };
  }

  return {
    ...babyaiMeta,
    limitKind: 'limit',
    tasks: () => TASKS,
    // Each problem (and each babyai-<Level>-seed<N>) carries its own seed; the episode's is not used.
    usesSeed: () => false,
    describe: (task) => `Mission: ${startOf(task.envId, task.seed).mission}.`,
    manual: babyaiManual,
    // VanillaAgent sends the prompt file's system_msg (init_prompt_path), not its default.
    // The manual is AgentBoard's whole prompt head (instruction, examples, goal, help lines); the system message is the prompt file's.
    conversation: () => ({ agentboard: { system_msg: BABYAI_SYSTEM_MESSAGE } }),
    maxSteps: () => 30,

    reset(task): Init<BabyAIState> {
      const index = task.index;
      const row = index >= 0 ? ROWS[index] : { subgoals: CUSTOM_SUBGOALS, multi: false };
      const session = startSession(startOf(task.envId, task.seed).world, row.subgoals, row.multi, options);
      return { state: { ...session, index, solutionCursor: solutionIndex(index, session.world) }, observation: session.observation, score: 0 };
    },

    step(state, text): Step<BabyAIState> {
      try {
        return doStep(state, text);
      } catch (err) {
        // Not expected; step never throws.
        return {
          state,
          observation: NOT_RECOGNIZED,
          reward: 0,
          valid: false,
          terminated: state.done,
          truncated: false,
          score: state.progress.progress,
          progress: state.progress.progress,
          info: { error: err instanceof Error ? err.message : String(err) },
        };
      }
    },

    resolveTask: babyaiCustomTask,
    validActions: (state) => state.actions.map(([name]) => name),
    success: (state) => state.done,
    endWords: (state, end, task) =>
      state.done ? `Mission accomplished: ${startOf(task.envId, task.seed).mission}.` : end.finishReason === 'Task Limit Exceeded' ? `The step limit came first; the mission was: ${startOf(task.envId, task.seed).mission}.` : null,
    oracleAction: (state) => oracle(state, doStep),
  };
}

/**
 * The oracle: the planner's (planner.ts: a search of its own over the whole world,
 * re-planned when the world leaves the plan; 111 of 112 within 30 turns). When it has
 * no answer: while the world follows the stored solution, the available action
 * whose low-level list covers the most of the solution's next actions (and runs in
 * full); otherwise, or once the solution is used up, a short breadth-first search
 * over high-level actions for one that finishes the task, then one that raises the progress.
 */
function oracle(state: BabyAIState, doStep: (s: BabyAIState, t: string) => Step<BabyAIState>): string | null {
  if (state.done) return null;
  const planned = plannerOracle(state, doStep);
  if (planned !== null) return planned;
  const sol = state.index >= 0 ? SOLUTIONS[state.index] : [];
  const names = state.actions.filter(([name]) => name !== 'check available actions');
  if (state.solutionCursor >= 0 && state.solutionCursor < sol.length) {
    // Prefer the action that lands farthest along the solution's trajectory ...
    let best: string | null = null;
    let bestAt = state.solutionCursor;
    for (const [name] of names) {
      const r = doStep(state, name);
      if (r.terminated) return name;
      if (r.state.solutionCursor > bestAt) {
        best = name;
        bestAt = r.state.solutionCursor;
      }
    }
    if (best !== null) return best;
    // ... else one that follows its next low-level actions.
    let bestLen = 0;
    for (const [name, list] of names) {
      if (list.length <= bestLen || !sameList(list, sol, state.solutionCursor)) continue;
      const r = doStep(state, name);
      if ((r.info?.executed as number[]).length !== list.length) continue;
      best = name;
      bestLen = list.length;
    }
    if (best !== null) return best;
  }
  return searchAhead(state, doStep, 3);
}

function searchAhead(start: BabyAIState, doStep: (s: BabyAIState, t: string) => Step<BabyAIState>, depth: number): string | null {
  let frontier: { state: BabyAIState; first: string }[] = [{ state: start, first: '' }];
  let bestGain: { first: string; progress: number } | null = null;
  const seen = new Set<string>();
  for (let d = 0; d < depth; d++) {
    const next: { state: BabyAIState; first: string }[] = [];
    for (const node of frontier) {
      for (const [name] of node.state.actions) {
        if (name === 'check available actions') continue;
        const r = doStep(node.state, name);
        const first = node.first || name;
        if (r.terminated) return first;
        if (r.state.progress.progress > start.progress.progress && (!bestGain || r.state.progress.progress > bestGain.progress)) {
          bestGain = { first, progress: r.state.progress.progress };
        }
        const w = r.state.world;
        const key = `${w.agentPos}|${w.agentDir}|${w.carrying?.id ?? 0}|${w.grid.cells.map((c) => (c ? c.id * 4 + (c.state === 'open' ? 1 : c.state === 'locked' ? 2 : 0) : 0)).join(',')}|${r.state.progress.points}`;
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ state: r.state, first });
      }
    }
    frontier = next;
    if (frontier.length > 4000) break;
  }
  return bestGain ? bestGain.first : null;
}

export const babyai: EnvDefinition<BabyAIState, BabyAITask> = makeBabyAI(FAITHFUL);
