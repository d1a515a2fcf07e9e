/**
 * A scripted Crafter player for Watch and the reference runs. It reads the whole map (privileged:
 * the text shows only the 9×7 window) and works down crafter's tech tree on purpose: a sapling and
 * a plant, wood, a table, the wooden pickaxe and sword, stone (placing one), the stone tools, a
 * furnace, coal, iron, the iron tools, diamonds; on the way it drinks water, eats cows and ripe
 * plants, sleeps by day when tired (and once early, to wake up), waits out the night in a nook walled on
 * three sides, and fights a zombie or skeleton next to it.
 * It keeps no memory: each action follows from the current view, so replays and resumes agree.
 */
import type { CrafterView, Item, Material, Pos } from './engine/types.ts';
import { MAKE as MAKE_RULES, PLACE as PLACE_RULES } from './engine/rules.ts';

// crafter's action ids (engine/types.ts ACTIONS).
const NOOP = 0;
const MOVE = { west: 1, east: 2, north: 3, south: 4 } as const;
const DO = 5;
const SLEEP = 6;
const PLACE_STONE = 7;
const PLACE_TABLE = 8;
const PLACE_FURNACE = 9;
const PLACE_PLANT = 10;
const MAKE = { wood_pickaxe: 11, stone_pickaxe: 12, iron_pickaxe: 13, wood_sword: 14, stone_sword: 15, iron_sword: 16 } as const;

/** What the table, the furnace and each tool take (crafter's data.yaml, through the engine's tables). */
const TABLE_WOOD = PLACE_RULES.table.uses.wood ?? 0;
const FURNACE_STONE = PLACE_RULES.furnace.uses.stone ?? 0;
const TOOL_WOOD = MAKE_RULES.wood_pickaxe.uses.wood ?? 0;

/** Directions with their move action, in a fixed order (ties in the search go to the first). */
const DIRS: readonly { d: Pos; action: number }[] = [
  { d: [0, -1], action: MOVE.north },
  { d: [1, 0], action: MOVE.east },
  { d: [0, 1], action: MOVE.south },
  { d: [-1, 0], action: MOVE.west },
];

const WALKABLE: ReadonlySet<Material | null> = new Set<Material | null>(['grass', 'sand', 'path']);
const PLACEABLE: ReadonlySet<Material | null> = new Set<Material | null>(['grass', 'sand', 'path']);

type CellTest = (x: number, y: number) => boolean;

/** The first move on a shortest walk to a cell next to one passing `target`, or DO / a turn when already next to it; null when none is reachable. */
function approach(view: CrafterView, target: CellTest, maxCells = 4096): number | null {
  const [px, py] = view.player.pos;
  // Already next to one: face it (a move toward a cell it cannot enter only turns), then act.
  for (const { d, action } of DIRS) {
    if (target(px + d[0], py + d[1])) {
      const [fx, fy] = view.player.facing;
      return fx === d[0] && fy === d[1] ? DO : action;
    }
  }
  return firstMove(view, (x, y) => DIRS.some((e) => target(x + e.d[0], y + e.d[1])), maxCells);
}

/** Cells around (x, y) a zombie cannot stand on (not grass, sand or path). */
function walls(view: CrafterView, x: number, y: number): number {
  let n = 0;
  for (const { d } of DIRS) if (!WALKABLE.has(view.material(x + d[0], y + d[1]))) n++;
  return n;
}

/** The first move toward the nearest free cell passing `target` (NOOP when standing on one), or null. */
function goTo(view: CrafterView, target: CellTest, maxCells = 600): number | null {
  const [px, py] = view.player.pos;
  if (target(px, py)) return NOOP;
  return firstMove(view, target, maxCells);
}

/** Breadth-first over free walkable cells from the player: the first move of the walk to the nearest cell passing `reached`. */
function firstMove(view: CrafterView, reached: CellTest, maxCells: number): number | null {
  const [px, py] = view.player.pos;
  const [w, h] = view.area;
  const first = new Int16Array(w * h).fill(-1);
  const queue = new Int32Array(w * h);
  let head = 0;
  let tail = 0;
  const start = px * h + py;
  first[start] = NOOP;
  queue[tail++] = start;
  while (head < tail && head < maxCells) {
    const cell = queue[head++];
    const cx = Math.floor(cell / h);
    const cy = cell % h;
    for (const { d, action } of DIRS) {
      const nx = cx + d[0];
      const ny = cy + d[1];
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
      const k = nx * h + ny;
      if (first[k] !== -1 || !WALKABLE.has(view.material(nx, ny)) || view.objectAt(nx, ny)) continue;
      first[k] = cell === start ? action : first[cell];
      if (reached(nx, ny)) return first[k];
      queue[tail++] = k;
    }
  }
  return null;
}

const isMaterial = (view: CrafterView, m: Material): CellTest => (x, y) => view.material(x, y) === m && !view.objectAt(x, y);
const isKind = (view: CrafterView, kind: string, extra?: (ripe: boolean) => boolean): CellTest => (x, y) => {
  const o = view.objectAt(x, y);
  return !!o && o.kind === kind && (!extra || extra(!!o.ripe));
};

/** Within upstream's `nearby` area (the 3×3 around the player) there is this material. */
function nearby(view: CrafterView, m: Material): boolean {
  const [px, py] = view.player.pos;
  for (let x = px - 1; x <= px + 1; x++) for (let y = py - 1; y <= py + 1; y++) if (view.material(x, y) === m) return true;
  return false;
}

/** Place `action` on the facing cell when it takes it, else step to a free cell first (the step faces a fresh cell). */
function place(view: CrafterView, action: number, where: ReadonlySet<Material | null>): number {
  const [px, py] = view.player.pos;
  const [fx, fy] = view.player.facing;
  if (where.has(view.material(px + fx, py + fy)) && !view.objectAt(px + fx, py + fy)) return action;
  for (const { d, action: move } of DIRS) {
    const x = px + d[0];
    const y = py + d[1];
    if (where.has(view.material(x, y)) && !view.objectAt(x, y)) return move;
  }
  return wander(view);
}

/** Walk somewhere new when nothing else applies: toward the nearest tree, else grass, else dig through stone (never stand still: arrows find a still target). */
function wander(view: CrafterView): number {
  return approach(view, isMaterial(view, 'tree')) ?? approach(view, isMaterial(view, 'grass')) ?? (view.player.inventory.wood_pickaxe > 0 ? approach(view, isMaterial(view, 'stone')) : null) ?? DIRS[view.step % 4].action;
}

/** Craft `item` at a table (and a furnace when `furnace`): go to them first. */
function craft(view: CrafterView, item: keyof typeof MAKE, furnace: boolean): number | null {
  const hasTable = nearby(view, 'table');
  const hasFurnace = !furnace || nearby(view, 'furnace');
  if (hasTable && hasFurnace) return MAKE[item];
  if (!hasTable) return approach(view, isMaterial(view, 'table'));
  return approach(view, isMaterial(view, 'furnace'));
}

/** Collect a material when the tool allows and one is reachable. */
const collect = (view: CrafterView, m: Material): number | null => approach(view, isMaterial(view, m));

/** The oracle's crafter action id for this view. */
export function oracleMove(view: CrafterView): number {
  if (view.done) return NOOP;
  const p = view.player;
  if (p.sleeping) return NOOP;
  const inv = (i: Item) => p.inventory[i];
  const got = (a: keyof typeof p.achievements) => p.achievements[a] > 0;

  // A creature that hurts, next to the player: face it and hit it.
  const [px, py] = p.pos;
  for (const { d, action } of DIRS) {
    const o = view.objectAt(px + d[0], py + d[1]);
    if (o && (o.kind === 'zombie' || o.kind === 'skeleton')) return p.facing[0] === d[0] && p.facing[1] === d[1] ? DO : action;
  }

  // Nights: wait in a nook (three sides walled), where zombies come one at a time and from one side.
  if (view.daylight < 0.45 && inv('health') > 0) {
    const nook = goTo(view, (x, y) => walls(view, x, y) >= 3);
    if (nook !== null && (nook !== NOOP || inv('drink') > 2)) return nook;
  }

  // Needs first.
  if (inv('drink') <= 5 || !got('collect_drink')) {
    const a = approach(view, isMaterial(view, 'water'));
    if (a !== null) return a;
  }
  if (inv('food') <= 5 || !got('eat_cow')) {
    const a = approach(view, isKind(view, 'cow'));
    if (a !== null) return a;
  }
  // Sleep by day: asleep, a zombie's blow takes 7 health, and zombies come out at night (awake, the
  // oracle fights them). Tired enough, it sleeps whenever; once early on, to wake up (an achievement).
  const day = view.daylight > 0.6;
  if (inv('energy') <= 1 || (day && (inv('energy') <= 4 || (!got('wake_up') && inv('energy') < 9)))) return SLEEP;
  const ripe = approach(view, isKind(view, 'plant', (r) => r), 24);
  if (ripe !== null) return ripe;

  // A sapling, and a plant.
  if (inv('sapling') > 0 && !got('place_plant')) return place(view, PLACE_PLANT, new Set<Material | null>(['grass']));
  if (!got('collect_sapling')) {
    const [fx, fy] = p.facing;
    if (view.material(px + fx, py + fy) === 'grass' && !view.objectAt(px + fx, py + fy)) return DO;
    return place(view, DO, new Set<Material | null>(['grass']));
  }

  // Wood, a table, the wooden tools.
  const woodTools = (inv('wood_pickaxe') > 0 ? 0 : 1) + (inv('wood_sword') > 0 ? 0 : 1);
  if (!got('place_table') && inv('wood') < TABLE_WOOD + TOOL_WOOD * woodTools) return collect(view, 'tree') ?? wander(view);
  if (!got('place_table')) return place(view, PLACE_TABLE, PLACEABLE);
  if (woodTools > 0 && inv('wood') < TOOL_WOOD) return collect(view, 'tree') ?? wander(view);
  if (inv('wood_pickaxe') === 0) return craft(view, 'wood_pickaxe', false) ?? wander(view);
  if (inv('wood_sword') === 0) return craft(view, 'wood_sword', false) ?? wander(view);

  // Stone, a placed stone, the stone tools, a furnace.
  const stoneTools = (inv('stone_pickaxe') > 0 ? 0 : 1) + (inv('stone_sword') > 0 ? 0 : 1);
  const stoneNeed = (got('place_stone') ? 0 : 1) + stoneTools + (got('place_furnace') ? 0 : FURNACE_STONE);
  if (inv('stone') < Math.min(stoneNeed, 9)) return collect(view, 'stone') ?? wander(view);
  if (!got('place_stone')) return place(view, PLACE_STONE, new Set<Material | null>(['grass', 'sand', 'path', 'water']));
  if (stoneTools > 0 && inv('wood') < TOOL_WOOD) return collect(view, 'tree') ?? wander(view);
  if (inv('stone_pickaxe') === 0) return craft(view, 'stone_pickaxe', false) ?? wander(view);
  if (inv('stone_sword') === 0) return craft(view, 'stone_sword', false) ?? wander(view);
  if (!got('place_furnace')) {
    if (!nearby(view, 'table')) return approach(view, isMaterial(view, 'table')) ?? place(view, PLACE_FURNACE, PLACEABLE);
    return place(view, PLACE_FURNACE, PLACEABLE);
  }

  // Coal and iron, the iron tools, diamonds.
  const ironTools = (inv('iron_pickaxe') > 0 ? 0 : 1) + (inv('iron_sword') > 0 ? 0 : 1);
  if (ironTools > 0) {
    if (inv('coal') < ironTools) return collect(view, 'coal') ?? wander(view);
    if (inv('iron') < ironTools) return collect(view, 'iron') ?? wander(view);
    if (inv('wood') < ironTools) return collect(view, 'tree') ?? wander(view);
    return craft(view, inv('iron_pickaxe') === 0 ? 'iron_pickaxe' : 'iron_sword', true) ?? wander(view);
  }
  if (!got('collect_diamond')) return collect(view, 'diamond') ?? wander(view);

  // The rest: a skeleton to defeat, then keep fed and gather.
  if (!got('defeat_skeleton')) {
    const a = approach(view, isKind(view, 'skeleton'));
    if (a !== null) return a;
  }
  return collect(view, 'tree') ?? wander(view);
}
