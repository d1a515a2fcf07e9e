/**
 * What the Crafter board draws, read from a step's frame (../frame.ts): the 9×7 cells around the
 * player (upstream's local view: x − 4 … x + 4, y − 3 … y + 3; null outside the map), the player's
 * facing and sleep, the daylight, the vitals, what is held and the achievements unlocked so far.
 */
import { ACHIEVEMENTS, ITEMS, MATERIALS, type Achievement, type Item, type Material, type ObjectKind, type Pos } from '../engine/types.ts';
import { OBJECT_KINDS, RIPE, VIEW_H, VIEW_W, type Frame } from '../frame.ts';

export { VIEW_H, VIEW_W } from '../frame.ts';
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

export function sceneOf(frame: Frame): Scene {
  const cells: Cell[][] = [];
  for (let r = 0; r < VIEW_H; r++) {
    const row: Cell[] = [];
    for (let c = 0; c < VIEW_W; c++) {
      const i = r * VIEW_W + c;
      const m = frame.materials[i];
      const o = frame.objects[i];
      const a = frame.arrows[i];
      row.push({
        material: m === 0 ? null : MATERIALS[m - 1],
        object: o === 0 ? undefined : { kind: OBJECT_KINDS[(o % RIPE) - 1], ripe: o >= RIPE, facing: a ? [Math.floor((a - 1) / 3) - 1, ((a - 1) % 3) - 1] : undefined },
      });
    }
    cells.push(row);
  }
  const count = (item: Item) => frame.inventory[ITEMS.indexOf(item)];
  return {
    cells,
    facing: frame.facing,
    sleeping: frame.sleeping,
    daylight: frame.daylight,
    step: frame.step,
    vitals: VITALS.map((name) => ({ name, value: count(name) })),
    held: ITEMS.filter((i) => !(VITALS as readonly string[]).includes(i) && count(i) > 0).map((name) => ({ name, count: count(name) })),
    unlocked: ACHIEVEMENTS.filter((_, i) => (frame.unlocked >> i) & 1),
    dead: count('health') <= 0,
  };
}

/** "collect_wood" → "collect wood". */
export const words = (name: string): string => name.replace(/_/g, ' ');

/** Upstream's day cycle: `daylight` under 0.5 is night in its render (the noise starts there). */
export const isNight = (daylight: number): boolean => daylight < 0.5;
