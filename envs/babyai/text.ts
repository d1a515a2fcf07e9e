/**
 * AgentBoard's reading of the 7×7 view (README.md, Upstream, "Observation text"): the
 * objects it lists (sorted by Manhattan distance, scan order kept on ties), the
 * wall/box it says the agent faces, and the observation sentences. Everything is
 * derived from the encoded image plus the agent's pose and what it carries, as
 * AgentBoard does (it never looks at the world grid directly).
 */
import { DIR_TO_VEC, IDX_TO_COLOR, IDX_TO_OBJECT, IDX_TO_STATE, type WorldObj } from './objects.ts';
import { VIEW, viewToWorld } from './view.ts';

const INTERESTING = new Set(['door', 'key', 'ball', 'box', 'goal', 'lava', 'wall']);

export interface SeenObj {
  /** "red ball", "blue locked door", "grey wall". */
  name: string;
  pos: [number, number];
  /** Manhattan distance from the agent. */
  dis: number;
}

export interface Barrier {
  name: 'wall' | 'box';
  pos: [number, number];
  /** Steps ahead on the agent's facing line. */
  dis: number;
}

/** What AgentBoard extracts from one observation. */
export interface Scene {
  pos: [number, number];
  dir: number;
  carrying: WorldObj | null;
  objs: SeenObj[];
  barriers: Barrier[];
  /** Python ranges [lo, hi) the path planner may use. */
  xrange: [number, number];
  yrange: [number, number];
}

/** The planner's coordinate window, computed from the view's corner as AgentBoard does (it is 8 cells wide on some axes). */
function windowRanges(pos: readonly [number, number], dir: number): { xrange: [number, number]; yrange: [number, number] } {
  const [fx, fy] = DIR_TO_VEC[dir];
  const rx = -fy;
  const ry = fx;
  const half = VIEW >> 1;
  const tlx = pos[0] + fx * (VIEW - 1) - rx * half;
  const tly = pos[1] + fy * (VIEW - 1) - ry * half;
  const bx = tlx + VIEW * (-fx + rx);
  const by = tly + VIEW * (-fy + ry);
  const xrange: [number, number] = bx < tlx ? [bx, tlx + 1] : [tlx, bx];
  const yrange: [number, number] = by < tly ? [by, tly + 1] : [tly, by];
  return { xrange, yrange };
}

export function scanView(pos: readonly [number, number], dir: number, carrying: WorldObj | null, image: Uint8Array): Scene {
  const objs: SeenObj[] = [];
  const barriers: Barrier[] = [];
  const [fx, fy] = DIR_TO_VEC[dir];
  for (let j = 0; j < VIEW; j++) {
    for (let i = 0; i < VIEW; i++) {
      const [x, y] = viewToWorld(pos, dir, i, j);
      if (x < 0 || y < 0) continue;
      const dis = Math.abs(pos[0] - x) + Math.abs(pos[1] - y);
      if (dis === 0) continue;
      const k = (i * VIEW + j) * 3;
      const type = IDX_TO_OBJECT[image[k]];
      if (!INTERESTING.has(type)) continue;
      const color = IDX_TO_COLOR[image[k + 1]];
      const name = type === 'door' ? `${color} ${IDX_TO_STATE[image[k + 2]]} door` : `${color} ${type}`;
      objs.push({ name, pos: [x, y], dis });
      if (type === 'box' || type === 'wall') {
        const rx = x - pos[0];
        const ry = y - pos[1];
        if (fx * ry - fy * rx === 0) barriers.push({ name: type, pos: [x, y], dis: fx * rx + fy * ry });
      }
    }
  }
  // Array.prototype.sort is stable, as Python's sort is.
  objs.sort((a, b) => a.dis - b.dis);
  barriers.sort((a, b) => a.dis - b.dis);
  return { pos: [pos[0], pos[1]], dir, carrying, objs, barriers, ...windowRanges(pos, dir) };
}

/** Steps ahead and to the right of the agent. */
export function relative(scene: Scene, p: readonly [number, number]): { front: number; right: number } {
  const [fx, fy] = DIR_TO_VEC[scene.dir];
  const [rx, ry] = DIR_TO_VEC[(scene.dir + 1) % 4];
  const dx = p[0] - scene.pos[0];
  const dy = p[1] - scene.pos[1];
  return { front: fx * dx + fy * dy, right: rx * dx + ry * dy };
}

/** The observation text AgentBoard shows (postprocess_obs's description). */
export function describeScene(scene: Scene): string {
  let objText: string;
  if (scene.objs.length > 0) {
    objText = 'In front of you in this room, you can see several objects: ';
    const count = new Map<string, number>();
    for (const o of scene.objs) {
      if (o.name.includes('wall')) continue;
      const { front, right } = relative(scene, o.pos);
      const where =
        right === 0
          ? `right in front of you ${front} steps away. `
          : right > 0
            ? `${front} steps in front of you and ${right} steps to your right. `
            : `${front} steps in front of you and ${-right} steps to your left. `;
      const k = (count.get(o.name) ?? 0) + 1;
      count.set(o.name, k);
      objText += `There is a ${o.name} ${k} ${where} `;
    }
  } else {
    objText = 'You cannot see any objects within sight.';
  }
  let barrierText = 'The room has walls around you. ';
  if (scene.barriers.length > 0) {
    const b = scene.barriers[0];
    barrierText += `You are facing a ${b.name} ${b.dis} steps away. `;
  }
  const carryText = scene.carrying ? `You are carrying a ${scene.carrying.color} ${scene.carrying.type}.` : 'You are not carrying anything.';
  return objText + barrierText + carryText;
}
