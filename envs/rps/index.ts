/**
 * SmartPlay's Rock Paper Scissors, README.md, Upstream: RockPaperScissorBasic-v0
 * (benchmark v0) and RockPaperScissorDifferentScore-v0.
 * The opponent plays with probabilities (Basic [0.2, 0.2, 0.6]) shuffled together
 * with the winning scores over Rock/Paper/Scissor at reset. score = how many rounds
 * so far played the best response (upstream's expected-score argmax). Never ends
 * by itself: 50-step horizon.
 *
 * DifferentScore: upstream's constructor passes p_dist/r_dist to a constructor that
 * takes probs/reward, so it cannot be built (TypeError). Implemented as its code
 * evidently intends: probabilities [0.3, 0.3, 0.4] with winning scores [1, 2, 1],
 * shuffled together per episode, and the manual rebuilt from the shuffled scores
 * (so it depends on the episode: manual(task, seed)).
 */
import { rpsMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../core/types.ts';
import { describeActions, matchAction } from '../core/smartplay.ts';
import { Rng } from '../core/rng.ts';
import { argmax } from '../core/stats.ts';

export interface RpsTask extends TaskInfo {
  probs: readonly number[];
  rewards: readonly number[];
  /** Part of SmartPlay's benchmark v0 (benchmark_games_v0). */
  benchmarkV0: boolean;
  description: string;
}

export interface RpsState {
  /** Opponent's probability of playing each action, and each action's winning score, shuffled together. */
  probs: readonly number[];
  rewards: readonly number[];
  optimal: number;
  score: number;
  rng: number;
}

export const RPS_ACTIONS = ['Rock', 'Paper', 'Scissor'];
const LOWERED = RPS_ACTIONS.map((a) => a.toLowerCase());

const TASKS: RpsTask[] = [
  {
    id: 'rps-basic',
    name: 'RockPaperScissorBasic-v0',
    probs: [0.2, 0.2, 0.6],
    rewards: [1, 1, 1],
    benchmarkV0: true,
    description: 'The opponent favours one move (60%); every win scores 1.',
  },
  {
    id: 'rps-differentscore',
    name: 'RockPaperScissorDifferentScore-v0',
    probs: [0.3, 0.3, 0.4],
    rewards: [1, 2, 1],
    benchmarkV0: false,
    description:
      'The opponent leans to one move (40%) and one move wins 2 instead of 1. Upstream registers this id but its constructor passes the wrong argument names and cannot run; this is what its code evidently intends.',
  },
];

/** The episode's order of (probability, score) pairs over Rock/Paper/Scissor: one shuffle from the seed. */
function shuffledOrder(rng: Rng): number[] {
  return rng.shuffle([0, 1, 2]);
}

/** Action `a` loses to opponent action `o`: Rock–Paper, Paper–Scissor, Scissor–Rock. */
const loses = (a: number, o: number): boolean => o === (a + 1) % 3;

/** Upstream's expected score of each action against the opponent's distribution; argmax, lowest index on ties. */
export function bestResponse(probs: readonly number[], rewards: readonly number[]): number {
  const expected = [0, 1, 2].map((a) => {
    let e = 0;
    for (let o = 0; o < 3; o++) {
      e += probs[o] * rewards[o];
      if (loses(a, o)) e -= probs[o] * rewards[o];
      else if (a !== o) e += probs[o] * rewards[a];
    }
    return e;
  });
  return argmax(expected);
}

/**
 * The manual for the scores of Rock, Paper, Scissor (in that order; strings stand for scores
 * not yet drawn). Upstream formats the three scores positionally, so its Scissors line shows
 * rewards[1] (Paper's score): invisible in Basic, where every score is 1. For DifferentScore,
 * which upstream cannot build, each line shows that move's own score, as the text intends.
 */
const manual = (rewards: readonly (number | string)[]): string => `For the game Rock Paper Scissors, you and the opponent choose one of three options: rock, paper, or scissors.
After both players have chosen, the winner is determined as follows:
Rock crushes scissors (Rock wins, score ${rewards[0]})
Scissors cut paper (Scissors win, score ${rewards[2]})
Paper covers rock (Paper wins, score ${rewards[1]})
If you lose, your score is the negative of the winner's score.
If both players choose the same option, it's a draw (score 0).
Your goal is to maximize your score.

${describeActions(RPS_ACTIONS)}`;

/**
 * The manual of episode `seed`. Scores that differ between moves are shuffled per episode,
 * so without a seed such a task's manual says so in place of the scores.
 */
export function rpsManual(task: RpsTask, seed?: number): string {
  if (seed !== undefined) {
    const order = shuffledOrder(Rng.fromSeed(seed));
    return manual(order.map((i) => task.rewards[i]));
  }
  const same = task.rewards.every((r) => r === task.rewards[0]);
  return manual(same ? task.rewards : task.rewards.map(() => '(drawn per episode)'));
}

export const rps: EnvDefinition<RpsState, RpsTask> = {
  ...rpsMeta,
  actionList: 'fixed',
  conversation: () => ({ smartplay: { historyWindow: 50 } }),
  limitKind: 'horizon',
  tasks: () => TASKS,
  manual: rpsManual,
  maxSteps: () => 50,

  reset(task, seed): Init<RpsState> {
    const rng = Rng.fromSeed(seed);
    const order = shuffledOrder(rng);
    const probs = order.map((i) => task.probs[i]);
    const rewards = order.map((i) => task.rewards[i]);
    return {
      state: { probs, rewards, optimal: bestResponse(probs, rewards), score: 0, rng: rng.state },
      observation: 'New round begins.',
      score: 0,
    };
  },

  step(state, text): Step<RpsState> {
    const { index: a, matched } = matchAction(text, LOWERED);
    const rng = new Rng(state.rng);
    const o = rng.choice(state.probs);
    const result = loses(a, o) ? 'lost' : a === o ? 'tied' : 'won';
    const reward = result === 'won' ? state.rewards[a] : result === 'lost' ? -state.rewards[o] : 0;
    const score = state.score + (a === state.optimal ? 1 : 0);
    return {
      state: { ...state, score, rng: rng.state },
      observation: `You chose ${RPS_ACTIONS[a]}, and the opponent chose ${RPS_ACTIONS[o]}. You ${result} and received score ${reward}.\nNew round begins.`,
      reward,
      valid: matched,
      terminated: false,
      truncated: false,
      score,
      info: { action: a, opponent: o, result, matched, optimal: state.optimal },
    };
  },

  validActions: () => [...RPS_ACTIONS],
  maxScore: () => 50,
  endWords: (state, end) =>
    end.finishReason === 'Complete' ? `All ${end.steps} rounds are played: ${end.score} times you chose ${RPS_ACTIONS[state.optimal]}, the best answer to this opponent's habits.` : null,
  success: () => null,
  // Privileged: knows the opponent's bias.
  oracleAction: (state) => RPS_ACTIONS[state.optimal],
};
