/**
 * SmartPlay's Crafter (Crafter-v0, README.md): crafter's rules (engine/), SmartPlay's text
 * (text.ts), manual and action list (manual.ts), the scripted player (oracle.ts).
 *
 * One task, `crafter`: `Crafter-v0` made with `seed = S` plays its first episode, whose world
 * seed is hash((S, 1)) % (2^31 − 1) (the engine's createCrafter). SmartPlay's reset takes one
 * noop of its own, so an episode is at most 9,999 agent steps; the history window is 2, and
 * the history starts with that noop's observation ("You took action noop." before the reset
 * observation), numbered step 0.
 *
 * score = SmartPlay's tracker: each step adds the number of achievements unlocked so far
 * (not the reward sum); the episode's score is its last step's. There is no success: SmartPlay
 * reports `completed` 0 for Crafter.
 */
import { crafterMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../core/types.ts';
import { matchAction } from '../core/smartplay.ts';
import { CRAFTER_ACTIONS, CRAFTER_MANUAL } from './manual.ts';
import { describeFrame } from './text.ts';
import { advance, startState, viewOf, CRAFTER_LENGTH, type CrafterState } from './state.ts';
import { oracleMove } from './oracle.ts';

export type { CrafterState } from './state.ts';
export { viewOf } from './state.ts';
export { CRAFTER_ACTIONS, CRAFTER_MANUAL } from './manual.ts';

const LOWERED = CRAFTER_ACTIONS.map((a) => a.toLowerCase());

export const CRAFTER_TASK: TaskInfo = {
  id: 'crafter',
  name: 'Crafter-v0',
  difficulty: 'open world',
  description: 'Unlock the 22 achievements, the earlier the better.',
  benchmarkV0: true,
};

/** What SmartPlay's tracker holds before the reset observation: the reset's own noop step, this line first. */
export const RESET_NOOP_PREFIX = 'You took action noop.\n\n';

export const crafter: EnvDefinition<CrafterState, TaskInfo> = {
  ...crafterMeta,
  actionList: 'fixed',
  conversation: () => ({ smartplay: { historyWindow: 2, internalStepPrefix: RESET_NOOP_PREFIX } }),
  limitKind: 'horizon',
  tasks: () => [CRAFTER_TASK],
  manual: () => CRAFTER_MANUAL,
  maxSteps: () => CRAFTER_LENGTH,

  reset(_task, seed): Init<CrafterState> {
    const state = startState(seed);
    return { state, observation: describeFrame(viewOf(state), null), score: state.score };
  },

  step(state, text): Step<CrafterState> {
    const { index, matched } = matchAction(text, LOWERED);
    const { state: next, result } = advance(state, index);
    const { info } = result;
    const unlocked = [...result.unlocked].sort();
    return {
      state: next,
      observation: describeFrame(viewOf(next), index),
      reward: result.reward,
      valid: matched,
      terminated: result.done,
      truncated: false,
      score: next.score,
      info: {
        action: index,
        matched,
        achievements: { ...info.achievements },
        inventory: { ...info.inventory },
        ...(unlocked.length > 0 ? { unlocked } : {}),
        discount: info.discount,
        player_pos: [info.player_pos[0], info.player_pos[1]],
      },
    };
  },

  validActions: () => [...CRAFTER_ACTIONS],
  endWords: (state, end) =>
    end.finishReason !== 'Complete' ? null : state.length < CRAFTER_LENGTH ? `You died after ${state.length} steps.` : `You survived all ${CRAFTER_LENGTH.toLocaleString('en-US')} steps.`,
  success: () => null,
  // Privileged: reads the whole map, not only the 9×7 window.
  oracleAction: (state) => CRAFTER_ACTIONS[oracleMove(viewOf(state))],
};
