/**
 * SmartPlay's Tower of Hanoi (Hanoi3Disk-v0, Hanoi4Disk-v0), README.md, Upstream.
 * Disk 0 is the smallest; state[d] is the rod (0 A, 1 B, 2 C) disk d is on.
 * score = disks on rod C; reward 100 when solved, -1 for an illegal move, else 0.
 */
import { hanoiMeta } from './meta.ts';
import type { EnvDefinition, Init, Step, TaskInfo } from '../core/types.ts';
import { describeActions, matchAction } from '../core/smartplay.ts';

export interface HanoiTask extends TaskInfo {
  disks: number;
}

export interface HanoiState {
  /** Rod of each disk, smallest first. */
  rods: readonly number[];
  solved: boolean;
}

export const HANOI_ACTIONS = [
  'Move the top disk of rod A to the top of rod B',
  'Move the top disk of rod A to the top of rod C',
  'Move the top disk of rod B to the top of rod A',
  'Move the top disk of rod B to the top of rod C',
  'Move the top disk of rod C to the top of rod A',
  'Move the top disk of rod C to the top of rod B',
] as const;

/** (from, to) rod of each action, as gym-hanoi's action_to_move. */
export const HANOI_MOVES: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [1, 0],
  [1, 2],
  [2, 0],
  [2, 1],
];

const LOWERED = HANOI_ACTIONS.map((a) => a.toLowerCase());
// The step observation lowercases the whole action, so "rod A" reads "rod a" (upstream quirk).
const TRIED = LOWERED.map((a) => `You tried to ${a}. Current configuration:`);
const ROD_NAMES = ['A', 'B', 'C'];

const TASKS: HanoiTask[] = [
  // SmartPlay's benchmark v0 plays Hanoi3Disk; Hanoi4Disk is registered upstream but in no table.
  { id: 'hanoi-3', name: 'Hanoi3Disk-v0', disks: 3, benchmarkV0: true },
  { id: 'hanoi-4', name: 'Hanoi4Disk-v0', disks: 4, benchmarkV0: false },
];

/** Python's repr of the disks on a rod, bottom (largest) to top: "[2, 1, 0]". */
function rodList(rods: readonly number[], rod: number): string {
  let out = '';
  for (let d = rods.length - 1; d >= 0; d--) {
    if (rods[d] === rod) out += out.length === 0 ? `${d}` : `, ${d}`;
  }
  return `[${out}]`;
}

export function describeRods(rods: readonly number[]): string {
  return (
    `- A: |bottom, ${rodList(rods, 0)}, top|\n` +
    `- B: |bottom, ${rodList(rods, 1)}, top|\n` +
    `- C: |bottom, ${rodList(rods, 2)}, top|`
  );
}

/** Smallest disk on a rod, or -1 when it is empty. */
function topDisk(rods: readonly number[], rod: number): number {
  for (let d = 0; d < rods.length; d++) if (rods[d] === rod) return d;
  return -1;
}

/** Legal when the source has a disk and the target is empty or its top disk is larger. */
export function moveAllowed(rods: readonly number[], action: number): boolean {
  const [from, to] = HANOI_MOVES[action];
  const moving = topDisk(rods, from);
  if (moving === -1) return false;
  const onTarget = topDisk(rods, to);
  return onTarget === -1 || onTarget > moving;
}

function disksOn(rods: readonly number[], rod: number): number {
  let n = 0;
  for (let d = 0; d < rods.length; d++) if (rods[d] === rod) n++;
  return n;
}

function manual(task: HanoiTask): string {
  const start = `[${Array.from({ length: task.disks }, (_, i) => task.disks - 1 - i).join(', ')}]`;
  // The first two lines end with a space, as upstream's text does.
  return `The game consists of three rods (A,B,C) and a number of disks of various sizes, which can go onto any rod. 
The game begins with the disks stacked on rod A in order of decreasing size, the smallest at the top (righthand side). 
The objective is to move the entire stack to rod C, obeying the following rules:

 - Only one disk may be moved at a time.
 - Each move consists of taking the top disk from one of the stacks and placing it on top of another stack or on an empty rod.
 - You cannot place a bigger disk on top of a smaller disk.

For example, considering movements from B under the following setting:
- A: |bottom, [0], top|
- B: |bottom, [1], top|
- C: |bottom, [2], top|
You are only allowed to move from B to C but not A, since the top of B (1) is smaller than the top of C (2) but bigger than the top of A (0).

Finally, the starting configuration is:
- A: |bottom, ${start}, top|
- B: |bottom, [], top|
- C: |bottom, [], top|

and the goal configuration is:
- A: |bottom, [], top|
- B: |bottom, [], top|
- C: |bottom, ${start}, top|
with top on the right and bottom on the left

${describeActions(HANOI_ACTIONS)}`;
}

export const hanoi: EnvDefinition<HanoiState, HanoiTask> = {
  ...hanoiMeta,
  // Hanoi always starts with every disk on rod A.
  usesSeed: () => false,
  describe: (task) => `Move all ${task.disks} disks from rod A to rod C, one at a time, never putting a larger disk on a smaller one.`,
  // SmartPlay's history window for Hanoi: the 5 earlier observations.
  actionList: 'fixed',
  conversation: () => ({ smartplay: { historyWindow: 5 } }),
  limitKind: 'limit',
  tasks: () => TASKS,
  manual,
  maxSteps: () => 30,

  reset(task): Init<HanoiState> {
    const rods = new Array<number>(task.disks).fill(0);
    return { state: { rods, solved: false }, observation: `Current configuration:\n${describeRods(rods)}`, score: 0 };
  },

  step(state, text): Step<HanoiState> {
    const { index, matched } = matchAction(text, LOWERED);
    const legal = moveAllowed(state.rods, index);
    let rods = state.rods;
    if (legal) {
      const next = rods.slice();
      next[topDisk(rods, HANOI_MOVES[index][0])] = HANOI_MOVES[index][1];
      rods = next;
    }
    const score = disksOn(rods, 2);
    const solved = score === rods.length;
    return {
      state: { rods, solved },
      observation: `${TRIED[index]}\n${describeRods(rods)}`,
      reward: solved ? 100 : legal ? 0 : -1,
      valid: matched && legal,
      terminated: solved,
      truncated: false,
      score,
      info: { action: index, matched, invalidAction: !legal },
    };
  },

  validActions: () => [...HANOI_ACTIONS],
  maxScore: (task) => task.disks,
  endWords: (state, end) =>
    state.solved ? `All ${state.rods.length} disks are on rod C: the tower is moved.` : end.finishReason === 'Task Limit Exceeded' ? `The step limit came first: ${end.score} of ${state.rods.length} disks are on rod C.` : null,
  success: (state) => state.solved,
  oracleAction: (state) => {
    const move = nextOptimalMove(state.rods);
    return move === null ? null : HANOI_ACTIONS[move];
  },
};

/**
 * The first move of a shortest solution from any configuration: to bring disks 0..k
 * onto `target`, either disk k is there already (solve 0..k-1), or disks 0..k-1 must
 * first go to the spare rod, and then disk k moves.
 */
export function nextOptimalMove(rods: readonly number[]): number | null {
  const toward = (k: number, target: number): number | null => {
    if (k < 0) return null;
    const from = rods[k];
    if (from === target) return toward(k - 1, target);
    const before = toward(k - 1, 3 - from - target);
    return before ?? HANOI_MOVES.findIndex(([f, t]) => f === from && t === target);
  };
  return toward(rods.length - 1, 2);
}

/** The optimal move sequence (action indices) for n disks from A to C: 2^n - 1 moves. */
export function hanoiSolution(disks: number): number[] {
  const out: number[] = [];
  const solve = (n: number, from: number, to: number, via: number): void => {
    if (n === 0) return;
    solve(n - 1, from, via, to);
    out.push(HANOI_MOVES.findIndex(([f, t]) => f === from && t === to));
    solve(n - 1, via, to, from);
  };
  solve(disks, 0, 2, 1);
  return out;
}
