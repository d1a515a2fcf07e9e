/**
 * What the Crafter board draws, read once from the engine's view: the 9×7 cells around the player
 * (upstream's local view: x − 4 … x + 4, y − 3 … y + 3; null outside the map), the player's facing
 * and sleep, the daylight, the vitals, what is held and the achievements unlocked so far.
 */
import { ACHIEVEMENTS, ITEMS, type Achievement, type CrafterView, type Item, type Material, type ObjectKind, type Pos } from '../engine/types.ts';

export const VIEW_W = 9;
export const VIEW_H = 7;
export const VITALS = ['health', 'food', 'drink', 'energy'] as const;
export const VITAL_MAX = 9;

export interface Cell {
  material: Material | null;
  object?: { kind: ObjectKind; ripe: boolean; facing?: Pos };
}

export interface Scene {
  cells: Cell[][]; // [row][column]
  facing: Pos;
  sleeping: boolean;
  daylight: number;
  step: number;
  vitals: { name: (typeof VITALS)[number]; value: number }[];
  held: { name: Item; count: number }[];
  unlocked: Achievement[];
  dead: boolean;
}

export function sceneOf(view: CrafterView): Scene {
  const p = view.player;
  const [px, py] = p.pos;
  const cells: Cell[][] = [];
  for (let r = 0; r < VIEW_H; r++) {
    const row: Cell[] = [];
    for (let c = 0; c < VIEW_W; c++) {
      const x = px - 4 + c;
      const y = py - 3 + r;
      const o = view.objectAt(x, y);
      row.push({ material: view.material(x, y), object: o ? { kind: o.kind, ripe: !!o.ripe, facing: o.facing } : undefined });
    }
    cells.push(row);
  }
  return {
    cells,
    facing: p.facing,
    sleeping: p.sleeping,
    daylight: view.daylight,
    step: view.step,
    vitals: VITALS.map((name) => ({ name, value: p.inventory[name] })),
    held: ITEMS.filter((i) => !(VITALS as readonly string[]).includes(i) && p.inventory[i] > 0).map((name) => ({ name, count: p.inventory[name] })),
    unlocked: ACHIEVEMENTS.filter((a) => p.achievements[a] > 0),
    dead: p.inventory.health <= 0,
  };
}

/** "collect_wood" → "collect wood". */
export const words = (name: string): string => name.replace(/_/g, ' ');

/** Upstream's day cycle: `daylight` under 0.5 is night in its render (the noise starts there). */
export const isNight = (daylight: number): boolean => daylight < 0.5;
