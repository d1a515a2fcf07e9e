/**
 * Each object's per-step update, as upstream's objects.py (SmartPlay 9dec5f2): the player (actions,
 * life counters, sleep), cows, zombies, skeletons, arrows and plants. Random draws happen in
 * upstream's order, including the short-circuits of its `and`/`elif` chains, and a creature removed
 * at the top of its update still runs the rest of it (it can still draw, shoot and bite) as upstream's does.
 */
import { ACHIEVEMENTS, ACTIONS, ITEMS, type Achievement, type Item } from './types';
import { ARROW_WALK, COLLECT, CREATURE_WALK, ITEM, ITEM_MAX, MAKE, MAT, PLACE, PLAYER_WALK, type Makeable, type Placeable } from './rules';
import { ARROW, COW, PLANT, SKELETON, ZOMBIE, Player, Thing, World, hurt } from './world';

const ACH = Object.fromEntries(ACHIEVEMENTS.map((a, i) => [a, i])) as Record<Achievement, number>;
const HEALTH = ITEM.health, FOOD = ITEM.food, DRINK = ITEM.drink, ENERGY = ITEM.energy;
const ENERGY_MAX = ITEM_MAX.energy;

/** Upstream's `all_dirs` order, which `random_dir` indexes. */
const DIRS_X = [-1, 1, 0, 0];
const DIRS_Y = [0, 0, -1, 1];

// Action ids.
const NOOP = ACTIONS.indexOf('noop'), DO = ACTIONS.indexOf('do'), SLEEP = ACTIONS.indexOf('sleep');
const MOVE_X = new Int8Array(ACTIONS.length), MOVE_Y = new Int8Array(ACTIONS.length);
MOVE_X[ACTIONS.indexOf('move_left')] = -1;
MOVE_X[ACTIONS.indexOf('move_right')] = 1;
MOVE_Y[ACTIONS.indexOf('move_up')] = -1;
MOVE_Y[ACTIONS.indexOf('move_down')] = 1;
const PLACE_OF: (Placeable | null)[] = ACTIONS.map((a) => (a.startsWith('place_') ? (a.slice(6) as Placeable) : null));
const MAKE_OF: (Makeable | null)[] = ACTIONS.map((a) => (a.startsWith('make_') ? (a.slice(5) as Makeable) : null));

/** Rule tables turned into id lists once, so the step never looks up strings. */
type Amounts = readonly (readonly [item: number, amount: number])[];
const amounts = (r: Partial<Record<Item, number>>): Amounts =>
  Object.entries(r).map(([k, v]) => [ITEMS.indexOf(k as Item), v as number] as const);
const COLLECT_BY_MAT: ({ require: Amounts; receive: Amounts; achievements: number[]; leaves: number; probability: number } | null)[] = [];
for (const [name, id] of Object.entries(MAT)) {
  const rule = COLLECT[name as keyof typeof COLLECT];
  COLLECT_BY_MAT[id] = rule
    ? {
        require: amounts(rule.require),
        receive: amounts(rule.receive),
        achievements: Object.keys(rule.receive).map((item) => ACH[`collect_${item}` as Achievement]),
        leaves: MAT[rule.leaves],
        probability: rule.probability,
      }
    : null;
}
const PLACE_RULES = Object.fromEntries(
  (Object.keys(PLACE) as Placeable[]).map((name) => {
    const rule = PLACE[name];
    let where = 0;
    for (const m of rule.where) where |= 1 << MAT[m];
    const matId = rule.type === 'material' ? MAT[name as 'stone' | 'table' | 'furnace'] : 0;
    return [name, { uses: amounts(rule.uses), where, matId, achievement: ACH[`place_${name}` as Achievement] }];
  }),
) as Record<Placeable, { uses: Amounts; where: number; matId: number; achievement: number }>;
const MAKE_RULES = Object.fromEntries(
  (Object.keys(MAKE) as Makeable[]).map((name) => {
    const rule = MAKE[name];
    let nearby = 0;
    for (const m of rule.nearby) nearby |= 1 << MAT[m];
    return [name, { uses: amounts(rule.uses), nearby, item: ITEM[name], gives: rule.gives, achievement: ACH[`make_${name}` as Achievement] }];
  }),
) as Record<Makeable, { uses: Amounts; nearby: number; item: number; gives: number; achievement: number }>;

const hasAll = (inv: Int32Array, need: Amounts) => need.every(([i, n]) => inv[i] >= n);

/** Unit step from `from` toward `to` (upstream `toward`): along the longer axis, or the other one. */
let towardX = 0, towardY = 0;
function toward(obj: Thing, to: Thing, longAxis: boolean): void {
  const ox = to.x - obj.x, oy = to.y - obj.y;
  const ax = Math.abs(ox), ay = Math.abs(oy);
  if (longAxis ? ax > ay : ax <= ay) {
    towardX = Math.sign(ox);
    towardY = 0;
  } else {
    towardX = 0;
    towardY = Math.sign(oy);
  }
}

function moveRandom(world: World, obj: Thing): void {
  const d = world.random.randint(0, 4);
  world.tryMove(obj, DIRS_X[d], DIRS_Y[d], CREATURE_WALK);
}

export function updatePlayer(world: World, p: Player): void {
  const tx = p.x + p.fx, ty = p.y + p.fy;
  const material = world.matAt(tx, ty);
  const obj = world.objAt(tx, ty);
  const inv = p.inv;
  let action = p.action;
  if (p.sleeping) {
    if (inv[ENERGY] < ENERGY_MAX) action = SLEEP;
    else {
      p.sleeping = false;
      p.ach[ACH.wake_up] += 1;
    }
  }
  if (action === NOOP) {
    // nothing
  } else if (MOVE_X[action] !== 0 || MOVE_Y[action] !== 0) {
    p.fx = MOVE_X[action];
    p.fy = MOVE_Y[action];
    world.tryMove(p, p.fx, p.fy, PLAYER_WALK);
    if (world.matAt(p.x, p.y) === MAT.lava) p.health = 0;
  } else if (action === DO) {
    if (obj) doObject(p, obj);
    else doMaterial(world, p, tx, ty, material);
  } else if (action === SLEEP) {
    if (inv[ENERGY] < ENERGY_MAX) p.sleeping = true;
  } else if (PLACE_OF[action]) {
    place(world, p, PLACE_OF[action]!, tx, ty, material, obj);
  } else if (MAKE_OF[action]) {
    make(world, p, MAKE_OF[action]!);
  }
  lifeStats(p);
  healthStats(p);
  for (let i = 0; i < inv.length; i++) inv[i] = Math.max(0, Math.min(inv[i], 9));
  // After the clamp, as upstream: a hurt sleeper wakes up.
  if (p.health < p.lastHealth) p.sleeping = false;
  p.lastHealth = p.health;
}

function doObject(p: Player, obj: Thing): void {
  const inv = p.inv;
  const damage = Math.max(1, inv[ITEM.wood_sword] && 2, inv[ITEM.stone_sword] && 3, inv[ITEM.iron_sword] && 5);
  if (obj.type === PLANT) {
    if (obj.grown > 300) {
      obj.grown = 0;
      inv[FOOD] += 4;
      p.ach[ACH.eat_plant] += 1;
    }
  } else if (obj.type === ZOMBIE) {
    hurt(obj, damage);
    if (obj.health <= 0) p.ach[ACH.defeat_zombie] += 1;
  } else if (obj.type === SKELETON) {
    hurt(obj, damage);
    if (obj.health <= 0) p.ach[ACH.defeat_skeleton] += 1;
  } else if (obj.type === COW) {
    hurt(obj, damage);
    if (obj.health <= 0) {
      inv[FOOD] += 6;
      p.ach[ACH.eat_cow] += 1;
      p.hunger = 0;
    }
  }
}

function doMaterial(world: World, p: Player, tx: number, ty: number, material: number): void {
  if (material === MAT.water) p.thirst = 0;
  const rule = COLLECT_BY_MAT[material];
  if (!rule || !hasAll(p.inv, rule.require)) return;
  world.setMat(tx, ty, rule.leaves);
  // Upstream draws even when the probability is 1.
  if (world.random.randomSample() <= rule.probability) {
    for (const [item, n] of rule.receive) p.inv[item] += n;
    for (const a of rule.achievements) p.ach[a] += 1;
  }
}

function place(world: World, p: Player, name: Placeable, tx: number, ty: number, material: number, obj: Thing | null): void {
  if (obj) return;
  const rule = PLACE_RULES[name];
  if (!((rule.where >> material) & 1)) return;
  if (!hasAll(p.inv, rule.uses)) return;
  for (const [item, n] of rule.uses) p.inv[item] -= n;
  if (rule.matId) world.setMat(tx, ty, rule.matId);
  else world.add(new Thing(PLANT, tx, ty, 1));
  p.ach[rule.achievement] += 1;
}

function make(world: World, p: Player, name: Makeable): void {
  const rule = MAKE_RULES[name];
  const nearby = world.nearbyMask(p.x, p.y, 1);
  if ((nearby & rule.nearby) !== rule.nearby) return;
  if (!hasAll(p.inv, rule.uses)) return;
  for (const [item, n] of rule.uses) p.inv[item] -= n;
  p.inv[rule.item] += rule.gives;
  p.ach[rule.achievement] += 1;
}

function lifeStats(p: Player): void {
  const inv = p.inv;
  p.hunger += p.sleeping ? 0.5 : 1;
  if (p.hunger > 25) {
    p.hunger = 0;
    inv[FOOD] -= 1;
  }
  p.thirst += p.sleeping ? 0.5 : 1;
  if (p.thirst > 20) {
    p.thirst = 0;
    inv[DRINK] -= 1;
  }
  if (p.sleeping) p.fatigue = Math.min(p.fatigue - 1, 0);
  else p.fatigue += 1;
  if (p.fatigue < -10) {
    p.fatigue = 0;
    inv[ENERGY] += 1;
  }
  if (p.fatigue > 30) {
    p.fatigue = 0;
    inv[ENERGY] -= 1;
  }
}

function healthStats(p: Player): void {
  const inv = p.inv;
  const fine = inv[FOOD] > 0 && inv[DRINK] > 0 && (inv[ENERGY] > 0 || p.sleeping);
  if (fine) p.recover += p.sleeping ? 2 : 1;
  else p.recover -= p.sleeping ? 0.5 : 1;
  if (p.recover > 25) {
    p.recover = 0;
    p.health = Math.max(0, p.health + 1);
  }
  if (p.recover < -15) {
    p.recover = 0;
    p.health = Math.max(0, p.health - 1);
  }
}

export function updateCow(world: World, cow: Thing): void {
  if (cow.health <= 0) world.remove(cow);
  if (world.random.randomSample() < 0.5) moveRandom(world, cow);
}

export function updateZombie(world: World, z: Thing, player: Player): void {
  if (z.health <= 0) world.remove(z);
  const rnd = world.random;
  let dist = Math.abs(player.x - z.x) + Math.abs(player.y - z.y);
  if (dist <= 8 && rnd.randomSample() < 0.9) {
    toward(z, player, rnd.randomSample() < 0.8);
    world.tryMove(z, towardX, towardY, CREATURE_WALK);
  } else {
    moveRandom(world, z);
  }
  dist = Math.abs(player.x - z.x) + Math.abs(player.y - z.y);
  if (dist <= 1) {
    if (z.cooldown) z.cooldown -= 1;
    else {
      hurt(player, player.sleeping ? 7 : 2);
      z.cooldown = 5;
    }
  }
}

export function updateSkeleton(world: World, s: Thing, player: Player): void {
  if (s.health <= 0) world.remove(s);
  const rnd = world.random;
  s.reload = Math.max(0, s.reload - 1);
  const dist = Math.abs(player.x - s.x) + Math.abs(player.y - s.y);
  if (dist <= 3) {
    toward(s, player, rnd.randomSample() < 0.6);
    if (world.tryMove(s, -towardX, -towardY, CREATURE_WALK)) return;
  }
  if (dist <= 5 && rnd.randomSample() < 0.5) {
    toward(s, player, true);
    shoot(world, s, towardX, towardY);
  } else if (dist <= 8 && rnd.randomSample() < 0.3) {
    toward(s, player, rnd.randomSample() < 0.6);
    world.tryMove(s, towardX, towardY, CREATURE_WALK);
  } else if (rnd.randomSample() < 0.2) {
    moveRandom(world, s);
  }
}

function shoot(world: World, s: Thing, dx: number, dy: number): void {
  if (s.reload > 0) return;
  if (dx === 0 && dy === 0) return;
  const x = s.x + dx, y = s.y + dy;
  if (world.isFree(x, y, ARROW_WALK)) {
    const arrow = new Thing(ARROW, x, y, 0);
    arrow.fx = dx;
    arrow.fy = dy;
    world.add(arrow);
    s.reload = 4;
  }
}

export function updateArrow(world: World, a: Thing): void {
  const tx = a.x + a.fx, ty = a.y + a.fy;
  const material = world.matAt(tx, ty);
  const obj = world.objAt(tx, ty);
  if (obj) {
    hurt(obj, 2);
    world.remove(a);
  } else if (!((ARROW_WALK >> material) & 1)) {
    world.remove(a);
    if (material === MAT.table || material === MAT.furnace) world.setMat(tx, ty, MAT.path);
  } else {
    world.tryMove(a, a.fx, a.fy, ARROW_WALK);
  }
}

export function updatePlant(world: World, plant: Thing): void {
  plant.grown += 1;
  for (let d = 0; d < 4; d++) {
    const o = world.objAt(plant.x + DIRS_X[d], plant.y + DIRS_Y[d]);
    if (o && (o.type === ZOMBIE || o.type === SKELETON || o.type === COW)) {
      hurt(plant, 1);
      break;
    }
  }
  if (plant.health <= 0) world.remove(plant);
}
