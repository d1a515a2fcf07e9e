/**
 * Crafter's text observation, manual and action matching against SmartPlay's own
 * (tests/fixtures/upstream/crafter/text.json.gz, recorded by record_text.py from SmartPlay
 * 9dec5f2's Crafter and examples/experiment.py). Here the text function is tested alone: each
 * recorded step's world (the semantic ids around the player, its position, facing, sleeping, dead,
 * inventory) becomes a view, and describeFrame must give upstream's info['obs'] for it.
 */
import { describe, expect, it } from 'vitest';
import { ACTIONS, ACHIEVEMENTS, ITEMS, MATERIALS, type CrafterObjectView, type CrafterView, type Item, type ObjectKind } from '../../envs/crafter/engine/types.ts';
import { describeFrame, describeInventory, directionWords, OUT_OF_MAP } from '../../envs/crafter/text.ts';
import { CRAFTER_ACTIONS, CRAFTER_MANUAL } from '../../envs/crafter/manual.ts';
import { matchAction } from '../../envs/core/smartplay.ts';
import { FIXTURE, type Frame } from './crafter-fixture.ts';

const KINDS: readonly ObjectKind[] = ['player', 'cow', 'zombie', 'skeleton', 'arrow', 'plant'];

/** A view of the recorded 11×9 window (x − 5 … x + 5, y − 4 … y + 4); nothing else is known. */
function viewOf(f: Frame): CrafterView {
  const [px, py] = f.world.pos;
  const id = (x: number, y: number): number => {
    const col = f.world.window[x - px + 5];
    const v = col?.[y - py + 4];
    if (v === undefined) throw new Error(`cell (${x}, ${y}) is outside the recorded window`);
    return v;
  };
  const zero = Object.fromEntries(ACHIEVEMENTS.map((a) => [a, 0])) as Record<(typeof ACHIEVEMENTS)[number], number>;
  return {
    step: 0,
    area: [64, 64],
    material: (x, y) => {
      const v = id(x, y);
      if (v === -1) return null;
      if (v >= 1 && v <= MATERIALS.length) return MATERIALS[v - 1];
      return 'grass'; // under an object: the text never reads it
    },
    objectAt: (x, y): CrafterObjectView | undefined => {
      const v = id(x, y);
      const k = v - MATERIALS.length - 1;
      return k >= 0 && k < KINDS.length ? { kind: KINDS[k], pos: [x, y], health: 1 } : undefined;
    },
    objects: [],
    player: { pos: f.world.pos, facing: f.world.facing, sleeping: f.world.sleeping, inventory: f.inventory, achievements: zero },
    daylight: 1,
    done: f.done,
  };
}

describe('describeFrame against SmartPlay\'s info["obs"] (recorded world states)', () => {
  for (const e of FIXTURE.episodes) {
    it(`${e.name} (seed ${e.seed}): every step's text, ${e.frames.length} frames`, () => {
      e.frames.forEach((f, t) => {
        expect(f.world.action).toBe(t === 0 ? 'noop' : ACTIONS[e.actions[t - 1]]);
        expect(f.world.dead).toBe(f.inventory.health <= 0);
        expect(describeFrame(viewOf(f), t === 0 ? null : e.actions[t - 1]), `${e.name} step ${t}`).toBe(f.obs);
      });
    });
  }

  it('the recordings reach the edge cases: out of the map, asleep, dead, a window cut by the far edge', () => {
    const all = FIXTURE.episodes.flatMap((e) => e.frames);
    expect(all.filter((f) => f.obs === OUT_OF_MAP).length).toBeGreaterThan(20);
    expect(all.some((f) => f.obs.includes('.You are sleeping, and will not be able take actions until energy is full.\n\n\n\nYou see:'))).toBe(true);
    expect(all.some((f) => f.obs.includes('.You died.\n\n\n\nYou see:'))).toBe(true);
    expect(all.some((f) => f.world.pos[0] >= 60 && f.obs !== OUT_OF_MAP)).toBe(true);
    expect(all.some((f) => f.world.pos[0] <= 3 && f.obs === OUT_OF_MAP)).toBe(true);
  });
});

describe('the pieces', () => {
  it('directions: north/south first, then west/east, joined by "-"', () => {
    expect(directionWords(-1, -2)).toBe('north-west');
    expect(directionWords(3, 0)).toBe('east');
    expect(directionWords(0, 1)).toBe('south');
    expect(directionWords(0, 0)).toBe('');
  });

  it('inventory: the vitals out of 9, then held items in upstream\'s order, zeros left out', () => {
    const inv = Object.fromEntries(ITEMS.map((i) => [i, 0])) as Record<Item, number>;
    Object.assign(inv, { health: 9, food: 3, drink: 7, energy: 0, wood: 2, sapling: 1, wood_pickaxe: 1 });
    expect(describeInventory(inv)).toBe('Your status:\n- health: 9/9\n- food: 3/9\n- drink: 7/9\n- energy: 0/9\n\nYour inventory:\n- sapling: 1\n- wood: 2\n- wood_pickaxe: 1');
  });
});

describe('manual, actions and matching against SmartPlay\'s', () => {
  it('the manual is info["manual"] exactly (the context text with crafter_env.py\'s replacements)', () => {
    expect(CRAFTER_MANUAL).toBe(FIXTURE.manual);
    expect(CRAFTER_MANUAL).not.toContain('LaTeX');
  });

  it('the action list and the benchmark\'s 10 episodes of 10,000 steps', () => {
    expect([...CRAFTER_ACTIONS]).toEqual(FIXTURE.actionList);
    expect(CRAFTER_ACTIONS.length).toBe(ACTIONS.length);
    expect([FIXTURE.defaultIter, FIXTURE.defaultSteps]).toEqual([10, 10000]);
  });

  it('match_act: the earliest action name in the reply, case-insensitive, else Noop ("do" in "don\'t" is Do)', () => {
    const lowered = CRAFTER_ACTIONS.map((a) => a.toLowerCase());
    for (const { reply, action } of FIXTURE.matches) expect(matchAction(reply, lowered).index, reply).toBe(action);
  });
});
