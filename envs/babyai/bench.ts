/**
 * BabyAI figures for `npm run bench`: per level, the reset time (generating the level
 * from its seed) and minigrid low-level steps per second (random actions), and the
 * time of one AgentBoard high-level step (path search over what the agent sees).
 * The Python original on this machine: about 6,000–9,000 steps/s and 0.25–0.9 ms per
 * reset (BEHAVIOUR.md §6).
 */
import type { EnvBench } from '../core/types.ts';
import { Rng } from '../core/rng.ts';
import { BABYAI_LEVELS, babyai, type BabyAIState } from './index.ts';
import { generateLevel } from './levels.ts';
import { stepWorld } from './step.ts';

type Reset = { state: BabyAIState };

export function benchBabyAI(seconds = 0.2): string[] {
  // Warm the JIT on every level first, so the first level measured is not the slowest by accident.
  for (const level of BABYAI_LEVELS) {
    let w = generateLevel(level, 1).world;
    for (let i = 0; i < 2000; i++) {
      const r = stepWorld(w, i % 7);
      w = r.terminated || r.truncated ? generateLevel(level, 1).world : r.world;
    }
  }
  const lines = ['level                                   reset ms   low-level steps/s   high-level step ms'];
  const rng = Rng.fromSeed(7);
  const rows: { reset: number; steps: number; high: number }[] = [];
  BABYAI_LEVELS.forEach((level, k) => {
    // Reset: generate the level from a few seeds.
    let t0 = performance.now();
    let resets = 0;
    while (performance.now() - t0 < seconds * 250) generateLevel(level, 1000 + resets++);
    const reset = (performance.now() - t0) / resets;

    // Low-level: random actions, regenerating when an episode ends. Half a second per level (at
    // the default): in a 0.1 s window one garbage-collection pause swung the slowest level 39–58×.
    let world = generateLevel(level, 1234).world;
    let steps = 0;
    t0 = performance.now();
    while (performance.now() - t0 < seconds * 2500) {
      for (let i = 0; i < 200; i++) {
        const r = stepWorld(world, rng.below(7));
        world = r.terminated || r.truncated ? generateLevel(level, 1234).world : r.world;
        steps++;
      }
    }
    const perSecond = steps / ((performance.now() - t0) / 1000);

    // High-level: AgentBoard steps with random valid actions on the level's first problem.
    const task = babyai.tasks()[k * 4];
    let state = (babyai.reset(task, 0) as Reset).state;
    let high = 0;
    t0 = performance.now();
    while (performance.now() - t0 < seconds * 250) {
      const actions = babyai.validActions(state);
      const step = babyai.step(state, actions[rng.below(actions.length)]) as { state: typeof state; terminated: boolean };
      state = step.terminated || high % 30 === 29 ? (babyai.reset(task, 0) as Reset).state : step.state;
      high++;
    }
    const highMs = (performance.now() - t0) / high;
    rows.push({ reset, steps: perSecond, high: highMs });
    lines.push(`${level.padEnd(39)} ${reset.toFixed(3).padStart(9)}   ${Math.round(perSecond).toLocaleString('en-US').padStart(17)}   ${highMs.toFixed(3).padStart(18)}`);
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const slowest = Math.min(...rows.map((r) => r.steps));
  lines.push(
    `all levels: mean reset ${mean(rows.map((r) => r.reset)).toFixed(3)} ms, mean ${Math.round(mean(rows.map((r) => r.steps))).toLocaleString('en-US')} steps/s ` +
      `(slowest level ${Math.round(slowest).toLocaleString('en-US')} steps/s = ${(slowest / 9000).toFixed(0)}× the Python original's 9,000; target 60×), mean high-level step ${mean(rows.map((r) => r.high)).toFixed(3)} ms`,
  );
  return lines;
}

export const bench: EnvBench = { title: 'BabyAI (AgentBoard)', run: async (seconds) => benchBabyAI(seconds / 10) };
