/**
 * Crafter's scripted player (envs/crafter/oracle.ts): it works down the tech tree on purpose, so
 * on every world tried it unlocks the early achievements in their order of dependence, and it is
 * a function of the state (the same seed gives the same episode).
 */
import { describe, expect, it } from 'vitest';
import { crafter, type CrafterState } from '../../envs/crafter/index.ts';
import type { Step } from '../../envs/core/types.ts';
import { resetSync, task } from './helpers.ts';

const T = task(crafter, 'crafter');

function play(seed: number): { actions: string[]; firstAt: Map<string, number>; score: number } {
  let state: CrafterState = resetSync(crafter, T, seed).state;
  const actions: string[] = [];
  const firstAt = new Map<string, number>();
  let s: Step<CrafterState>;
  do {
    const a = crafter.oracleAction!(state, T)!;
    actions.push(a);
    s = crafter.step(state, a) as Step<CrafterState>;
    for (const u of (s.info?.unlocked as string[] | undefined) ?? []) firstAt.set(u, actions.length);
    state = s.state;
  } while (!s.terminated && actions.length < 1500);
  return { actions, firstAt, score: s.score };
}

describe('the Crafter oracle', () => {
  for (const seed of [1, 2, 4]) {
    it(`seed ${seed}: unlocks the tech tree's first steps in order, and drinks and eats`, () => {
      const { firstAt } = play(seed);
      for (const a of ['collect_wood', 'place_table', 'make_wood_pickaxe', 'make_wood_sword', 'collect_stone', 'place_stone', 'make_stone_pickaxe', 'collect_drink', 'eat_cow', 'collect_sapling', 'place_plant', 'wake_up']) {
        expect(firstAt.has(a), `${a} on seed ${seed}`).toBe(true);
      }
      const at = (a: string) => firstAt.get(a)!;
      expect(at('collect_wood')).toBeLessThan(at('place_table'));
      expect(at('place_table')).toBeLessThan(at('make_wood_pickaxe'));
      expect(at('make_wood_pickaxe')).toBeLessThan(at('collect_stone'));
      expect(at('collect_stone')).toBeLessThan(at('make_stone_pickaxe'));
      expect(firstAt.size).toBeGreaterThanOrEqual(13);
    });
  }

  it('is a function of the state: the same seed plays the same episode', () => {
    expect(play(2).actions).toEqual(play(2).actions);
  });
});
