/**
 * SmartPlay's two-armed bandits, README.md, Upstream: BanditTwoArmedHighLowFixed-v0
 * (benchmark v0) and the other ids upstream registers: DeterministicFixed,
 * HighHighFixed, LowLowFixed (same game, other payout probabilities).
 * Arms pay 1 with probability p (else -1); the arm order is shuffled at reset.
 * score = how many pulls so far chose the optimal arm (argmax of p*r - (1-p)).
 * The game never ends by itself: the 50-step horizon is the driver's.
 */
import { banditsMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../core/types.ts';
import { describeActions, matchAction } from '../core/smartplay.ts';
import { Rng } from '../core/rng.ts';
import { argmax } from '../core/stats.ts';

export interface BanditTask extends TaskInfo {
  p: readonly number[];
  r: readonly number[];
  /** Part of SmartPlay's benchmark v0 (benchmark_games_v0). */
  benchmarkV0: boolean;
  description: string;
}

export interface BanditState {
  /** Payout probability and payout of each arm, in the shuffled order. */
  p: readonly number[];
  r: readonly number[];
  optimal: number;
  score: number;
  rng: number;
}

export const BANDIT_ACTIONS = ['Pull slot machine 1.', 'Pull slot machine 2.'];
const LOWERED = BANDIT_ACTIONS.map((a) => a.toLowerCase());

const TASKS: BanditTask[] = [
  {
    id: 'bandits-highlow',
    name: 'BanditTwoArmedHighLowFixed-v0',
    p: [0.8, 0.2],
    r: [1, 1],
    benchmarkV0: true,
    description: 'One machine pays 80% of the time, the other 20%.',
  },
  {
    id: 'bandits-deterministic',
    name: 'BanditTwoArmedDeterministicFixed-v0',
    p: [1, 0],
    r: [1, 1],
    benchmarkV0: false,
    description: 'One machine always pays, the other never does.',
  },
  {
    id: 'bandits-highhigh',
    name: 'BanditTwoArmedHighHighFixed-v0',
    p: [0.8, 0.9],
    r: [1, 1],
    benchmarkV0: false,
    description: 'Both machines pay often (80% and 90%): a small difference to find.',
  },
  {
    id: 'bandits-lowlow',
    name: 'BanditTwoArmedLowLowFixed-v0',
    p: [0.1, 0.2],
    r: [1, 1],
    benchmarkV0: false,
    description: 'Both machines rarely pay (10% and 20%): a small difference to find.',
  },
];

const MANUAL = `You are in the casino with 2 slot machines in front of you. Your goal is to try to earn the most from those slot machines.

${describeActions(BANDIT_ACTIONS)}`;

export { argmax } from '../core/stats.ts';

export const bandits: EnvDefinition<BanditState, BanditTask> = {
  ...banditsMeta,
  actionList: 'fixed',
  conversation: () => ({ smartplay: { historyWindow: 50 } }),
  limitKind: 'horizon',
  tasks: () => TASKS,
  manual: () => MANUAL,
  maxSteps: () => 50,

  reset(task, seed): Init<BanditState> {
    const rng = Rng.fromSeed(seed);
    const order = rng.shuffle([0, 1]);
    const p = order.map((i) => task.p[i]);
    const r = order.map((i) => task.r[i]);
    const optimal = argmax(p.map((pi, i) => pi * r[i] - (1 - pi)));
    return { state: { p, r, optimal, score: 0, rng: rng.state }, observation: 'A new round begins.', score: 0 };
  },

  step(state, text): Step<BanditState> {
    const { index, matched } = matchAction(text, LOWERED);
    const rng = new Rng(state.rng);
    const reward = rng.uniform() < state.p[index] ? state.r[index] : -1;
    const score = state.score + (index === state.optimal ? 1 : 0);
    return {
      state: { ...state, score, rng: rng.state },
      observation: `You pulled slot machine ${index + 1}, you received reward ${reward}.`,
      reward,
      valid: matched,
      terminated: false,
      truncated: false,
      score,
      info: { action: index, matched, optimal: state.optimal },
    };
  },

  validActions: () => [...BANDIT_ACTIONS],
  maxScore: () => 50,
  endWords: (state, end) =>
    end.finishReason === 'Complete' ? `All ${end.steps} pulls are made: ${end.score} of them were on the machine that pays more on average (machine ${state.optimal + 1}).` : null,
  success: () => null,
  // Privileged: knows which arm pays more.
  oracleAction: (state) => BANDIT_ACTIONS[state.optimal],
};
