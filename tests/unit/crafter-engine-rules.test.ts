/**
 * Crafter's rules one by one, on a cleared patch of a real world: each action, the creatures, the
 * life counters, the achievements and the reward, as upstream's objects.py / env.py define them;
 * and the rule tables against crafter's data.yaml itself (SmartPlay 9dec5f2's
 * src/smartplay/crafter/crafter/data.yaml, copied byte for byte into tests/fixtures/upstream/crafter/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CrafterEngine, achievementRecord, inventoryRecord } from '../../envs/crafter/engine/game.ts';
import { COLLECT, ITEM, ITEM_INITIAL, ITEM_MAX, MAKE, MAT, PLACE, WALKABLE } from '../../envs/crafter/engine/rules.ts';
import { ACHIEVEMENTS, ACTIONS, ITEMS, MATERIALS, type Achievement, type Action, type Material } from '../../envs/crafter/engine/types.ts';
import { COW, PLANT, SKELETON, Thing, ZOMBIE } from '../../envs/crafter/engine/world.ts';

const A = (name: Action) => ACTIONS.indexOf(name);

describe('rule tables = data.yaml', () => {
  const data = parse(readFileSync(new URL('../fixtures/upstream/crafter/data.yaml', import.meta.url), 'utf8'));
  it('names and orders', () => {
    expect([...ACTIONS]).toEqual(data.actions);
    expect([...MATERIALS]).toEqual(data.materials);
    expect([...ITEMS]).toEqual(Object.keys(data.items));
    expect([...ACHIEVEMENTS]).toEqual(data.achievements);
    expect([...WALKABLE]).toEqual(data.walkable);
  });
  it('items, collect, place, make', () => {
    for (const item of ITEMS) {
      expect(ITEM_MAX[item]).toBe(data.items[item].max);
      expect(ITEM_INITIAL[item]).toBe(data.items[item].initial);
    }
    const collect = Object.fromEntries(
      Object.entries(COLLECT).map(([k, v]) => [k, { require: v!.require, receive: v!.receive, leaves: v!.leaves, ...(v!.probability !== 1 ? { probability: v!.probability } : {}) }]),
    );
    expect(collect).toEqual(data.collect);
    expect(PLACE).toEqual(data.place);
    expect(MAKE).toEqual(data.make);
  });
});

/**
 * A world whose 9 × 9 patch around the player is grass with no objects (all others removed), so a
 * rule can be set up cell by cell. Far creatures are gone too; balancing may spawn new ones ≥ 5 away.
 */
function sandbox(): CrafterEngine {
  const g = new CrafterEngine({ seed: 3 });
  for (const o of g.world.list) if (o && o !== g.player) g.world.remove(o);
  for (let dx = -4; dx <= 4; dx++) for (let dy = -4; dy <= 4; dy++) g.world.setMat(g.player.x + dx, g.player.y + dy, MAT.grass);
  return g;
}
const put = (g: CrafterEngine, dx: number, dy: number, m: Material) => g.world.setMat(g.player.x + dx, g.player.y + dy, MAT[m]);
const matAt = (g: CrafterEngine, dx: number, dy: number) => MATERIALS[g.world.matAt(g.player.x + dx, g.player.y + dy) - 1];
function spawn(g: CrafterEngine, type: number, dx: number, dy: number, health: number): Thing {
  const t = new Thing(type, g.player.x + dx, g.player.y + dy, health);
  g.world.add(t);
  return t;
}
const inv = (g: CrafterEngine, item: keyof typeof ITEM) => g.player.inv[ITEM[item]];
const setInv = (g: CrafterEngine, item: keyof typeof ITEM, n: number) => (g.player.inv[ITEM[item]] = n);
const ach = (g: CrafterEngine, a: Achievement) => g.player.ach[ACHIEVEMENTS.indexOf(a)];

describe('moving', () => {
  it('turns and steps onto grass, sand and path; turns only against water, stone, trees, tables', () => {
    const g = sandbox();
    const { x, y } = g.player;
    g.step(A('move_left'));
    expect([g.player.x, g.player.y, g.player.fx, g.player.fy]).toEqual([x - 1, y, -1, 0]);
    for (const m of ['water', 'stone', 'tree', 'table', 'coal', 'iron', 'diamond', 'furnace'] as const) {
      put(g, 1, 0, m);
      const before = g.player.x;
      g.step(A('move_right'));
      expect(g.player.x, m).toBe(before);
      expect(g.player.fx).toBe(1);
    }
    for (const m of ['sand', 'path', 'grass'] as const) {
      put(g, 0, 1, m);
      const before = g.player.y;
      g.step(A('move_down'));
      expect(g.player.y, m).toBe(before + 1);
    }
    g.step(A('move_up'));
    expect([g.player.fx, g.player.fy]).toEqual([0, -1]);
  });
  it('onto lava kills: health 0, done, discount 0', () => {
    const g = sandbox();
    put(g, 0, -1, 'lava');
    const r = g.step(A('move_up'));
    expect(inv(g, 'health')).toBe(0);
    expect(r.done).toBe(true);
    expect(r.info.discount).toBe(0);
    expect(r.reward).toBeCloseTo(-0.9, 12);
  });
  it('a creature blocks the way', () => {
    const g = sandbox();
    spawn(g, PLANT, 0, 1, 1);
    const y = g.player.y;
    g.step(A('move_down'));
    expect(g.player.y).toBe(y);
  });
});

describe('do on materials', () => {
  it('tree gives wood (the tree becomes grass here, as data.yaml says), achievement and +1 reward once', () => {
    const g = sandbox();
    put(g, 0, 1, 'tree');
    const r = g.step(A('do'));
    expect(inv(g, 'wood')).toBe(1);
    expect(matAt(g, 0, 1)).toBe(COLLECT.tree!.leaves);
    expect(r.unlocked).toEqual(['collect_wood']);
    expect(r.reward).toBe(1);
    put(g, 0, 1, 'tree');
    const r2 = g.step(A('do'));
    expect(inv(g, 'wood')).toBe(2);
    expect(ach(g, 'collect_wood')).toBe(2);
    expect(r2.unlocked).toEqual([]);
    expect(r2.reward).toBe(0);
  });
  it('stone and coal need a wood pickaxe, iron a stone pickaxe, diamond an iron pickaxe; they leave path', () => {
    for (const [m, tool] of [['stone', 'wood_pickaxe'], ['coal', 'wood_pickaxe'], ['iron', 'stone_pickaxe'], ['diamond', 'iron_pickaxe']] as const) {
      const g = sandbox();
      put(g, 0, 1, m);
      g.step(A('do'));
      expect(inv(g, m), `${m} without ${tool}`).toBe(0);
      expect(matAt(g, 0, 1)).toBe(m);
      setInv(g, tool, 1);
      g.step(A('do'));
      expect(inv(g, m), `${m} with ${tool}`).toBe(1);
      expect(matAt(g, 0, 1)).toBe('path');
      expect(ach(g, `collect_${m}` as Achievement)).toBe(1);
    }
  });
  it('water gives drink and resets thirst; the water stays', () => {
    const g = sandbox();
    put(g, 0, 1, 'water');
    setInv(g, 'drink', 5);
    g.player.thirst = 15;
    g.step(A('do'));
    expect(inv(g, 'drink')).toBe(6);
    expect(g.player.thirst).toBe(1); // reset to 0, then this step's +1
    expect(matAt(g, 0, 1)).toBe('water');
    expect(ach(g, 'collect_drink')).toBe(1);
  });
  it('grass gives a sapling with probability 0.1 (one draw per do)', () => {
    const g = sandbox();
    let got = 0;
    const n = 400;
    for (let i = 0; i < n; i++) {
      setInv(g, 'sapling', 0);
      g.player.inv[ITEM.energy] = 9;
      g.player.inv[ITEM.food] = 9;
      g.player.inv[ITEM.drink] = 9;
      g.step(A('do'));
      got += inv(g, 'sapling');
    }
    expect(got / n).toBeGreaterThan(0.05);
    expect(got / n).toBeLessThan(0.16);
    expect(matAt(g, 0, 1)).toBe('grass');
  });
  it('nothing to collect from sand, path, lava or a table', () => {
    for (const m of ['sand', 'path', 'lava', 'table'] as const) {
      const g = sandbox();
      put(g, 0, 1, m);
      const before = Array.from(g.player.inv);
      g.step(A('do'));
      expect(Array.from(g.player.inv).slice(4), m).toEqual(before.slice(4));
      expect(matAt(g, 0, 1)).toBe(m);
    }
  });
});

describe('do on creatures', () => {
  it('a cow dies after 3 hits without a sword: food +6, eat_cow, hunger reset; removed on its update', () => {
    const g = sandbox();
    const cow = spawn(g, COW, 0, 1, 3);
    setInv(g, 'food', 2);
    g.player.hunger = 20;
    // The cow may wander; keep it in front by putting it back.
    for (let i = 0; i < 3; i++) {
      if (cow.x !== g.player.x || cow.y !== g.player.y + 1) g.world.move(cow, g.player.x, g.player.y + 1);
      g.step(A('do'));
    }
    expect(cow.health).toBe(0);
    expect(inv(g, 'food')).toBe(8);
    expect(ach(g, 'eat_cow')).toBe(1);
    expect(g.player.hunger).toBe(1);
    expect(cow.removed).toBe(true);
  });
  it('damage is 1, or 2/3/5 with the best sword held', () => {
    for (const [sword, dmg] of [[null, 1], ['wood_sword', 2], ['stone_sword', 3], ['iron_sword', 5]] as const) {
      const g = sandbox();
      if (sword) setInv(g, sword, 1);
      if (sword === 'iron_sword') setInv(g, 'wood_sword', 1);
      const z = spawn(g, ZOMBIE, 0, 1, 5);
      z.cooldown = 5;
      const hp = z.health;
      g.step(A('do'));
      expect(hp - z.health, String(sword)).toBe(Math.min(dmg, hp));
    }
  });
  it('killing a zombie or a skeleton unlocks defeat_*', () => {
    for (const [type, name] of [[ZOMBIE, 'defeat_zombie'], [SKELETON, 'defeat_skeleton']] as const) {
      const g = sandbox();
      setInv(g, 'iron_sword', 1);
      const c = spawn(g, type, 0, 1, 3);
      c.cooldown = 5;
      const r = g.step(A('do'));
      expect(ach(g, name)).toBe(1);
      expect(r.unlocked).toContain(name);
    }
  });
  it('a ripe plant (grown > 300) is eaten: food +4, eat_plant, growth restarts; an unripe one is not', () => {
    const g = sandbox();
    const plant = spawn(g, PLANT, 0, 1, 1);
    setInv(g, 'food', 1);
    plant.grown = 100;
    g.step(A('do'));
    expect(inv(g, 'food')).toBe(1);
    plant.grown = 301;
    g.step(A('do'));
    expect(inv(g, 'food')).toBe(5);
    expect(ach(g, 'eat_plant')).toBe(1);
    expect(plant.grown).toBe(1);
  });
});

describe('placing', () => {
  it('stone on grass, sand, path, water, lava; uses 1 stone', () => {
    for (const m of ['grass', 'sand', 'path', 'water', 'lava'] as const) {
      const g = sandbox();
      put(g, 0, 1, m);
      setInv(g, 'stone', 2);
      g.step(A('place_stone'));
      expect(matAt(g, 0, 1), m).toBe('stone');
      expect(inv(g, 'stone')).toBe(1);
      expect(ach(g, 'place_stone')).toBe(1);
    }
    const g = sandbox();
    put(g, 0, 1, 'tree');
    setInv(g, 'stone', 1);
    g.step(A('place_stone'));
    expect(matAt(g, 0, 1)).toBe('tree');
    expect(inv(g, 'stone')).toBe(1);
  });
  it('table uses wood as data.yaml says, furnace stone; not onto water', () => {
    const g = sandbox();
    setInv(g, 'wood', PLACE.table.uses.wood! - 1);
    g.step(A('place_table'));
    expect(matAt(g, 0, 1)).toBe('grass');
    setInv(g, 'wood', PLACE.table.uses.wood!);
    g.step(A('place_table'));
    expect(matAt(g, 0, 1)).toBe('table');
    expect(inv(g, 'wood')).toBe(0);
    expect(ach(g, 'place_table')).toBe(1);
    g.step(A('move_up'));
    g.step(A('move_up'));
    put(g, 0, -1, 'water');
    setInv(g, 'stone', 9);
    g.step(A('place_furnace'));
    expect(matAt(g, 0, -1)).toBe('water');
    put(g, 0, -1, 'sand');
    g.step(A('place_furnace'));
    expect(matAt(g, 0, -1)).toBe('furnace');
    expect(inv(g, 'stone')).toBe(9 - PLACE.furnace.uses.stone!);
  });
  it('a sapling is planted on grass only, and nothing is placed onto a creature', () => {
    const g = sandbox();
    setInv(g, 'sapling', 2);
    put(g, 0, 1, 'sand');
    g.step(A('place_plant'));
    expect(g.world.objAt(g.player.x, g.player.y + 1)).toBeNull();
    put(g, 0, 1, 'grass');
    g.step(A('place_plant'));
    const plant = g.world.objAt(g.player.x, g.player.y + 1)!;
    expect(plant.kind).toBe('plant');
    expect(inv(g, 'sapling')).toBe(1);
    expect(ach(g, 'place_plant')).toBe(1);
    setInv(g, 'stone', 1);
    g.step(A('place_stone'));
    expect(matAt(g, 0, 1)).toBe('grass');
    expect(inv(g, 'stone')).toBe(1);
  });
});

describe('making', () => {
  it('each tool needs its materials and a table (iron ones also a furnace) within one step, diagonals included', () => {
    for (const name of Object.keys(MAKE) as (keyof typeof MAKE)[]) {
      const g = sandbox();
      for (const [k, v] of Object.entries(MAKE[name].uses)) setInv(g, k as keyof typeof ITEM, v!);
      g.step(A(`make_${name}` as Action));
      expect(inv(g, name), `${name} without a table`).toBe(0);
      put(g, 1, 1, 'table');
      if (MAKE[name].nearby.includes('furnace')) {
        g.step(A(`make_${name}` as Action));
        expect(inv(g, name), `${name} without a furnace`).toBe(0);
        put(g, -1, -1, 'furnace');
      }
      const r = g.step(A(`make_${name}` as Action));
      expect(inv(g, name), name).toBe(1);
      for (const k of Object.keys(MAKE[name].uses)) expect(inv(g, k as keyof typeof ITEM)).toBe(0);
      expect(r.unlocked).toEqual([`make_${name}`]);
    }
  });
  it('a table two steps away is not near', () => {
    const g = sandbox();
    setInv(g, 'wood', 1);
    put(g, 2, 0, 'table');
    g.step(A('make_wood_pickaxe'));
    expect(inv(g, 'wood_pickaxe')).toBe(0);
  });
});

describe('life', () => {
  it('food drops every 26 steps awake, drink every 21, energy every 31', () => {
    const g = sandbox();
    g.player.hunger = g.player.thirst = g.player.fatigue = g.player.recover = 0;
    const start = { food: inv(g, 'food'), drink: inv(g, 'drink'), energy: inv(g, 'energy') };
    for (let i = 0; i < 62; i++) g.step(A('noop'));
    expect(start.food - inv(g, 'food')).toBe(2); // steps 26, 52
    expect(start.drink - inv(g, 'drink')).toBe(2); // 21, 42 (63 not yet)
    expect(start.energy - inv(g, 'energy')).toBe(2); // 31, 62
  });
  it('health falls every 16 steps without food, and a lost health point gives reward -0.1', () => {
    const g = sandbox();
    setInv(g, 'food', 0);
    g.player.hunger = -1000;
    g.player.recover = 0;
    const rewards: number[] = [];
    for (let i = 0; i < 16; i++) rewards.push(g.step(A('noop')).reward);
    expect(inv(g, 'health')).toBe(8);
    expect(rewards.filter((r) => r !== 0)).toEqual([-0.1]);
  });
  it('sleep: sleeping until energy is full, then wake_up; actions are ignored until the waking step', () => {
    const g = sandbox();
    g.world.daylight = 1;
    setInv(g, 'energy', 7);
    g.step(A('sleep'));
    expect(g.player.sleeping).toBe(true);
    const x = g.player.x;
    let steps = 0;
    while (g.player.sleeping && steps < 200) {
      g.step(A('move_right'));
      steps++;
    }
    // Upstream wakes the player inside the update and then carries out that step's action.
    expect(g.player.x).toBe(x + 1);
    expect(inv(g, 'energy')).toBe(9);
    expect(ach(g, 'wake_up')).toBe(1);
    // With full energy, sleep does nothing.
    g.step(A('sleep'));
    expect(g.player.sleeping).toBe(false);
  });
});

describe('creatures', () => {
  it('a zombie next to the player bites for 2 (7 when asleep) and then waits 5 of its turns', () => {
    const g = sandbox();
    // Walls keep the zombie beside the player.
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, -1], [1, 1], [-1, 1], [0, 2]]) put(g, dx, dy, 'stone');
    const z = spawn(g, ZOMBIE, 0, 1, 5);
    const hp: number[] = [];
    for (let i = 0; i < 7; i++) {
      g.step(A('noop'));
      hp.push(inv(g, 'health'));
    }
    expect(hp[0]).toBe(7);
    expect(hp.slice(1, 6)).toEqual([7, 7, 7, 7, 7]);
    expect(hp[6]).toBe(5);
    expect(z.cooldown).toBe(5);
    setInv(g, 'health', 9);
    setInv(g, 'energy', 3);
    z.cooldown = 0;
    g.step(A('sleep'));
    expect(inv(g, 'health')).toBe(2);
    // The bite comes after the player's update; the hurt sleeper wakes at its next update.
    expect(g.player.sleeping).toBe(true);
    g.step(A('noop'));
    expect(g.player.sleeping).toBe(false);
  });
  it('an arrow flies on, damages what it hits by 2 and turns a table it hits into path', () => {
    const g = sandbox();
    const arrow = new Thing(4, g.player.x + 3, g.player.y - 2, 0);
    arrow.fx = -1;
    g.world.add(arrow);
    put(g, 1, -2, 'table');
    g.step(A('noop'));
    expect(arrow.x).toBe(g.player.x + 2);
    g.step(A('noop'));
    expect(arrow.removed).toBe(true);
    expect(matAt(g, 1, -2)).toBe('path');
    const a2 = new Thing(4, g.player.x, g.player.y - 2, 0);
    a2.fy = 1;
    g.world.add(a2);
    g.step(A('noop'));
    expect(inv(g, 'health')).toBe(9);
    g.step(A('noop'));
    expect(inv(g, 'health')).toBe(7);
    expect(a2.removed).toBe(true);
  });
  it('a plant next to a cow, zombie or skeleton is eaten (removed)', () => {
    const g = sandbox();
    const plant = spawn(g, PLANT, 3, 0, 1);
    const cow = spawn(g, COW, 3, 1, 3);
    for (const [dx, dy] of [[2, 1], [4, 1], [3, 2]]) put(g, dx, dy, 'stone');
    g.step(A('noop'));
    expect(cow.removed).toBe(false);
    expect(plant.removed).toBe(true);
  });
  it('every 10th step rebalances: at night, zombies appear on grass away from the player', () => {
    const g = sandbox();
    let zombies = 0;
    for (let i = 0; i < 300; i++) {
      g.player.inv.fill(9, 0, 4);
      g.step(A('noop'));
      zombies = Math.max(zombies, g.world.list.filter((o) => o?.type === ZOMBIE).length);
    }
    expect(zombies).toBeGreaterThan(0);
  });
});

describe('info records', () => {
  it('inventory and achievements keep upstream key order and values', () => {
    const inv = Int32Array.from(ITEMS, (_, i) => i + 1);
    expect(Object.entries(inventoryRecord(inv))).toEqual(ITEMS.map((k, i) => [k, i + 1]));
    const ach = Int32Array.from(ACHIEVEMENTS, (_, i) => 100 + i);
    expect(Object.entries(achievementRecord(ach))).toEqual(ACHIEVEMENTS.map((k, i) => [k, 100 + i]));
  });
});

describe('episode', () => {
  it('ends at the length (SmartPlay reset is step 1)', () => {
    const g = new CrafterEngine({ seed: 1, length: 5 });
    expect(g.stepCount).toBe(1);
    const dones = [];
    for (let i = 0; i < 4; i++) dones.push(g.step(A('noop')).done);
    expect(dones).toEqual([false, false, false, true]);
  });
  it('rejects bad actions and seeds with a clear message', () => {
    const g = new CrafterEngine({ seed: 1 });
    expect(() => g.step(17)).toThrow(/action/);
    expect(() => g.step(1.5)).toThrow(/action/);
    expect(() => new CrafterEngine({ seed: 1.5 })).toThrow(/seed/);
    expect(() => new CrafterEngine({ seed: 1, episode: 0 })).toThrow(/episode/);
  });
});
