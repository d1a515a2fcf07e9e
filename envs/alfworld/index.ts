/**
 * ALFWorld (README.md): TextWorld's household games from ALFRED, one engine (world.ts) played under
 * two benchmarks' protocols (protocol.ts), chosen by the task:
 *   - AgentBench House-Holding (`alfworld-std-NN`, `alfworld-dev-NN`): the step takes the model's
 *     raw reply; observations end with the available actions; 35 steps; three identical replies in a
 *     row (after the fourth step) or a reply without "ACTION:" end the sample as Invalid Action.
 *   - AgentBoard ALFWorld (`alfworld-NNN`): the step takes the parsed action; "check valid actions"
 *     and "look" are answered as its wrapper answers them; 30 steps.
 * Both play the original grammar ("put X in/on Y", "You arrive at loc N."), as both benchmarks ran it.
 * success = the game's goal holds (`won`); reward 1 on the step that wins.
 */
import type { EnvDefinition, Init, Step } from '../core/types.ts';
import { AGENTBOARD_DEFAULTS, agentboardPreamble, type OpeningTurn } from '../core/prompts/index.ts';

const CHECK_ACTIONS = AGENTBOARD_DEFAULTS.checkActions;
import { alfworldMeta } from './meta.ts';
import { AGENTBENCH_MAX_STEPS, AGENTBOARD_MAX_STEPS, GAMES, TASKS, loadProblem, worldOf, walkthroughOf, type AlfTask, type Protocol, type Wording } from './games.ts';
import {
  AGENTBENCH_ACK,
  AGENTBENCH_INSTRUCTION,
  agentbenchAction,
  agentboardAction,
  availableActions,
  exampleKey,
  processOb,
} from './protocol.ts';
import { planFrom } from './planner.ts';
import type { WorldState } from './world.ts';
import { groundStartInIdle, warmUpOnce } from './warmup.ts';
import prompts from './data/prompts.json';

export { TASKS, type AlfTask } from './games.ts';

export interface AlfState {
  game: number;
  protocol: Protocol;
  wording: Wording;
  world: WorldState;
  won: boolean;
  /** The admissible commands now, in TextWorld's order. */
  admissible: string[];
  /** TextWorld's last feedback as the game gave it (before either benchmark's processing). */
  text: string;
  /** AgentBoard's env_ob: the last "go to"/"open" result (its answer to "look"). */
  lastSeen: string;
  /** AgentBench: the model's raw replies so far (its repetition rule reads the last three). */
  replies: string[];
  /** AgentBench ended the sample before looking at the game (three identical replies): it scores 0 even if the last one won. */
  failed?: boolean;
  /** Receptacles whose contents were shown (by arriving, opening or examining), for the visual view. */
  seen: string[];
}

const AGENTBENCH_PROMPTS = prompts.agentbench as Record<string, string[]>;
const AGENTBOARD_PROMPT = prompts.agentboard as { examples: Record<string, string[]>; system_msg: string; instruction: string };

const folderOf = (task: AlfTask) => GAMES[task.game].path.split('/')[1];

/** The welcome text without its banner: AgentBench's `ob` ("…you see a cabinet 1, ….\nYour task is to: …"). */
function bodyOf(welcome: string): string {
  return welcome.split('\n\n').slice(1).join('\n');
}

/** AgentBoard's prompt head (VanillaAgent make_prompt with need_goal, check_actions and check_inventory). */
function agentboardManual(task: AlfTask): string {
  const examples = AGENTBOARD_PROMPT.examples[exampleKey(folderOf(task))].join('');
  // The help line's final "\n" is left out, as for PDDL and BabyAI: the transcript shows the observations as turns of their own.
  return agentboardPreamble({ ...AGENTBOARD_PROMPT, examples, goal: task.description ?? '', checkInventory: true }).slice(0, -1);
}

/** AgentBench's opening: instruction, its fixed reply, then the one-shot example of the game's type. */
export function agentbenchOpening(task: AlfTask): OpeningTurn[] {
  const example = [...AGENTBENCH_PROMPTS[exampleKey(folderOf(task))]];
  example[0] = 'Here is one example.\n' + example[0];
  return [
    { role: 'user', content: AGENTBENCH_INSTRUCTION },
    { role: 'assistant', content: AGENTBENCH_ACK },
    ...example.map((content, i): OpeningTurn => ({ role: i % 2 === 0 ? 'user' : 'assistant', content })),
  ];
}

function observe(state: AlfState, feedback: string): string {
  const ob = processOb(feedback);
  return state.protocol === 'agentbench' ? ob + availableActions(state.admissible) : ob;
}

async function reset(task: AlfTask): Promise<Init<AlfState>> {
  await loadProblem(task.game);
  const wording: Wording = 'original';
  const world = worldOf(task.game, wording);
  const start = world.initial;
  const welcome = world.intro(start);
  const body = bodyOf(welcome);
  const state: AlfState = {
    game: task.game,
    protocol: task.protocol,
    wording,
    world: start,
    won: world.won(start),
    admissible: world.admissible(start),
    text: welcome,
    lastSeen: body.split('\n')[0],
    replies: [],
    seen: [],
  };
  const observation = task.protocol === 'agentbench' ? 'Here is your task. ' + body + availableActions(state.admissible) : body.split('\n')[0];
  // In a page only: a CLI run needs no idle-time warm-up, and its timers would outlive a disposed episode.
  if (typeof window !== 'undefined') {
    warmUpOnce(world, start);
    void groundStartInIdle(world, start);
  }
  return { state, observation, score: 0 };
}

/** Receptacles a feedback shows the contents of ("On the desk 1, you see …", "The fridge 1 is open. In it, …"). */
function seenIn(feedback: string): string[] {
  const out: string[] = [];
  for (const m of feedback.matchAll(/(?:On the|The) ([a-z]+ \d+)(?:, you see| is open\. In it, you see)/g)) out.push(m[1]);
  return out;
}

/** Plays one game command (already extracted by the protocol). */
function play(state: AlfState, command: string): { state: AlfState; feedback: string; valid: boolean } {
  const world = worldOf(state.game, state.wording);
  const result = world.play(state.world, command);
  if (!result) return { state: { ...state, text: 'Nothing happens.' }, feedback: 'Nothing happens.', valid: false };
  const won = world.won(result.state);
  const seen = [...new Set([...state.seen, ...seenIn(result.feedback)])];
  return {
    state: { ...state, world: result.state, won, admissible: world.admissible(result.state), text: result.feedback, seen },
    feedback: result.feedback,
    valid: true,
  };
}

function step(state: AlfState, text: string): Step<AlfState> {
  const end = (next: AlfState, observation: string, valid: boolean, extra: Partial<Step<AlfState>> = {}, info: Record<string, unknown> = {}): Step<AlfState> => {
    const winsNow = next.won && !state.won;
    return {
      state: next,
      observation,
      reward: winsNow ? 1 : 0,
      valid,
      terminated: next.won,
      truncated: false,
      score: next.won ? 1 : 0,
      // AgentBoard's reward is 1 once done, else the share of its labelled subgoals reached; the labels
      // are not public, so progress here counts only the finished game (README.md).
      ...(next.protocol === 'agentboard' ? { progress: next.won ? 1 : 0 } : {}),
      info: { text: next.text, ...info },
      ...extra,
    };
  };
  if (state.protocol === 'agentbench') {
    const reply = String(text);
    const replies = [...state.replies, reply];
    const command = agentbenchAction(reply, state.admissible);
    if (command === null || command === '') {
      // process_action found no "ACTION:" (or an empty one): the sample ends (AGENT_INVALID_ACTION).
      return end({ ...state, replies }, 'Your reply has no "ACTION: …" line, so the episode ends (AgentBench: invalid action).', false, { terminated: true, finishReason: 'Invalid Action' }, { kind: 'unparsed' });
    }
    const played = play({ ...state, replies }, command);
    const observation = observe(played.state, played.feedback);
    // task.py: after more than three rounds, three identical replies in a row end the sample.
    const last3 = replies.slice(-3);
    // Checked before `done`, as task.py does: a third identical reply that wins still fails the sample.
    if (replies.length > 3 && last3.every((r) => r === last3[0])) {
      const failed = { ...played.state, failed: true };
      return end(failed, observation, played.valid, { terminated: true, finishReason: 'Invalid Action', reward: 0, score: 0 }, { command, kind: 'repeated' });
    }
    return end(played.state, observation, played.valid, {}, { command });
  }
  // AgentBoard.
  const action = agentboardAction(String(text));
  const valid = action === 'look' || action === CHECK_ACTIONS || state.admissible.includes(action);
  if (action === CHECK_ACTIONS) {
    const list = [...state.admissible, ...(state.admissible.includes('look') ? [] : ['look']), CHECK_ACTIONS];
    return end(state, `Choose an action from these valid actions: ${list.join(', ')}`, true, {}, { command: action, kind: 'check' });
  }
  const played = play(state, action);
  let next = played.state;
  let raw = played.feedback;
  if (action === 'look') raw = state.lastSeen;
  if ((action.includes('go to') || action.includes('open')) && !played.feedback.includes('Nothing happens')) next = { ...next, lastSeen: played.feedback };
  return end(next, processOb(raw), valid, {}, { command: action });
}

/** The next command of a plan from this state, in the state's wording (planner.ts), or null. */
export function oracleCommand(state: AlfState): string | null {
  if (state.won) return null;
  const plan = planFrom(worldOf(state.game, state.wording), state.world, walkthroughOf(state.game, state.wording));
  return plan?.[0] ?? null;
}

export const alfworld: EnvDefinition<AlfState, AlfTask> = {
  ...alfworldMeta,
  asyncStep: true,
  limitKind: 'limit',
  tasks: () => TASKS as AlfTask[],
  usesSeed: () => false,
  describe: (task) => task.description ?? '',
  manual: (task) => (task.protocol === 'agentbench' ? AGENTBENCH_INSTRUCTION : agentboardManual(task)),
  conversation: (suite, task) =>
    suite === 'agentbench'
      ? { agentbench: { opening: agentbenchOpening(task), olderTurnsCut: 'AVAILABLE ACTIONS' } }
      : // tasks/alfworld.py evaluate_env: `action = self.parseAction(action)` comes before both
        // `self.env.step(action)` and `self.agent.update(action=action, …)`, so the memory shows it parsed.
        { agentboard: { system_msg: AGENTBOARD_PROMPT.system_msg, historyAction: agentboardAction } },
  maxSteps: (task) => (task.protocol === 'agentbench' ? AGENTBENCH_MAX_STEPS : AGENTBOARD_MAX_STEPS),
  reset: (task) => reset(task),
  step: async (state, text) => step(state, text),
  // What a player can send as is: AgentBench reads "ACTION: …" from the reply; AgentBoard takes the command (and its help action).
  validActions: (state) => (state.protocol === 'agentbench' ? state.admissible.map((c) => `ACTION: ${c}`) : [...state.admissible, CHECK_ACTIONS]),
  success: (state) => state.won && !state.failed,
  endWords: (state, end) =>
    state.failed
      ? 'The same reply came three times in a row, so AgentBench ended the task (it scores 0).'
      : state.won
        ? 'The task is done: the household goal holds.'
        : end.finishReason === 'Task Limit Exceeded'
          ? 'The step limit came first: the household goal does not hold.'
          : null,
  gameView: (state) => ({ text: state.text, commands: state.admissible }),
  fromCommand: (task, command) => (task.protocol === 'agentbench' ? `ACTION: ${command}` : command),
  oracleAction: (state) => {
    const command = oracleCommand(state);
    if (command === null) return null;
    return state.protocol === 'agentbench' ? `ACTION: ${command}` : command;
  },
};
