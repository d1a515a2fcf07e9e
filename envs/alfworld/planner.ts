/**
 * The oracle's plan from any state: the game's walkthrough while the state is on it, else a
 * breadth-first search over the admissible commands (their true-fact successors), bounded.
 */
import type { World, WorldState } from './world.ts';

const keyOf = (s: WorldState) => s.facts.join('|');
/** States expanded before the search gives up (a game's plans are 3–9 steps; most need far fewer). */
export const PLAN_NODE_LIMIT = 20_000;

const walkCache = new WeakMap<World, Map<string, string[]>>();

/** State key → the rest of the walkthrough from there, for every state along it. */
function walkthroughStates(world: World, walkthrough: readonly string[]): Map<string, string[]> {
  let map = walkCache.get(world);
  if (!map) {
    map = new Map();
    let s = world.initial;
    map.set(keyOf(s), [...walkthrough]);
    for (let i = 0; i < walkthrough.length; i++) {
      const r = world.play(s, walkthrough[i]);
      if (!r) break;
      s = r.state;
      map.set(keyOf(s), walkthrough.slice(i + 1));
    }
    walkCache.set(world, map);
  }
  return map;
}

export function planFrom(world: World, start: WorldState, walkthrough: readonly string[]): string[] | null {
  if (world.won(start)) return [];
  const onPath = walkthroughStates(world, walkthrough).get(keyOf(start));
  if (onPath && onPath.length > 0) return onPath;
  const parents = new Map<string, { from: string | null; command: string }>([[keyOf(start), { from: null, command: '' }]]);
  let frontier: WorldState[] = [start];
  let expanded = 0;
  while (frontier.length > 0 && expanded < PLAN_NODE_LIMIT) {
    const next: WorldState[] = [];
    for (const s of frontier) {
      expanded++;
      for (const { command, state } of world.successors(s)) {
        const k = keyOf(state);
        if (parents.has(k)) continue;
        parents.set(k, { from: keyOf(s), command });
        if (world.won(state)) {
          const plan: string[] = [];
          for (let at: string | null = k; at !== null; ) {
            const p: { from: string | null; command: string } = parents.get(at)!;
            if (p.from === null) break;
            plan.unshift(p.command);
            at = p.from;
          }
          return plan;
        }
        next.push(state);
      }
    }
    frontier = next;
  }
  return null;
}
