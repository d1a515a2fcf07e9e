/** Work done in idle time after a reset (index.ts reset; the bench does as the page does). */
import type { World, WorldState } from './world.ts';

let warmed = false;

/**
 * After a page's first reset, plays a few throwaway steps from the start in idle time, one per
 * task so the page stays responsive: the engine's code is then compiled when the first real step
 * comes (on code never run, a page's first game stepped at 1–2 ms; states are immutable, so this
 * changes nothing the episode sees). Once per page.
 */
export function warmUpOnce(world: World, start: WorldState): void {
  if (warmed) return;
  warmed = true;
  let state = start;
  let left = 24;
  const next = (): void => {
    const commands = world.admissible(state);
    // Varied moves (not always the first command), the same on every run.
    const r = commands.length ? world.play(state, commands[(left * 7) % commands.length]) : null;
    if (r) {
      state = r.state;
      world.won(state);
    }
    if (--left > 0 && r) setTimeout(next, 0);
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
