/**
 * Benchmark figures for Crafter in the app (the engine alone: engine-bench.ts). Steps per second
 *   - through the text: the engine's step plus SmartPlay's observation text (describeFrame),
 *     resets included, random actions, as an evaluation runs them;
 *   - through the environment (env.step: matching the reply, the immutable state, text, info);
 *   - through the episode machine (one actor per episode, ACT per step; the ACTs are timed);
 * a reset with its text; opening a replay of a 10,000-step episode (runner.simulate over the
 * recorded actions, then the board's scene of the last step); resuming at a random step of it;
 * the oracle's decision. Upstream's speed here (the issue): 591–780 steps/s with the text.
 * Prints figures; asserts nothing.
 *
 *   npx tsx envs/crafter/bench.ts [seconds per figure, default 2]
 */
import { waitFor } from 'xstate';
import { Rng } from '../core/rng.ts';
import { createEpisode } from '../core/episode.ts';
import { simulate } from '../core/runner.ts';
import type { EnvBench, Step } from '../core/types.ts';
import { crafter, CRAFTER_ACTIONS, CRAFTER_TASK, type CrafterState } from './index.ts';
import { newGame } from './state.ts';
import { describeFrame } from './text.ts';
import { sceneOf } from './ui/scene.ts';

const POOL = 4096;

function actionIds(seed: number): number[] {
  const rng = Rng.fromSeed(seed);
  return Array.from({ length: POOL }, () => rng.below(CRAFTER_ACTIONS.length));
}

/** Runs `body` repeatedly for about `seconds`; returns (units done) per second. */
function rate(seconds: number, body: () => number): number {
  let units = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    units += body();
    elapsed = performance.now() - start;
  }
  return units / (elapsed / 1000);
}

/** Engine step + SmartPlay's text per step: with the resets (and their text) counted, and the steps alone. */
function throughText(ids: readonly number[], seconds: number): { withResets: number; stepsOnly: number } {
  let seed = 0;
  let k = 0;
  let steps = 0;
  let stepMs = 0;
  const withResets = rate(seconds, () => {
    const game = newGame(seed++);
    let n = 0;
    describeFrame(game.view, null);
    const t0 = performance.now();
    for (;;) {
      const a = ids[k++ & (POOL - 1)];
      const r = game.step(a);
      describeFrame(game.view, a);
      n++;
      if (r.done) break;
    }
    stepMs += performance.now() - t0;
    steps += n;
    return n;
  });
  return { withResets, stepsOnly: steps / (stepMs / 1000) };
}

/** env.reset / env.step with reply texts, resets included. */
function throughEnv(ids: readonly number[], seconds: number): number {
  let seed = 0;
  let k = 0;
  return rate(seconds, () => {
    let state = (crafter.reset(CRAFTER_TASK, seed++) as { state: CrafterState }).state;
    let n = 0;
    for (;;) {
      const s = crafter.step(state, CRAFTER_ACTIONS[ids[k++ & (POOL - 1)]]) as Step<CrafterState>;
      n++;
      state = s.state;
      if (s.terminated) return n;
    }
  });
}

async function throughMachine(ids: readonly number[], seconds: number): Promise<number> {
  let steps = 0;
  let seed = 0;
  let stepTime = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    const actor = createEpisode(crafter, CRAFTER_TASK, { seed: seed++ });
    actor.start();
    await waitFor(actor, (s) => s.matches('awaitingAction') || s.status !== 'active');
    const t0 = performance.now();
    while (actor.getSnapshot().status === 'active') {
      actor.send({ type: 'ACT', text: CRAFTER_ACTIONS[ids[steps & (POOL - 1)]], actor: { kind: 'script', name: 'bench' } });
      steps++;
    }
    stepTime += performance.now() - t0;
    actor.stop();
  }
  return steps / (stepTime / 1000);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/**
 * Milliseconds: simulate() over 10,000 recorded actions and the board of the last step (opening a
 * replay); the board of a random step (scrubbing); a step from a random earlier state (playing on
 * from there: the game is re-run to that step).
 */
function replayOpen(ids: readonly number[]): { open: number; board: number; resume: number } {
  // Random play dies within a few hundred steps; the engine keeps stepping after, as upstream,
  // so this is the cost of a 10,000-step record whatever its player did.
  const texts = Array.from({ length: 10_000 }, (_, i) => CRAFTER_ACTIONS[ids[i & (POOL - 1)]]);
  const opens: number[] = [];
  const boards: number[] = [];
  const resumes: number[] = [];
  const rng = Rng.fromSeed(7);
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const states = simulate(crafter, CRAFTER_TASK, run, texts)!;
    sceneOf(states[states.length - 1].frame);
    opens.push(performance.now() - t0);
    for (let i = 0; i < 5; i++) {
      const k = rng.below(states.length);
      const t1 = performance.now();
      sceneOf(states[k].frame);
      boards.push(performance.now() - t1);
      const t2 = performance.now();
      crafter.step(states[k], 'Noop');
      resumes.push(performance.now() - t2);
    }
  }
  return { open: median(opens), board: median(boards), resume: median(resumes) };
}

function resetMs(n: number): number {
  const times: number[] = [];
  for (let seed = 0; seed < n; seed++) {
    const t0 = performance.now();
    crafter.reset(CRAFTER_TASK, 1000 + seed);
    times.push(performance.now() - t0);
  }
  return median(times);
}

function oracleMs(episodes: number): number {
  let calls = 0;
  let ms = 0;
  for (let seed = 0; seed < episodes; seed++) {
    let state = (crafter.reset(CRAFTER_TASK, seed) as { state: CrafterState }).state;
    for (let t = 0; t < 300 && !state.done; t++) {
      const t0 = performance.now();
      const action = crafter.oracleAction!(state, CRAFTER_TASK)!;
      ms += performance.now() - t0;
      calls++;
      state = (crafter.step(state, action) as Step<CrafterState>).state;
    }
  }
  return ms / calls;
}

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

export interface CrafterFigures {
  textStepsPerSecond: number;
  textStepsOnlyPerSecond: number;
  envStepsPerSecond: number;
  machineStepsPerSecond: number;
  resetMs: number;
  replayOpenMs: number;
  boardMs: number;
  resumeMs: number;
  oracleMs: number;
}

/** Every figure, about `seconds` for each rate (Node or the browser). */
export async function measureCrafter(seconds = 2): Promise<CrafterFigures> {
  const ids = actionIds(42);
  // Warm-up: the engine's and the text's code is compiled by the JIT in the first few thousand steps.
  throughText(ids, Math.min(1, seconds / 2));
  throughEnv(ids, Math.min(0.5, seconds / 4));
  const text = throughText(ids, seconds);
  const envStepsPerSecond = throughEnv(ids, seconds);
  const machineStepsPerSecond = await throughMachine(ids, seconds);
  const replay = replayOpen(ids);
  return { textStepsPerSecond: text.withResets, textStepsOnlyPerSecond: text.stepsOnly, envStepsPerSecond, machineStepsPerSecond, resetMs: resetMs(50), replayOpenMs: replay.open, boardMs: replay.board, resumeMs: replay.resume, oracleMs: oracleMs(5) };
}

export async function benchCrafter(seconds = 2): Promise<string[]> {
  const m = await measureCrafter(seconds);
  return [
    `Crafter-v0 engine + text ${fmt(m.textStepsOnlyPerSecond)} steps/s (steps timed; upstream 591–780 with the text), ${fmt(m.textStepsPerSecond)} steps/s with the resets`,
    `through env.step ${fmt(m.envStepsPerSecond)} steps/s (resets included)   through the episode machine ${fmt(m.machineStepsPerSecond)} steps/s (ACTs timed)`,
    `reset with its text ${m.resetMs.toFixed(2)} ms (median of 50)   oracle ${m.oracleMs.toFixed(3)} ms/decision`,
    `replay of a 10,000-step episode: opens in ${fmt(m.replayOpenMs)} ms (every state, the last board); the board of any step ${m.boardMs.toFixed(3)} ms; a step from a random earlier state ${m.resumeMs.toFixed(1)} ms (medians)`,
  ];
}

export const bench: EnvBench = { title: 'Crafter (SmartPlay)', run: (seconds) => benchCrafter(seconds / 2) };

if (typeof process !== 'undefined' && import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchCrafter(Number(process.argv[2] ?? 2))) console.log(line);
}
