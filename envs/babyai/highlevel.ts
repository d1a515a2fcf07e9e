/**
 * AgentBoard's high-level action set for BabyAI (README.md, Upstream, "High-level action
 * set"), recomputed from the scene after every step: the action names in
 * AgentBoard's order with their low-level action lists, and the error message for
 * each known-but-unavailable name. Paths come from AgentBoard's breadth-first search
 * over (cell, direction) inside its coordinate window, reproduced with its exact
 * queue behaviour (states are marked visited when dequeued, so a state can be queued
 * several times and the last parent written wins), because that decides which of
 * several shortest paths is offered.
 */
import { DIR_TO_VEC } from './objects.ts';
import type { Scene, SeenObj } from './text.ts';

export interface TextOptions {
  /**
   * Benchmark-faithful error text. AgentBoard prints its whole per-name door counter
   * (a Python dict) instead of the door's index in two messages ("toggle and go
   * through" a closed or locked door with no path); true reproduces that, false
   * prints the index.
   */
  faithfulErrors: boolean;
}

export const FAITHFUL: TextOptions = { faithfulErrors: true };

export interface ActionSet {
  /** Action name → low-level actions, in AgentBoard's insertion order. */
  actions: Map<string, number[]>;
  /** Action name → error message, in insertion order (a name may also be an action; the action wins). */
  errors: Map<string, string>;
}

const BLOCKING = ['wall', 'box', 'lava', 'ball', 'key'];

function blocks(name: string): boolean {
  return BLOCKING.some((b) => name.includes(b));
}

/**
 * AgentBoard's find_path: low-level actions that bring the agent to face `goal`
 * (arrive = false) or onto it (arrive = true), or null. Moves are tried in the order
 * forward, left, right.
 */
export function findPath(scene: Scene, goal: readonly [number, number], arrive: boolean): number[] | null {
  const things: { name: string; pos: [number, number] }[] = [...scene.objs, ...scene.barriers];
  const [x0, x1] = scene.xrange;
  const [y0, y1] = scene.yrange;
  const blocked = new Set<string>();
  for (const t of things) if (blocks(t.name)) blocked.add(`${t.pos[0]},${t.pos[1]}`);

  const key = (x: number, y: number, d: number) => `${x},${y},${d}`;
  const startKey = key(scene.pos[0], scene.pos[1], scene.dir);
  const queue: [number, number, number][] = [[scene.pos[0], scene.pos[1], scene.dir]];
  const visited = new Set<string>();
  const parent = new Map<string, [string, number]>();
  for (let head = 0; head < queue.length; head++) {
    const [x, y, d] = queue[head];
    const k = key(x, y, d);
    visited.add(k);
    const [dx, dy] = DIR_TO_VEC[d];
    const reached = arrive ? x === goal[0] && y === goal[1] : goal[0] - x === dx && goal[1] - y === dy;
    if (reached) {
      const path: number[] = [];
      let cur = k;
      while (cur !== startKey) {
        const [prev, action] = parent.get(cur)!;
        path.push(action);
        cur = prev;
      }
      return path.reverse();
    }
    for (const action of [2, 0, 1]) {
      let nx = x;
      let ny = y;
      let nd = d;
      if (action === 0) nd = (d + 3) % 4;
      else if (action === 1) nd = (d + 1) % 4;
      else {
        nx += dx;
        ny += dy;
      }
      // AgentBoard only tests obstacles inside a loop over the known objects, so with none it would test nothing.
      if (things.length > 0) {
        if (nx < x0 || nx >= x1 || ny < y0 || ny >= y1) continue;
        const nk = key(nx, ny, nd);
        if (visited.has(nk)) continue;
        if (blocked.has(`${nx},${ny}`)) continue;
        queue.push([nx, ny, nd]);
        parent.set(nk, [k, action]);
      } else {
        queue.push([nx, ny, nd]);
        parent.set(key(nx, ny, nd), [k, action]);
      }
      if (queue.length > 200_000) return null; // unreachable in practice; keeps a pathological window finite
    }
  }
  return null;
}

/** Python's repr of a {str: int} dict, e.g. {'blue closed door': 1, 'red open door': 2}. */
function pyDictRepr(m: Map<string, number>): string {
  return `{${[...m].map(([k, v]) => `'${k}': ${v}`).join(', ')}}`;
}

/** Numbered actions per object name, with AgentBoard's counter quirk (an unreachable first object takes number 1 in the error, and the next reachable one takes 1 again). */
function numbered(
  prefix: string,
  errorVerb: string,
  list: readonly SeenObj[],
  pathOf: (o: SeenObj) => number[] | null,
  actions: Map<string, number[]>,
  errors: Map<string, string>,
): void {
  const cnt = new Map<string, number>();
  for (const o of list) {
    const path = pathOf(o);
    const first = `${prefix}${o.name} 1`;
    if (path !== null) {
      if (!actions.has(first)) {
        cnt.set(o.name, 1);
        actions.set(first, path);
      } else {
        const k = (cnt.get(o.name) ?? 0) + 1;
        cnt.set(o.name, k);
        actions.set(`${prefix}${o.name} ${k}`, path);
      }
    } else if (!actions.has(first)) {
      errors.set(first, `You cannot ${errorVerb}${o.name} 1, as there is no path leading to it.`);
    } else {
      // AgentBoard reads the counter here; it always exists once "... 1" is an action.
      const k = (cnt.get(o.name) ?? NaN) + 1;
      errors.set(`${prefix}${o.name} ${k}`, `You cannot ${errorVerb}${o.name} ${k}, as there is no path leading to it.`);
    }
  }
}

/** The action set and error messages for a scene (postprocess_obs's second half). */
export function actionSet(scene: Scene, options: TextOptions = FAITHFUL): ActionSet {
  const actions = new Map<string, number[]>([
    ['turn left', [0]],
    ['turn right', [1]],
  ]);
  const errors = new Map<string, string>();
  const objs = scene.objs;
  const carrying = scene.carrying;

  if (scene.barriers.length === 0 || scene.barriers[0].dis > 1) actions.set('move forward', [2]);
  else errors.set('move forward', "There is a barrier in front of you, you can't move forward.");

  if (carrying === null && objs.length > 0) {
    const pickable = objs.filter((o) => !o.name.includes('wall') && !o.name.includes('door') && !o.name.includes('goal'));
    numbered('pickup ', 'pickup ', pickable, (o) => {
      const p = findPath(scene, o.pos, false);
      return p === null ? null : [...p, 3];
    }, actions, errors);
  }

  if (carrying !== null) {
    const [dx, dy] = DIR_TO_VEC[scene.dir];
    const fx = scene.pos[0] + dx;
    const fy = scene.pos[1] + dy;
    const occupied = objs.some((o) => o.pos[0] === fx && o.pos[1] === fy && blocks(o.name));
    if (occupied) errors.set('drop', 'You cannot drop the object, as there is already an object in front of you.');
    else actions.set('drop', [4]);
  } else {
    errors.set('drop', 'You cannot drop the object, as you are not carrying anything.');
  }

  if (objs.length > 0) {
    const cntDoor = new Map<string, number>();
    for (const o of objs) {
      if (o.name.includes('door')) cntDoor.set(o.name, (cntDoor.get(o.name) ?? 0) + 1);
      const k = cntDoor.get(o.name);
      const shownK = options.faithfulErrors ? pyDictRepr(cntDoor) : String(k);
      if (o.name.includes('open door')) {
        const path = findPath(scene, o.pos, true);
        if (path !== null) actions.set(`go through ${o.name} ${k}`, path);
        else errors.set(`go through ${o.name} ${k}`, `You cannot go through ${o.name} ${k}, as there is no path leading to it.`);
      }
      if (o.name.includes('closed door')) {
        const path = findPath(scene, o.pos, false);
        if (path !== null) actions.set(`toggle and go through ${o.name} ${k}`, [...path, 5, 2]);
        else errors.set(`toggle and go through ${o.name} ${k}`, `You cannot toggle and go through ${o.name} ${shownK}, as there is no path leading to it.`);
        if (path !== null && path.length === 0) actions.set('toggle', [5]);
        errors.set(`go through ${o.name} ${k}`, `You cannot go through ${o.name} ${k}, as it is closed. You should toggle it first.`);
      }
      if (o.name.includes('locked door')) {
        const name = `toggle and go through ${o.name} ${k}`;
        if (carrying === null || carrying.type !== 'key') {
          errors.set(name, `You cannot toggle and go through ${o.name} ${k}, as you are not carrying a key.`);
          continue;
        }
        if (carrying.color !== o.name.split(' ')[0]) {
          errors.set(name, `You cannot toggle and go through ${o.name} ${k}, as the color of the key you are carrying does not match the color of door.`);
          continue;
        }
        const path = findPath(scene, o.pos, false);
        if (path !== null) actions.set(name, [...path, 5, 2]);
        else errors.set(name, `You cannot toggle and go through ${o.name} ${shownK}, as there is no path leading to it.`);
        if (path !== null && path.length === 0) actions.set('toggle', [5]);
      }
    }

    for (const o of objs) {
      if (!o.name.includes('goal')) continue;
      const path = findPath(scene, o.pos, true);
      if (path !== null) actions.set('go to goal', path);
      else errors.set('go to goal', 'You cannot go to the goal, as there is no path leading to it.');
    }

    const targets = objs.filter((o) => !o.name.includes('wall') && !o.name.includes('goal'));
    numbered('go to ', 'go to ', targets, (o) => findPath(scene, o.pos, false), actions, errors);
  }

  actions.set('check available actions', []);
  return { actions, errors };
}
