/**
 * Crafter's rule tables from data.yaml (SmartPlay 9dec5f2, src/smartplay/crafter/crafter/data.yaml),
 * as ids the engine indexes with. tests/unit/crafter-engine-rules.test.ts checks them against the
 * yaml file itself (a byte-for-byte copy: tests/fixtures/upstream/crafter/data.yaml).
 */
import { ITEMS, MATERIALS, type Item, type Material } from './types';

/** Material ids as upstream's world stores them: index in MATERIALS + 1 (0 = none / outside). */
export const MAT = Object.fromEntries(MATERIALS.map((m, i) => [m, i + 1])) as Record<Material, number>;
/** Item ids: index in ITEMS (the player's inventory array). */
export const ITEM = Object.fromEntries(ITEMS.map((m, i) => [m, i])) as Record<Item, number>;

/** Bit masks over material ids. */
function maskOf(names: readonly Material[]): number {
  let m = 0;
  for (const n of names) m |= 1 << MAT[n];
  return m;
}

/** data.yaml `walkable` (cows, zombies, skeletons). */
export const WALKABLE = ['grass', 'path', 'sand'] as const satisfies readonly Material[];
export const CREATURE_WALK = maskOf(WALKABLE);
/** The player may also step onto lava (and dies there). */
export const PLAYER_WALK = maskOf([...WALKABLE, 'lava']);
/** Arrows fly over water and lava too. */
export const ARROW_WALK = maskOf([...WALKABLE, 'water', 'lava']);

/** Every item's maximum (all 9) and initial amount. */
export const ITEM_MAX: Record<Item, number> = Object.fromEntries(ITEMS.map((i) => [i, 9])) as Record<Item, number>;
export const ITEM_INITIAL: Record<Item, number> = Object.fromEntries(
  ITEMS.map((i) => [i, i === 'health' || i === 'food' || i === 'drink' || i === 'energy' ? 9 : 0]),
) as Record<Item, number>;

export interface CollectRule {
  require: Partial<Record<Item, number>>;
  receive: Partial<Record<Item, number>>;
  leaves: Material;
  probability: number;
}
/** data.yaml `collect`: what "do" on a material needs, gives, and leaves behind. */
export const COLLECT: Partial<Record<Material, CollectRule>> = {
  tree: { require: {}, receive: { wood: 1 }, leaves: 'grass', probability: 1 },
  stone: { require: { wood_pickaxe: 1 }, receive: { stone: 1 }, leaves: 'path', probability: 1 },
  coal: { require: { wood_pickaxe: 1 }, receive: { coal: 1 }, leaves: 'path', probability: 1 },
  iron: { require: { stone_pickaxe: 1 }, receive: { iron: 1 }, leaves: 'path', probability: 1 },
  diamond: { require: { iron_pickaxe: 1 }, receive: { diamond: 1 }, leaves: 'path', probability: 1 },
  water: { require: {}, receive: { drink: 1 }, leaves: 'water', probability: 1 },
  grass: { require: {}, receive: { sapling: 1 }, leaves: 'grass', probability: 0.1 },
};

export type Placeable = 'stone' | 'table' | 'furnace' | 'plant';
export interface PlaceRule {
  uses: Partial<Record<Item, number>>;
  where: readonly Material[];
  type: 'material' | 'object';
}
/** data.yaml `place`. */
export const PLACE: Record<Placeable, PlaceRule> = {
  stone: { uses: { stone: 1 }, where: ['grass', 'sand', 'path', 'water', 'lava'], type: 'material' },
  table: { uses: { wood: 2 }, where: ['grass', 'sand', 'path'], type: 'material' },
  furnace: { uses: { stone: 4 }, where: ['grass', 'sand', 'path'], type: 'material' },
  plant: { uses: { sapling: 1 }, where: ['grass'], type: 'object' },
};

export type Makeable = 'wood_pickaxe' | 'stone_pickaxe' | 'iron_pickaxe' | 'wood_sword' | 'stone_sword' | 'iron_sword';
export interface MakeRule {
  uses: Partial<Record<Item, number>>;
  nearby: readonly Material[];
  gives: number;
}
/** data.yaml `make`. */
export const MAKE: Record<Makeable, MakeRule> = {
  wood_pickaxe: { uses: { wood: 1 }, nearby: ['table'], gives: 1 },
  stone_pickaxe: { uses: { wood: 1, stone: 1 }, nearby: ['table'], gives: 1 },
  iron_pickaxe: { uses: { wood: 1, coal: 1, iron: 1 }, nearby: ['table', 'furnace'], gives: 1 },
  wood_sword: { uses: { wood: 1 }, nearby: ['table'], gives: 1 },
  stone_sword: { uses: { wood: 1, stone: 1 }, nearby: ['table'], gives: 1 },
  iron_sword: { uses: { wood: 1, coal: 1, iron: 1 }, nearby: ['table', 'furnace'], gives: 1 },
};
