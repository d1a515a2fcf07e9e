/**
 * The oracle's plan from any state: the game's walkthrough while the state is on it, else a bounded
 * breadth-first search over the admissible commands that touch what the task needs.
 */
import type { World, WorldState } from './world.ts';

const keyOf = (s: WorldState) => s.facts.join('|');
/** States expanded before the search gives up (a game's plans are 3–9 steps; most need far fewer). */
export const PLAN_NODE_LIMIT = 5_000;

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

/** The things a command names ("take pencil 2 from desk 2" → pencil 2, desk 2). */
const namesIn = (command: string) => command.match(/[a-z]+ \d+/g) ?? [];
/** Verbs that change the world (examine, look, inventory and help only change what was "checked"). */
const MOVES = /^(go to|open|close|take|put|move|clean|heat|cool|use|slice) /;

/**
 * Off the walkthrough, a breadth-first search over the commands that touch what matters: the things
 * the walkthrough names, what you hold, and the receptacles those things are in now. States are
 * compared without the "checked" facts examining leaves behind.
 */
export function planFrom(world: World, start: WorldState, walkthrough: readonly string[]): string[] | null {
  if (world.won(start)) return [];
  const onPath = walkthroughStates(world, walkthrough).get(keyOf(start));
  if (onPath && onPath.length > 0) return onPath;
  const nameOf = (id: string) => world.entities.get(id)?.name ?? id;
  const relevant = new Set(walkthrough.flatMap(namesIn));
  const factsOf = (pred: string) => start.facts.filter((f) => f.startsWith(pred + ' ')).map((f) => f.split(' ').slice(1));
  for (const [, o] of factsOf('holds')) relevant.add(nameOf(o));
  for (const [o, r] of factsOf('inreceptacle')) if (relevant.has(nameOf(o))) relevant.add(nameOf(r));
  const key = (s: WorldState) => s.facts.filter((f) => !f.startsWith('checked ')).join('|');
  const parents = new Map<string, { from: string | null; command: string }>([[key(start), { from: null, command: '' }]]);
  let frontier: WorldState[] = [start];
  let expanded = 0;
  while (frontier.length > 0 && expanded < PLAN_NODE_LIMIT) {
    const next: WorldState[] = [];
    for (const s of frontier) {
      expanded++;
      for (const { command, state } of world.successors(s)) {
        if (!MOVES.test(command) || !namesIn(command).every((n) => relevant.has(n))) continue;
        const k = key(state);
        if (parents.has(k)) continue;
        parents.set(k, { from: key(s), command });
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
