/**
 * MESSENGER stage 2–3 movement statistics (envs/messenger/README.md, Upstream, "The game": VGDL semantics):
 * chasers close in on a still avatar, fleers back off, each picks uniformly among
 * the directions that qualify, and among all four when none does. Measured over
 * 10,000 seeded ticks through the environment's own step.
 */
import { describe, expect, it } from 'vitest';
import { messenger, type MessengerState, type Npc } from '../../envs/messenger/index.ts';
import { moveOptions } from '../../envs/messenger/engine.ts';
import { stepSync, testRandom } from './helpers.ts';

const TICKS = 10_000;

/** One NPC (by default the "message", which only reacts on contact) and a still avatar, in pixels. */
function lone(movement: Npc['movement'], x: number, y: number, ax: number, ay: number, rng: number, role: Npc['role'] = 'message'): MessengerState {
  return {
    level: 2,
    game: ['airplane', 'dog', 'ship'],
    variant: 0,
    layout: 0,
    npcs: [
      { role, entity: 'dog', movement, x, y },
      { role: 'goal', entity: 'ship', movement: 'immovable', x: ax === 0 ? 18 : 0, y: ay === 0 ? 18 : 0 },
    ],
    ax,
    ay,
    hasMessage: false,
    alive: true,
    done: false,
    reward: 0,
    events: [],
    t: 0,
    sentences: [],
    rng,
  };
}

const dist = (s: MessengerState): number => Math.abs(s.npcs[0].x - s.ax) + Math.abs(s.npcs[0].y - s.ay);

/** Random pixel positions with the NPC at least 3 pixels (Manhattan) from an avatar on even pixels. */
function randomSetup(rand: () => number): { x: number; y: number; ax: number; ay: number } {
  for (;;) {
    const ax = 2 * Math.floor(rand() * 10);
    const ay = 2 * Math.floor(rand() * 10);
    const x = Math.floor(rand() * 19);
    const y = Math.floor(rand() * 19);
    if (Math.abs(x - ax) >= 2 || Math.abs(y - ay) >= 2) return { x, y, ax, ay };
  }
}

describe('MESSENGER movement over 10,000 seeded ticks', () => {
  it('a chaser\'s distance to a still avatar never grows (and shrinks by one pixel per tick)', () => {
    const rand = testRandom(1);
    for (let i = 0; i < TICKS; i++) {
      const { x, y, ax, ay } = randomSetup(rand);
      // The enemy role: touching the avatar kills it, but the enemy itself stays to be measured.
      const before = lone('chaser', x, y, ax, ay, i, 'enemy');
      const after = stepSync(messenger, before, 'Do Nothing').state;
      expect(dist(after)).toBe(dist(before) - 1);
    }
  });

  it('a fleer\'s distance to a still avatar never shrinks (it grows unless the screen edge stops it)', () => {
    const rand = testRandom(2);
    let grew = 0;
    for (let i = 0; i < TICKS; i++) {
      const { x, y, ax, ay } = randomSetup(rand);
      const before = lone('fleeing', x, y, ax, ay, i);
      const after = stepSync(messenger, before, 'Do Nothing').state;
      expect(dist(after)).toBeGreaterThanOrEqual(dist(before));
      if (dist(after) > dist(before)) grew++;
      else expect([after.npcs[0].x, after.npcs[0].y]).toEqual([x, y]); // stepped back at the edge
    }
    expect(grew).toBeGreaterThan(TICKS / 2);
  });

  it('an immovable sprite never moves', () => {
    const rand = testRandom(3);
    for (let i = 0; i < 1000; i++) {
      const { x, y, ax, ay } = randomSetup(rand);
      const after = stepSync(messenger, lone('immovable', x, y, ax, ay, i), 'Do Nothing').state;
      expect([after.npcs[0].x, after.npcs[0].y]).toEqual([x, y]);
    }
  });

  /** Frequencies of the NPC's move over TICKS seeds from one position. */
  function moves(movement: Npc['movement'], x: number, y: number, ax: number, ay: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < TICKS; seed++) {
      const after = stepSync(messenger, lone(movement, x, y, ax, ay, seed * 7919), 'Do Nothing').state.npcs[0];
      const key = `${after.x - x},${after.y - y}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  function expectUniform(counts: Map<string, number>, keys: string[]): void {
    expect([...counts.keys()].sort()).toEqual([...keys].sort());
    for (const k of keys) expect(Math.abs(counts.get(k)! / TICKS - 1 / keys.length), k).toBeLessThan(0.02);
  }

  it('a chaser picks uniformly among the directions that close in', () => {
    // Avatar north-west of the chaser: west and north both shorten the distance.
    expectUniform(moves('chaser', 11, 9, 4, 2), ['-1,0', '0,-1']);
    // Same column, avatar south: only south qualifies.
    expectUniform(moves('chaser', 8, 3, 8, 12), ['0,1']);
  });

  it('a fleer picks uniformly among the directions that back off', () => {
    // Avatar north-west: east and south lengthen the distance.
    expectUniform(moves('fleeing', 11, 9, 4, 2), ['1,0', '0,1']);
    // Same row, avatar west: east, north and south all lengthen it.
    expectUniform(moves('fleeing', 9, 8, 2, 8), ['1,0', '0,1', '0,-1']);
  });

  it('with no direction qualifying, all four are equally likely', () => {
    expect(moveOptions(6, 6, 6, 6, false)).toEqual([0, 1, 2, 3]);
    // A fleer always has a way to lengthen the distance (off-screen moves count before the step back).
    expect(moveOptions(0, 0, 4, 4, true)).toEqual([0, 1]);
    // A chasing enemy on the avatar's very pixel: no move shortens a distance of 0. (The contact then
    // kills the avatar, but the enemy stays where it moved.)
    const counts = new Map<string, number>();
    for (let seed = 0; seed < TICKS; seed++) {
      const after = stepSync(messenger, lone('chaser', 8, 8, 8, 8, seed * 7919, 'enemy'), 'Do Nothing').state.npcs[0];
      const key = `${after.x - 8},${after.y - 8}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expectUniform(counts, ['0,-1', '-1,0', '0,1', '1,0']);
  });
});
