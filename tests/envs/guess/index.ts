/**
 * Guess the number: a test environment written the way any environment is (rules, tasks,
 * harness, oracle), kept under tests/ so the app, the CLI and the contract check must find
 * it through its one catalogue line alone. The seed picks a number from 1 to `size`; each
 * guess is answered "higher", "lower" or "correct"; score = 1 when found.
 */
import { guessMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../../../envs/core/types.ts';
import { describeActions, matchAction } from '../../../envs/core/smartplay.ts';
import { Rng } from '../../../envs/core/rng.ts';

export interface GuessTask extends TaskInfo {
  size: number;
}

export interface GuessState {
  size: number;
  target: number;
  guesses: number[];
  found: boolean;
}

const TASKS: GuessTask[] = [
  { id: 'guess-5', name: 'Guess1to5-v0', size: 5, description: 'Find a number from 1 to 5.' },
  { id: 'guess-9', name: 'Guess1to9-v0', size: 9, description: 'Find a number from 1 to 9.' },
];

const actionsFor = (size: number): string[] => Array.from({ length: size }, (_, i) => `Guess ${i + 1}`);

export const guess: EnvDefinition<GuessState, GuessTask> = {
  ...guessMeta,
  // The custom suite's plain conversation needs nothing more.
  conversation: () => ({}),
  tasks: () => TASKS,
  manual: (task) => `Guess the hidden number from 1 to ${task.size}. After each guess you are told whether it is higher or lower.\n\n${describeActions(actionsFor(task.size))}`,
  maxSteps: (task) => task.size,
  limitKind: 'limit',
  reset(task: GuessTask, seed: number): Init<GuessState> {
    const target = 1 + Rng.fromSeed(seed).below(task.size);
    return { state: { size: task.size, target, guesses: [], found: false }, observation: 'Make your first guess.', score: 0 };
  },
  step(state: GuessState, text: string): Step<GuessState> {
    const matched = matchAction(text, actionsFor(state.size).map((a) => a.toLowerCase()));
    const n = matched.index + 1;
    const found = n === state.target;
    const next = { ...state, guesses: [...state.guesses, n], found };
    const answer = found ? 'correct' : n < state.target ? 'higher' : 'lower';
    return {
      state: next,
      observation: `You guessed ${n}: ${answer}.`,
      reward: found ? 1 : 0,
      valid: matched.matched,
      terminated: found,
      truncated: false,
      score: found ? 1 : 0,
      info: { guess: n, answer },
    };
  },
  validActions: (state) => actionsFor(state.size),
  success: (state) => state.found,
  oracleAction: (state) => `Guess ${state.target}`,
};
