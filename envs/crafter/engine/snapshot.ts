/**
 * The engine's state in the encoding tests/fixtures/upstream/crafter/record.py writes for upstream,
 * so conformance tests compare like with like.
 */
import type { CrafterEngine } from './game';
import { ARROW, PLANT, SKELETON, ZOMBIE, type Thing } from './world';

const LETTERS = ['P', 'C', 'Z', 'S', 'A', 'L'];

/** The material grid, x-major, one character per cell: '0' + material id. */
export function gridString(game: CrafterEngine): string {
  let s = '';
  for (const id of game.world.mat) s += String.fromCharCode(48 + id);
  return s;
}

/** [letter, x, y, health, ...kind-specific state] as record.py's `object_state`. */
export function objectState(o: Thing): (string | number)[] {
  const row: (string | number)[] = [LETTERS[o.type], o.x, o.y, o.health];
  if (o.type === ZOMBIE) row.push(o.cooldown);
  else if (o.type === SKELETON) row.push(o.reload);
  else if (o.type === PLANT) row.push(o.grown);
  else if (o.type === ARROW) row.push(o.fx, o.fy);
  return row;
}

export function objectStates(game: CrafterEngine): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const o of game.world.list) if (o) out.push(objectState(o));
  return out;
}

/** One transcript line as record.py's `step_record` (without the grid changes). */
export function stepState(game: CrafterEngine) {
  const p = game.player;
  const last = game.last;
  return {
    t: game.stepCount,
    r: last.reward,
    d: last.done,
    pos: [p.x, p.y],
    f: [p.fx, p.fy],
    inv: Array.from(p.inv),
    ach: Array.from(p.ach),
    sl: p.sleeping,
    life: [p.hunger, p.thirst, p.fatigue, p.recover],
    dl: game.world.daylight,
    rng: game.world.random.signature(),
    objs: objectStates(game),
  };
}
