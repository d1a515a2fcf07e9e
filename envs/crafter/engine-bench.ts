/**
 * Crafter engine figures: steps per second called directly (random actions drawn up front, the
 * engine alone, episodes restarted when they end; resets untimed), the same over 9,999-step runs
 * kept going past death (every night included, as a replay), and the reset time (world
 * generation + SmartPlay's internal noop step) as median and 95th percentile. Prints figures;
 * asserts nothing. Upstream here: 591–780 steps/s with the text, a reset 0.15–0.91 s.
 *
 *   npx tsx envs/crafter/engine-bench.ts [seconds per figure, default 2]
 */
import { Rng } from '../core/rng.ts';
import { ACTIONS } from './engine/types.ts';
import { createCrafter, type CrafterGame } from './engine/game.ts';

export interface CrafterEngineFigures {
  /** Random-policy episodes, restarted at death (most end in the first night, so mostly day steps). */
  stepsPerSec: number;
  /** 9,999 steps of one world kept going past death, as a replay runs: every night included. */
  fullCycleStepsPerSec: number;
  resetMedianMs: number;
  resetP95Ms: number;
  resets: number;
}

export function benchCrafterEngine(seconds = 2): CrafterEngineFigures {
  const rng = Rng.fromSeed(7);
  const pool = Int8Array.from({ length: 1 << 16 }, () => rng.below(ACTIONS.length));

  // Steps: time only the step calls.
  let steps = 0;
  let stepMs = 0;
  let seed = 0;
  let game: CrafterGame = createCrafter({ seed: seed++ });
  while (stepMs < seconds * 1000) {
    const t0 = performance.now();
    let done = false;
    for (let i = 0; i < 2000 && !done; i++) {
      done = game.step(pool[steps & 0xffff]).done;
      steps++;
    }
    stepMs += performance.now() - t0;
    if (done) game = createCrafter({ seed: seed++ });
  }

  // Full day-night cycles: upstream's render draws 6,174 words at each night step.
  let cycleSteps = 0;
  let cycleMs = 0;
  while (cycleMs < seconds * 1000) {
    const g = createCrafter({ seed: seed++ });
    const t0 = performance.now();
    for (let i = 0; i < 9999; i++) g.step(pool[(cycleSteps + i) & 0xffff]);
    cycleMs += performance.now() - t0;
    cycleSteps += 9999;
  }

  // Resets.
  const times: number[] = [];
  const start = performance.now();
  while (performance.now() - start < seconds * 1000 || times.length < 20) {
    const t0 = performance.now();
    createCrafter({ seed: seed++ });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { stepsPerSec: steps / (stepMs / 1000), fullCycleStepsPerSec: cycleSteps / (cycleMs / 1000), resetMedianMs: at(0.5), resetP95Ms: at(0.95), resets: times.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 2);
  const f = benchCrafterEngine(seconds);
  console.log(
    `crafter engine: ${Math.round(f.stepsPerSec).toLocaleString('en')} steps/s direct (random-policy episodes), ` +
      `${Math.round(f.fullCycleStepsPerSec).toLocaleString('en')} steps/s over whole day-night cycles; ` +
      `reset median ${f.resetMedianMs.toFixed(2)} ms, p95 ${f.resetP95Ms.toFixed(2)} ms (${f.resets} resets); ` +
      `upstream here: 591–780 steps/s with the text, reset 150–910 ms`,
  );
}
