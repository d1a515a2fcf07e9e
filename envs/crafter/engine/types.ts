/**
 * What the Crafter engine shows the rest of the app: the names from crafter's data.yaml
 * (SmartPlay 9dec5f2, src/smartplay/crafter/crafter/data.yaml) in upstream's order, and a
 * read-only view of a world. The engine (this folder) owns the rules; the text observation,
 * the views and the episode wiring read only this view.
 */

/** Upstream's action order: the index is the action id crafter's env.step takes. */
export const ACTIONS = [
  'noop', 'move_left', 'move_right', 'move_up', 'move_down', 'do', 'sleep',
  'place_stone', 'place_table', 'place_furnace', 'place_plant',
  'make_wood_pickaxe', 'make_stone_pickaxe', 'make_iron_pickaxe',
  'make_wood_sword', 'make_stone_sword', 'make_iron_sword',
] as const;
export type Action = (typeof ACTIONS)[number];

/** Upstream's material order (material id = index + 1; 0 is "nothing"). */
export const MATERIALS = ['water', 'grass', 'stone', 'path', 'sand', 'tree', 'lava', 'coal', 'iron', 'diamond', 'table', 'furnace'] as const;
export type Material = (typeof MATERIALS)[number];

/** Upstream's inventory order (data.yaml `items`). */
export const ITEMS = [
  'health', 'food', 'drink', 'energy', 'sapling', 'wood', 'stone', 'coal', 'iron', 'diamond',
  'wood_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'wood_sword', 'stone_sword', 'iron_sword',
] as const;
export type Item = (typeof ITEMS)[number];

/** The 22 achievements (data.yaml `achievements`, upstream's order). */
export const ACHIEVEMENTS = [
  'collect_coal', 'collect_diamond', 'collect_drink', 'collect_iron', 'collect_sapling', 'collect_stone', 'collect_wood',
  'defeat_skeleton', 'defeat_zombie', 'eat_cow', 'eat_plant',
  'make_iron_pickaxe', 'make_iron_sword', 'make_stone_pickaxe', 'make_stone_sword', 'make_wood_pickaxe', 'make_wood_sword',
  'place_furnace', 'place_plant', 'place_stone', 'place_table', 'wake_up',
] as const;
export type Achievement = (typeof ACHIEVEMENTS)[number];

export type ObjectKind = 'player' | 'cow' | 'zombie' | 'skeleton' | 'arrow' | 'plant';

/** A position as upstream's (x, y): x grows east, y grows south; the world is area[0] × area[1]. */
export type Pos = readonly [number, number];

export interface CrafterObjectView {
  readonly kind: ObjectKind;
  readonly pos: Pos;
  readonly health: number;
  /** Facing of the player and of arrows ((0, 1) = south). */
  readonly facing?: Pos;
  /** Plants: ripe (upstream's `grown > 300`), the texture switches from sapling to plant. */
  readonly ripe?: boolean;
}

export interface CrafterView {
  /** Upstream's `_step` (SmartPlay's reset leaves it at 1). */
  readonly step: number;
  readonly area: Pos;
  /** Material at (x, y), or null outside the area. */
  material(x: number, y: number): Material | null;
  /** The object at (x, y), if any. */
  objectAt(x: number, y: number): CrafterObjectView | undefined;
  /** Every live object in creation order; the player first. */
  readonly objects: readonly CrafterObjectView[];
  readonly player: {
    readonly pos: Pos;
    readonly facing: Pos;
    readonly sleeping: boolean;
    readonly inventory: Readonly<Record<Item, number>>;
    readonly achievements: Readonly<Record<Achievement, number>>;
  };
  /** Upstream's daylight, 1 = full day. */
  readonly daylight: number;
  /** The player died (health ≤ 0) or the step limit was reached. */
  readonly done: boolean;
}
