/**
 * An episode's state as the environment contract wants it: a value no step changes (the
 * contract's checker steps one state several times; a replay keeps every step's state). The
 * engine's game is mutable and deterministic, so a state is only (line of play, how far along
 * it): the game itself is derived on demand. A line keeps one live game (its cursor) that moves
 * along the actions, and snapshots every CHECKPOINT steps where the engine can clone a game, so
 * reaching any step takes at most that many engine steps; without clone it replays from the seed.
 *
 * Stepping the last state of a line extends the line (the usual case: play, replay, resume);
 * stepping an earlier one starts a new line that shares the earlier snapshots.
 */
import { createCrafter, type CrafterGame } from './engine/game.ts';
import type { CrafterView } from './engine/types.ts';
import { captureFrame, type Frame } from './frame.ts';

/** Upstream's Crafter-v0 keeps `length` 10,000 (crafter_env.py default_steps). */
export const CRAFTER_LENGTH = 10_000;

/** Steps between snapshots: at most this many engine steps to reach any state of a line. */
const CHECKPOINT = 128;

type Cloneable = CrafterGame & { clone?: () => CrafterGame };

interface Line {
  readonly seed: number;
  /** Crafter action ids, from the first step on. */
  readonly actions: number[];
  /** The live game and the number of actions it has taken. */
  cursor: CrafterGame;
  at: number;
  /** Games after k actions (k a multiple of CHECKPOINT), never stepped: a restore clones them. */
  readonly snapshots: Map<number, CrafterGame>;
}

export interface CrafterState {
  /** The `seed` of upstream's `Crafter-v0`; the world is its first episode's. */
  readonly seed: number;
  /** Agent steps taken. */
  readonly length: number;
  /** SmartPlay's score tracker: each step adds the number of achievements unlocked so far. */
  readonly score: number;
  /** The game ended (the player died, or crafter's step counter reached its length). */
  readonly done: boolean;
  /** What the board draws of this step (replays show any step without re-running the game). */
  readonly frame: Frame;
  readonly line: Line;
}

export function newGame(seed: number): CrafterGame {
  return createCrafter({ seed, episode: 1, length: CRAFTER_LENGTH });
}

const canClone = (g: CrafterGame): g is Cloneable & { clone: () => CrafterGame } => typeof (g as Cloneable).clone === 'function';

export function startState(seed: number): CrafterState {
  const game = newGame(seed);
  const line: Line = { seed, actions: [], cursor: game, at: 0, snapshots: new Map() };
  if (canClone(game)) line.snapshots.set(0, game.clone());
  return { seed, length: 0, score: unlockedCount(game.last.info.achievements), done: game.last.done, frame: captureFrame(game.view), line };
}

/** How many of the 22 achievements have been unlocked at least once. */
export function unlockedCount(achievements: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const count of Object.values(achievements)) if (count > 0) n++;
  return n;
}

/** A new game after the line's first `k` actions, from its nearest snapshot (or the seed); the line's cursor is left alone. */
function freshGameAt(line: Line, k: number): CrafterGame {
  if (line.at === k && canClone(line.cursor)) return line.cursor.clone();
  let from = -1;
  for (const c of line.snapshots.keys()) if (c <= k && c > from) from = c;
  const snap = line.snapshots.get(from);
  const game = snap && canClone(snap) ? snap.clone() : newGame(line.seed);
  for (let i = snap ? from : 0; i < k; i++) game.step(line.actions[i]);
  return game;
}

/** The line's game moved to `k` actions (it is the line's cursor: read it before moving it again). */
function gameAt(line: Line, k: number): CrafterGame {
  if (line.at > k) {
    line.cursor = freshGameAt(line, k);
    line.at = k;
  }
  while (line.at < k) {
    line.cursor.step(line.actions[line.at]);
    line.at++;
    keepSnapshot(line);
  }
  return line.cursor;
}

function keepSnapshot(line: Line): void {
  if (line.at % CHECKPOINT === 0 && !line.snapshots.has(line.at) && canClone(line.cursor)) line.snapshots.set(line.at, line.cursor.clone());
}

/** The engine's view of the game at this state (valid until another state of its line is read). */
export function viewOf(state: CrafterState): CrafterView {
  return gameAt(state.line, state.length).view;
}

export interface Advanced {
  state: CrafterState;
  result: ReturnType<CrafterGame['step']>;
}

/** The state after crafter action `action`; `state` stays as it was. */
export function advance(state: CrafterState, action: number): Advanced {
  let line = state.line;
  if (line.actions.length !== state.length) {
    // A branch: a new line from here, sharing the snapshots up to this point; the old line keeps its cursor.
    const cursor = freshGameAt(line, state.length);
    const snapshots = new Map([...line.snapshots].filter(([k]) => k <= state.length));
    line = { seed: state.seed, actions: line.actions.slice(0, state.length), cursor, at: state.length, snapshots };
  }
  const game = gameAt(line, state.length);
  const result = game.step(action);
  line.actions.push(action);
  line.at++;
  keepSnapshot(line);
  const next = { seed: state.seed, length: state.length + 1, score: state.score + unlockedCount(result.info.achievements), done: result.done, frame: captureFrame(game.view), line };
  return { state: next, result };
}
