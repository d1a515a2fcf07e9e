/**
 * SmartPlay's MESSENGER (MessengerL1-v0, L2, L3 = messenger-emma's msgr-test-v1..3),
 * README.md, Upstream. Rules: engine.ts; observation text: text.ts; manual: manual.ts;
 * levels and tasks: levels.ts; the privileged oracle: oracle.ts.
 *
 * score = the last step's reward (SmartPlay's info['score'] is not cumulative);
 * success = the episode ended on reward 1. The manual differs per episode (its
 * sentences are drawn from the seed), so `manual(task, seed)` gives an episode's
 * manual; without a seed it gives the manual's frame with a placeholder line.
 */
import { messengerMeta } from './meta.ts';
import type { EnvDefinition, Init, Step } from '../core/types.ts';
import { matchAction } from '../core/smartplay.ts';
import { Rng } from '../core/rng.ts';
import { MESSENGER_ACTIONS, type MessengerState } from './entities.ts';
import { stageOneStep, vgdlTick } from './engine.ts';
import { observe, stepObservation } from './text.ts';
import { composeManual } from './manual.ts';
import { MESSENGER_TASKS, STEP_LIMITS, newEpisode, type MessengerTask } from './levels.ts';
import { oracleMove } from './oracle.ts';

export type { MessengerState, MessengerEvent, Npc } from './entities.ts';
export type { MessengerTask } from './levels.ts';
export { MESSENGER_ACTIONS } from './entities.ts';

const LOWERED = MESSENGER_ACTIONS.map((a) => a.toLowerCase());

/** Shown by manual(task) when no seed says which episode's sentences to show. */
export const MANUAL_PLACEHOLDER = '[The entity descriptions are drawn for each episode from its seed.]';

/** The start state of an episode. */
export function messengerReset(task: MessengerTask, seed: number): MessengerState {
  return newEpisode(task.level, Rng.fromSeed(seed));
}

/** The manual of the episode `seed` of `task` (what SmartPlay's reset puts in info['manual']). */
export function messengerManual(task: MessengerTask, seed?: number): string {
  return composeManual(seed === undefined ? [MANUAL_PLACEHOLDER] : messengerReset(task, seed).sentences);
}

export const messenger: EnvDefinition<MessengerState, MessengerTask> = {
  ...messengerMeta,
  actionList: 'fixed',
  conversation: () => ({ smartplay: { historyWindow: 2 } }),
  limitKind: 'limit',
  tasks: () => [...MESSENGER_TASKS],
  manual: messengerManual,
  maxSteps: (task) => STEP_LIMITS[task.level],

  reset(task, seed): Init<MessengerState> {
    const state = messengerReset(task, seed);
    return { state, observation: observe(state), score: 0 };
  },

  step(state, text): Step<MessengerState> {
    const { index, matched } = matchAction(text, LOWERED);
    let next: MessengerState;
    if (state.level === 1) {
      next = stageOneStep(state, index).state;
    } else {
      const rng = new Rng(state.rng);
      next = vgdlTick(state, index, rng).state;
    }
    return {
      state: next,
      observation: stepObservation(next, index),
      reward: next.reward,
      valid: matched,
      terminated: next.done,
      truncated: false,
      score: next.reward,
      info: { action: index, matched, events: next.events },
    };
  },

  validActions: () => [...MESSENGER_ACTIONS],
  success: (state) => state.done && state.reward === 1,
  endWords: (state, end) => {
    if (!state.done) return end.finishReason === 'Task Limit Exceeded' ? `The step limit came first: ${state.hasMessage ? 'you held the message but did not deliver it' : 'you never picked up the message'}.` : null;
    const event = state.events.at(-1);
    if (event?.kind === 'delivered') return `You brought the message to the ${event.entity}, the goal: delivered.`;
    if (event?.kind === 'picked-up') return `You picked up the message (the ${event.entity}): this stage ends there.`;
    if (event?.kind === 'message-again') return `You walked into the ${event.entity} again while already holding the message.`;
    if (event?.kind === 'killed' && event.by === 'enemy') return `The ${event.entity}, the enemy, caught you.`;
    if (event?.kind === 'killed') return `You reached the ${event.entity}, the goal, without the message.`;
    return null;
  },
  // Privileged: knows every entity's role and movement type.
  oracleAction: (state) => MESSENGER_ACTIONS[oracleMove(state)],
};
