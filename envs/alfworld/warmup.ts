/** Work done in idle time after a reset (index.ts reset; the bench does as the page does). */
import type { World, WorldState } from './world.ts';

let warmed = false;

/** Throwaway steps played after a page's first reset, and the time each idle task may spend on them. */
const WARM_STEPS = 160;
const WARM_TASK_MS = 4;

/**
 * After a page's first reset, plays throwaway steps from the start in idle time, a few
 * milliseconds' worth per task so the page stays responsive: the engine's code is then compiled
 * (optimised) when the first real steps come. On code never run, a page's first game stepped at
 * 1–2 ms; 24 steps were not enough for V8 to optimise the hot paths (its first game stayed the
 * slowest, 0.7–2.5 ms a step). States are immutable, so this changes nothing the episode sees.
 * Once per page.
 */
export function warmUpOnce(world: World, start: WorldState): void {
  if (warmed) return;
  warmed = true;
  let state = start;
  let left = WARM_STEPS;
  const next = (): void => {
    const t0 = performance.now();
    while (left > 0 && performance.now() - t0 < WARM_TASK_MS) {
      left--;
      const commands = world.admissible(state);
      // Varied moves (not always the first command), the same on every run; from the start again when stuck or won.
      const r = commands.length ? world.play(state, commands[(left * 7) % commands.length]) : null;
      state = r && !world.won(r.state) ? r.state : start;
    }
    if (left > 0) setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/**
 * Grounds a reset's state in idle time: a reset shows the stored welcome and commands without
 * grounding anything, so the first step would otherwise ground the start state (about 0.3–2 ms,
 * the slowest step of most games). Any step comes at least one turn of the event loop after its
 * reset (the page draws the task, a model's reply is awaited). Returns how long the grounding took
 * (for the bench), once it has run.
 */
export function groundStartInIdle(world: World, start: WorldState): Promise<number> {
  return new Promise((resolve) =>
    setTimeout(() => {
      const t0 = performance.now();
      world.prepare(start);
      resolve(performance.now() - t0);
    }, 0),
  );
}
