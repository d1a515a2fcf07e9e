/**
 * AgentBoard's PDDL environment (README.md, Upstream; metrics: ../core/README.md): gripper, blocksworld, barman
 * and tyreworld, 60 problems, the exact text interface of pddl_env.py.
 *
 * One step:
 *   - text containing "check" (any case) → "Valid actions are: " + the applicable
 *     action texts (sorted; upstream's order is Python set order) + "check valid
 *     actions" (+ "look around" for barman/tyreworld), joined with ", ". Valid.
 *   - text containing "look around" → the full state text. Valid.
 *   - otherwise the text is parsed (text.ts/action.ts); unparsed → INVALID_UNPARSED;
 *     parsed but not applicable, or changing nothing → INVALID_PRECONDITION; else the
 *     action is applied and the observation is the state text (barman/tyreworld:
 *     only the facts the step added), plus " The goal is satisfied." on success.
 * Only the first ACTION_READ_LIMIT characters of a reply are read (the observation then says so).
 * `valid` follows AgentBoard's action_is_valid: help actions and applied actions.
 * progress = the running max of (goal literals true) / (goal literals), updated on
 * applied actions only and 0 until the first one (AgentBoard's `reward` starts at 0);
 * score = progress; reward = 1 on the step that reaches the goal, else 0 (pddlgym's
 * extrinsic reward); the episode terminates when every goal literal holds.
 */
import type { EnvDefinition, Init, Step } from '../core/types.ts';
import { parseAction } from './action.ts';
import { PLAN_LIMITS, findPlan } from './planner.ts';
import { DIFF_DOMAINS, TASKS, grounderOf, type DomainName, type PddlTask } from './problems.ts';
import {
  CHECK_ACTION,
  GOAL_SATISFIED,
  INVALID_PRECONDITION,
  INVALID_UNPARSED,
  LOOK_ACTION,
  goalText as writeGoal,
  literalText,
  pySort,
  stateText,
} from './text.ts';
import { sameState, type GroundAction, type Grounder } from './grounding.ts';
import { pddlMeta } from './meta.ts';
import prompts from './data/pddl_vanilla_prompt.json';

export { TASKS, type PddlTask, type DomainName } from './problems.ts';

export interface PddlState {
  /** Task index, 0..59. */
  task: number;
  /** The true facts, as sorted keys "pred arg1 arg2". */
  facts: readonly string[];
  /** Running max of the fraction of goal literals satisfied (AgentBoard's progress rate). */
  progress: number;
  /** Every goal literal holds. */
  won: boolean;
}

/**
 * How much of a reply is read. AgentBoard's replies are at most 100 tokens (its generation
 * limit), so no upstream reply comes near this; tokenizing a 1 MB reply the nltk way took
 * seconds (every token a string), so a longer reply is read up to here (for "check", "look
 * around" and the action alike) and the observation says so.
 */
export const ACTION_READ_LIMIT = 4000;

/** AgentBoard's step limit for PDDL (eval_configs: max_num_steps 30). */
export const MAX_STEPS = 30;

const PROMPTS = prompts as Record<DomainName, { instruction: string; examples: string[]; system_msg: string }>;

function goalLiterals(g: Grounder) {
  return g.goal.map((x) => ({ key: g.factKeys[x.fact], negated: x.negated }));
}

/** Each goal condition as the goal line words it, and whether it holds now (for the facts view). */
export function goalStatus(task: PddlTask, state: PddlState): { text: string; met: boolean }[] {
  const facts = new Set(state.facts);
  return goalLiterals(grounderOf(task.index)).map((g) => ({ text: literalText(...splitKey(g.key)), met: facts.has(g.key) !== g.negated }));
}

function splitKey(key: string): [string, string[]] {
  const [pred, ...args] = key.split(' ');
  return [pred, args];
}

/** The goal line the agent is given (env._get_goal). */
export function goalText(task: PddlTask): string {
  return writeGoal(goalLiterals(grounderOf(task.index)));
}

/** The observation at reset: the full initial state text. */
export function initialObservation(task: PddlTask): string {
  const g = grounderOf(task.index);
  return stateText(g.keysOfState(g.initial));
}

/** The system message AgentBoard's VanillaAgent sends for this domain. */
export function systemMessage(task: PddlTask): string {
  return PROMPTS[task.domain].system_msg;
}

/**
 * The VanillaAgent user prompt up to the history (agents/vanilla_agent.py make_prompt with
 * need_goal and check_actions "check valid actions", no check_inventory): instruction,
 * "\nHere are examples:\n", each example followed by "\n", the goal line and the help line.
 * The help line's final "\n" is left out: the transcript shows the observations as turns of their own.
 */
export function manual(task: PddlTask): string {
  const p = PROMPTS[task.domain];
  return (
    p.instruction +
    '\nHere are examples:\n' +
    p.examples.map((e) => e + '\n').join('') +
    `You should perform actions to accomplish the goal: ${goalText(task)}\n` +
    `You should use the following commands for help when your action cannot be understood: ${CHECK_ACTION}`
  );
}

const actionTexts = new WeakMap<Grounder, Map<string, string>>();

/** The text of a ground action: the format map applied to its name and objects (memoised per problem). */
function actionText(g: Grounder, a: GroundAction): string {
  let cache = actionTexts.get(g);
  if (!cache) {
    cache = new Map();
    actionTexts.set(g, cache);
  }
  const key = `${a.action} ${a.args.join(' ')}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = literalText(g.actions[a.action].name, a.args.map((o) => g.objects[o]));
    cache.set(key, text);
  }
  return text;
}

/** The applicable action texts of a state, sorted. */
export function validActions(state: PddlState): string[] {
  const g = grounderOf(state.task);
  const view = g.view(g.stateOfKeys(state.facts));
  return pySort(g.applicable(view).map((a) => actionText(g, a)));
}

function goalHolds(g: Grounder, ids: readonly number[]): { satisfied: number; all: boolean } {
  const set = new Set(ids);
  let satisfied = 0;
  for (const x of g.goal) if (set.has(x.fact) !== x.negated) satisfied++;
  return { satisfied, all: satisfied === g.goal.length };
}

function reset(task: PddlTask): Init<PddlState> {
  const g = grounderOf(task.index);
  const facts = g.keysOfState(g.initial);
  return { state: { task: task.index, facts, progress: 0, won: false }, observation: stateText(facts), score: 0 };
}

function step(state: PddlState, text: string): Step<PddlState> {
  const g = grounderOf(state.task);
  const domain = TASKS[state.task].domain;
  const reply = String(text);
  const cut = reply.length > ACTION_READ_LIMIT;
  const note = cut ? ` (The reply has ${reply.length} characters; only the first ${ACTION_READ_LIMIT} were read.)` : '';
  const lower = (cut ? reply.slice(0, ACTION_READ_LIMIT) : reply).toLowerCase();
  const same = (observation: string, valid: boolean, kind: string): Step<PddlState> => ({
    state,
    observation: observation + note,
    reward: 0,
    valid,
    terminated: false,
    truncated: false,
    score: state.progress,
    progress: state.progress,
    info: { kind },
  });
  if (lower.includes('check')) {
    const help = DIFF_DOMAINS.has(domain) ? [CHECK_ACTION, LOOK_ACTION] : [CHECK_ACTION];
    return same('Valid actions are: ' + [...validActions(state), ...help].join(', '), true, 'check');
  }
  if (lower.includes(LOOK_ACTION)) return same(stateText(state.facts), true, 'look');

  const ids = g.stateOfKeys(state.facts);
  const view = g.view(ids);
  const parsed = parseAction(g, view, lower);
  if (!parsed) return same(INVALID_UNPARSED, false, 'unparsed');
  const canonical = actionText(g, parsed);
  if (!g.isApplicable(parsed, view)) return { ...same(INVALID_PRECONDITION, false, 'rejected'), info: { kind: 'rejected', action: canonical } };
  const next = g.apply(ids, parsed);
  // pddl_env: a step that leaves the state as it was is reported as not valid.
  if (sameState(next, ids)) return { ...same(INVALID_PRECONDITION, false, 'rejected'), info: { kind: 'rejected', action: canonical } };

  const facts = g.keysOfState(next);
  const goal = goalHolds(g, next);
  const progress = Math.max(state.progress, g.goal.length === 0 ? 1 : goal.satisfied / g.goal.length);
  let observation: string;
  if (DIFF_DOMAINS.has(domain)) {
    // barman/tyreworld: only the facts this step added (pddl_env.get_goal_and_obs with last_obs).
    const before = new Set(state.facts);
    observation = stateText(facts.filter((f) => !before.has(f)));
  } else observation = stateText(facts);
  if (goal.all) observation += GOAL_SATISFIED;
  observation += note;
  return {
    state: { task: state.task, facts, progress, won: goal.all },
    observation,
    reward: goal.all ? 1 : 0,
    valid: true,
    terminated: goal.all,
    truncated: false,
    score: progress,
    progress,
    info: { kind: 'action', action: canonical },
  };
}

// -- oracle -------------------------------------------------------------------

/** Per task: state key → the rest of a plan from that state (action texts). */
const planCache = new Map<number, Map<string, string[]>>();

const stateKey = (facts: readonly string[]) => facts.join('|');

/**
 * The next action of a plan from this state (planner.ts), or null when the goal
 * holds or no plan was found. A plan found once is remembered for every state along it.
 */
export function oracleAction(state: PddlState): string | null {
  if (state.won) return null;
  let cache = planCache.get(state.task);
  if (!cache) {
    cache = new Map();
    planCache.set(state.task, cache);
  }
  const key = stateKey(state.facts);
  let rest = cache.get(key);
  if (!rest) {
    const g = grounderOf(state.task);
    let ids = g.stateOfKeys(state.facts);
    const { plan } = findPlan(g, ids, MAX_STEPS, PLAN_LIMITS);
    if (!plan || plan.length === 0) return null;
    const texts = plan.map((a) => actionText(g, a));
    for (let i = 0; i < plan.length; i++) {
      cache.set(stateKey(g.keysOfState(ids)), texts.slice(i));
      ids = g.apply(ids, plan[i]);
    }
    rest = texts;
  }
  return rest[0] ?? null;
}

export const pddl: EnvDefinition<PddlState, PddlTask> = {
  ...pddlMeta,
  limitKind: 'limit',
  tasks: () => TASKS as PddlTask[],
  usesSeed: () => false,
  describe: (task) => `${task.domain}: ${goalText(task)}`,
  manual,
  // VanillaAgent sends the domain's system_msg from the prompt file (tasks/pddl.py passes it to run()).
  // The manual is AgentBoard's whole prompt head (instruction, examples, goal, help line); the system message is the domain's prompt file's.
  conversation: (_suite, task) => ({ agentboard: { system_msg: systemMessage(task) } }),
  maxSteps: () => MAX_STEPS,
  reset,
  step,
  validActions,
  success: (state) => state.won,
  endWords: (state, end) =>
    state.won ? 'Every fact of the goal holds: the problem is solved.' : end.finishReason === 'Task Limit Exceeded' ? `The step limit came first, with ${Math.round(state.progress * 100)}% of the goal's facts reached at best.` : null,
  oracleAction,
};
