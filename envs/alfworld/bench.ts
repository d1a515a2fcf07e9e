/**
 * Benchmark figures for ALFWorld (the project's bench script): per game, the time to build and
 * reset it as a reset does (games.ts worldOf: the stored compiled problem, its stored initial
 * state; the welcome and first admissible commands; problem file already loaded) and the time of one step (a random admissible command, its feedback and the next
 * admissible commands), median and slowest over all 134 games; beside upstream's figures measured
 * here (README.md: about 16 steps per CPU-second, about 2 s to build and reset a game).
 * Per game, as upstream's figures are: each game's reset, and each game's mean step time. The
 * first reset on a page runs on code not yet compiled: it is reported on its own, beside the
 * slowest of the others. Single steps are reported too (median, 99th percentile, slowest): the
 * slowest single call is usually a garbage-collection pause. As in the app, the page's first reset
 * starts the engine's warm-up in idle time (warmup.ts), and the first game's steps begin 200 ms
 * after its reset (about the fastest model's reply; a person reads for seconds). As in the app, every
 * reset grounds its start state in idle time (warmup.ts groundStartInIdle): a game's steps begin one
 * turn of the event loop after its reset, once that has run, and its time is reported on its own.
 * Returns printable lines; asserts nothing.
 */
import type { EnvBench } from '../core/types.ts';
import { Rng } from '../core/rng.ts';
import { GAMES, loadProblem, sharedLogic, worldOf } from './games.ts';
import { groundStartInIdle, warmUpOnce } from './warmup.ts';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
};
const median = (xs: number[]) => quantile(xs, 0.5);

export interface AlfworldFigures {
  /** Reading the domain and grammar every game shares (once per page, at the first reset). */
  sharedMs: number;
  games: number;
  resetMedianMs: number;
  resetSlowestMs: number;
  resetSlowestGame: string;
  resetP95Ms: number;
  /** Grounding the start state in idle time after each reset (not part of the reset or of a step). */
  idleGroundMedianMs: number;
  idleGroundSlowestMs: number;
  /** The first reset on the page (the engine's code not yet compiled). */
  firstResetMs: number;
  /** The slowest reset after the first. */
  resetSlowestWarmMs: number;
  resetSlowestWarmGame: string;
  steps: number;
  /** Each game's mean step time: the median game and the slowest game. */
  gameStepMedianMs: number;
  gameStepSlowestMs: number;
  gameStepSlowestGame: string;
  stepMedianMs: number;
  /** The 99th percentile: the slowest single step is often a garbage-collection pause. */
  stepP99Ms: number;
  stepSlowestMs: number;
  /** One game played long, as one episode is (no resets or game loads between its steps): the slowest game above. */
  long: { game: string; steps: number; medianMs: number; p99Ms: number; slowestMs: number; slowestWindowMeanMs: number };
}

type World = ReturnType<typeof worldOf>;
type At = { state: World['initial']; admissible: string[] };

/** One timed step, as the figures count it: a random admissible command played, the next commands and the goal check. Returns whether the game was won. */
function randomStep(world: World, at: At, rng: Rng, times: number[]): boolean {
  const s0 = performance.now();
  const r = world.play(at.state, at.admissible[rng.below(at.admissible.length)]);
  let won = false;
  if (r) {
    at.state = r.state;
    at.admissible = world.admissible(at.state);
    won = world.won(at.state);
  }
  times.push(performance.now() - s0);
  return won;
}

/** A run of random steps of one game (a won game starts again from its start state). */
function playLong(g: number, steps: number, rng: Rng): number[] {
  const world = worldOf(g, 'original');
  const at: At = { state: world.initial, admissible: world.admissible(world.initial) };
  const times: number[] = [];
  for (let t = 0; t < steps; t++) {
    if (randomStep(world, at, rng, times)) {
      at.state = world.initial;
      at.admissible = world.admissible(at.state);
    }
  }
  return times;
}

/** Times every game's reset and `steps` random steps of each (the figures, for Node and the browser). */
export async function measureAlfworld(options: { steps?: number; seed?: number; games?: number; longSteps?: number } = {}): Promise<AlfworldFigures> {
  const stepsPerGame = options.steps ?? 30;
  const rng = Rng.fromSeed(options.seed ?? 42);
  const resets: number[] = [];
  const steps: number[] = [];
  let slowestReset = { ms: 0, game: '' };
  let slowestStep = 0;
  let slowestWarmReset = { ms: 0, game: '' };
  const gameSteps: number[] = [];
  const idleGrounds: number[] = [];
  let slowestGameStep = { ms: 0, game: '', index: 0 };
  const count = Math.min(options.games ?? GAMES.length, GAMES.length);
  // Read once per page, before the first reset: timed on its own.
  const p0 = performance.now();
  sharedLogic('original');
  const sharedMs = performance.now() - p0;
  for (let g = 0; g < count; g++) {
    await loadProblem(g);
    const t0 = performance.now();
    // As a reset builds it (games.ts worldOf): the shared domain and grammar (read once per page), the game's
    // compiled problem and its stored initial state.
    const world = worldOf(g, 'original');
    const state = world.initial;
    world.intro(state);
    const at: At = { state, admissible: world.admissible(state) };
    const resetMs = performance.now() - t0;
    resets.push(resetMs);
    const name = GAMES[g].path.split('/')[1];
    if (resetMs > slowestReset.ms) slowestReset = { ms: resetMs, game: name };
    if (g > 0 && resetMs > slowestWarmReset.ms) slowestWarmReset = { ms: resetMs, game: name };
    if (g === 0) warmUpOnce(world, state);
    idleGrounds.push(await groundStartInIdle(world, state));
    if (g === 0) await new Promise((r) => setTimeout(r, 200));
    const times: number[] = [];
    for (let t = 0; t < stepsPerGame; t++) randomStep(world, at, rng, times);
    let gameMs = 0;
    for (const ms of times) {
      steps.push(ms);
      gameMs += ms;
      slowestStep = Math.max(slowestStep, ms);
    }
    const mean = gameMs / stepsPerGame;
    gameSteps.push(mean);
    if (mean > slowestGameStep.ms) slowestGameStep = { ms: mean, game: name, index: g };
  }
  // The slowest game again, played long: its steady state, after its problem and world were loaded.
  const longSteps = options.longSteps ?? 1000;
  const long = playLong(slowestGameStep.index, longSteps, rng);
  const WINDOW = 30;
  let slowestWindow = 0;
  for (let i = 0; i + WINDOW <= long.length; i++) {
    let sum = 0;
    for (let j = i; j < i + WINDOW; j++) sum += long[j];
    slowestWindow = Math.max(slowestWindow, sum / WINDOW);
  }
  return {
    sharedMs,
    games: count,
    resetMedianMs: median(resets),
    resetSlowestMs: slowestReset.ms,
    resetSlowestGame: slowestReset.game,
    resetP95Ms: quantile(resets, 0.95),
    idleGroundMedianMs: median(idleGrounds),
    idleGroundSlowestMs: Math.max(...idleGrounds),
    firstResetMs: resets[0],
    resetSlowestWarmMs: slowestWarmReset.ms,
    resetSlowestWarmGame: slowestWarmReset.game,
    steps: steps.length,
    gameStepMedianMs: median(gameSteps),
    gameStepSlowestMs: slowestGameStep.ms,
    gameStepSlowestGame: slowestGameStep.game,
    stepMedianMs: median(steps),
    stepP99Ms: quantile(steps, 0.99),
    stepSlowestMs: slowestStep,
    long: {
      game: slowestGameStep.game,
      steps: long.length,
      medianMs: median(long),
      p99Ms: quantile(long, 0.99),
      slowestMs: Math.max(...long),
      slowestWindowMeanMs: slowestWindow,
    },
  };
}

export async function benchAlfworld(options: { steps?: number; seed?: number } = {}): Promise<string[]> {
  const m = await measureAlfworld(options);
  const f = (x: number) => x.toFixed(2);
  return [
    `shared domain and grammar, read once per page: ${f(m.sharedMs)} ms`,
    `reset (build + welcome + commands), ${m.games} games: median ${f(m.resetMedianMs)} ms, 95th percentile ${f(m.resetP95Ms)} ms, slowest ${f(m.resetSlowestMs)} ms (${m.resetSlowestGame}); the page's first ${f(m.firstResetMs)} ms, the slowest after it ${f(m.resetSlowestWarmMs)} ms (${m.resetSlowestWarmGame}); upstream here ≈ 2,000 ms`,
    `start state grounded in idle time after each reset (before the first step, not in either figure): median ${f(m.idleGroundMedianMs)} ms, slowest ${f(m.idleGroundSlowestMs)} ms`,
    `step per game (each game's mean over its random steps): median game ${f(m.gameStepMedianMs)} ms, slowest game ${f(m.gameStepSlowestMs)} ms (${m.gameStepSlowestGame}); ${Math.round(1000 / m.gameStepSlowestMs / 16)}× upstream's 16 steps/s for the slowest game`,
    `the slowest game played long (${m.long.steps} random steps in one episode, as a person or model plays it; ${m.long.game}): median ${f(m.long.medianMs)} ms, 99th percentile ${f(m.long.p99Ms)} ms, slowest ${f(m.long.slowestMs)} ms; the slowest 30 steps in a row averaged ${f(m.long.slowestWindowMeanMs)} ms`,
    `single steps (play + commands + goal check), ${m.steps} random steps: median ${f(m.stepMedianMs)} ms, 99th percentile ${f(m.stepP99Ms)} ms, slowest ${f(m.stepSlowestMs)} ms; ${Math.round(1000 / m.stepMedianMs)} steps/s at the median, ${Math.round(1000 / m.stepMedianMs / 16)}× upstream's 16 steps/s`,
  ];
}

export const bench: EnvBench = { title: 'ALFWorld', run: () => benchAlfworld() };
