/** The engine's warm-up after a page's first reset (index.ts reset; the bench does as the page does). */
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
