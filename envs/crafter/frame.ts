/**
 * What the board draws of one step, captured when the step is taken (a couple of hundred bytes):
 * upstream's local view (the 9×7 cells around the player), the player's facing and sleep, the
 * daylight, the inventory and the achievements. Kept in each state, so a replay shows any step at
 * once, backwards as well as forwards, without re-running the game to it.
 */
import { ACHIEVEMENTS, ITEMS, MATERIALS, type CrafterView, type ObjectKind } from './engine/types.ts';

export const VIEW_W = 9;
export const VIEW_H = 7;
const CELLS = VIEW_W * VIEW_H;

export const OBJECT_KINDS: readonly ObjectKind[] = ['player', 'cow', 'zombie', 'skeleton', 'arrow', 'plant'];

export interface Frame {
  /** Per cell, row-major from the top-left: material id (1–12, MATERIALS order), 0 outside the map. */
  readonly materials: Uint8Array;
  /** Per cell: 1 + index in OBJECT_KINDS, 0 for none; + 8 for a ripe plant. */
  readonly objects: Uint8Array;
  /** Per cell: an arrow's facing as 1 + (dx + 1) * 3 + (dy + 1), else 0. */
  readonly arrows: Uint8Array;
  readonly facing: readonly [number, number];
  readonly sleeping: boolean;
  readonly daylight: number;
  readonly step: number;
  /** ITEMS order. */
  readonly inventory: Int8Array;
  /** Bit i: ACHIEVEMENTS[i] unlocked. */
  readonly unlocked: number;
}

const MATERIAL_ID = new Map<string, number>(MATERIALS.map((m, i) => [m, i + 1]));
const KIND_ID = new Map<string, number>(OBJECT_KINDS.map((k, i) => [k, i + 1]));
export const RIPE = 8;

export function captureFrame(view: CrafterView): Frame {
  const p = view.player;
  const [px, py] = p.pos;
  const materials = new Uint8Array(CELLS);
  const objects = new Uint8Array(CELLS);
  const arrows = new Uint8Array(CELLS);
  for (let r = 0; r < VIEW_H; r++) {
    for (let c = 0; c < VIEW_W; c++) {
      const x = px - 4 + c;
      const y = py - 3 + r;
      const i = r * VIEW_W + c;
      const m = view.material(x, y);
      materials[i] = m === null ? 0 : MATERIAL_ID.get(m)!;
      const o = view.objectAt(x, y);
      if (!o) continue;
      objects[i] = KIND_ID.get(o.kind)! + (o.ripe ? RIPE : 0);
      if (o.kind === 'arrow' && o.facing) arrows[i] = 1 + (o.facing[0] + 1) * 3 + (o.facing[1] + 1);
    }
  }
  const inventory = new Int8Array(ITEMS.length);
  ITEMS.forEach((item, i) => (inventory[i] = p.inventory[item]));
  let unlocked = 0;
  ACHIEVEMENTS.forEach((a, i) => {
    if (p.achievements[a] > 0) unlocked |= 1 << i;
  });
  return { materials, objects, arrows, facing: [p.facing[0], p.facing[1]], sleeping: p.sleeping, daylight: view.daylight, step: view.step, inventory, unlocked };
}
