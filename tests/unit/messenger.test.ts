/**
 * Conformance of the MESSENGER port with SmartPlay's MessengerL1/L2/L3
 * (envs/messenger/README.md, Upstream): settings, observation text, the stage-1 reward table, the
 * VGDL collision rules of stages 2–3, decoys, seeding and the oracle. Expected
 * strings and rewards are written out from upstream's source, not computed by the port.
 */
import { describe, expect, it } from 'vitest';
import { messenger, messengerManual, messengerReset, MANUAL_PLACEHOLDER, MESSENGER_ACTIONS, type MessengerState, type MessengerTask, type Npc } from '../../envs/messenger/index.ts';
import { describeFrame, observe, stepObservation } from '../../envs/messenger/text.ts';
import { stageOneStep } from '../../envs/messenger/engine.ts';
import { STAGE_THREE, STAGE_TWO } from '../../envs/messenger/levels.ts';
import { describeActions } from '../../envs/core/smartplay.ts';
import { resetSync, rollout, stepSync, task, testRandom } from './helpers.ts';

const L1: MessengerTask = task(messenger, 'messenger-l1');
const L2: MessengerTask = task(messenger, 'messenger-l2');
const L3: MessengerTask = task(messenger, 'messenger-l3');
const [NORTH, SOUTH, WEST, EAST, NOTHING] = MESSENGER_ACTIONS;

/** A hand-built state; npcs and avatar given in cells unless `px` says pixels. */
function build(level: 1 | 2 | 3, avatar: [number, number], npcs: Partial<Npc>[], opts: { hasMessage?: boolean; px?: boolean } = {}): MessengerState {
  const k = opts.px ? 1 : 2;
  return {
    level,
    game: ['airplane', 'dog', 'ship'],
    variant: 0,
    layout: 0,
    npcs: npcs.map((n) => ({ role: 'enemy', entity: 'airplane', movement: 'immovable', x: 0, y: 0, ...n, ...(opts.px ? {} : { x: (n.x ?? 0) * k, y: (n.y ?? 0) * k }) })),
    ax: avatar[0] * k,
    ay: avatar[1] * k,
    hasMessage: opts.hasMessage ?? false,
    alive: true,
    done: false,
    reward: 0,
    events: [],
    t: 0,
    sentences: [],
    rng: 12345,
  };
}

describe('MESSENGER: registration and settings', () => {
  it('has SmartPlay\'s three levels with their step limits and benchmark-v0 flags', () => {
    expect(messenger.tasks().map((t) => [t.id, t.name, t.level, messenger.maxSteps(t), t.benchmarkV0])).toEqual([
      ['messenger-l1', 'MessengerL1-v0', 1, 4, true],
      ['messenger-l2', 'MessengerL2-v0', 2, 64, true],
      ['messenger-l3', 'MessengerL3-v0', 3, 128, false],
    ]);
    expect(messenger.suites).toEqual([{ suite: 'smartplay' }]);
    expect(messenger.conversation('smartplay', messenger.tasks()[0])).toEqual({ smartplay: { historyWindow: 2 } });
    expect(messenger.limitKind).toBe('limit');
  });

  it('offers the five actions with SmartPlay\'s names', () => {
    expect(messenger.validActions(resetSync(messenger, L2, 0).state)).toEqual(['Move North', 'Move South', 'Move West', 'Move East', 'Do Nothing']);
  });

  it('uses the 27 new-dynamics variants and 24 maps in stage 2, 18 variants and 720 maps in stage 3', () => {
    expect(STAGE_TWO.variants).toHaveLength(27);
    expect(new Set(STAGE_TWO.variants.map((v) => v.types.join()))).toHaveProperty('size', 27);
    expect(STAGE_TWO.maps).toHaveLength(24);
    // Every map is a placement of X, E, M, G on the four cells (2,2), (2,7), (7,2), (7,7).
    const maps2 = new Set(STAGE_TWO.maps.map((m) => JSON.stringify(m)));
    expect(maps2.size).toBe(24);
    for (const m of STAGE_TWO.maps) expect(m.map(([r, c]) => `${r},${c}`).sort()).toEqual(['2,2', '2,7', '7,2', '7,7']);
    expect(STAGE_THREE.variants).toHaveLength(18);
    expect(STAGE_THREE.maps).toHaveLength(720);
    expect(new Set(STAGE_THREE.maps.map((m) => JSON.stringify(m))).size).toBe(720);
    for (const v of STAGE_THREE.variants) {
      const [enemy, message, goal, decoyMessage, decoyGoal] = v.types;
      expect(new Set([enemy, message, goal]).size).toBe(3); // a permutation of chaser, fleeing, immovable
      expect(decoyMessage).not.toBe(message);
      expect(decoyGoal).not.toBe(goal);
    }
  });
});

describe('MESSENGER: observation text', () => {
  const at = (id: number, row: number, col: number) => ({ id, row, col });

  it('distances and every direction, in ascending entity id', () => {
    // Avatar at row 5, col 5. airplane 2 … sword 13.
    const text = describeFrame(false, 5, 5, [
      at(13, 5, 5), // sword on the avatar's cell
      at(3, 2, 5), // mage: north
      at(4, 9, 5), // dog: south
      at(5, 5, 0), // bird: west
      at(6, 5, 8), // fish: east
      at(7, 1, 1), // scientist: north-west
      at(8, 0, 9), // thief: north-east
      at(9, 6, 4), // ship: south-west
      at(10, 9, 9), // ball: south-east
      at(2, 5, 6), // airplane: east, 1 step
    ]);
    expect(text).toBe(
      "You (agent) don't have the message.\n\nYou see:\n" +
        '- airplane 1 steps to your east\n' +
        '- mage 3 steps to your north\n' +
        '- dog 4 steps to your south\n' +
        '- bird 5 steps to your west\n' +
        '- fish 3 steps to your east\n' +
        '- scientist 8 steps to your north-west\n' +
        '- thief 9 steps to your north-east\n' +
        '- ship 2 steps to your south-west\n' +
        '- ball 8 steps to your south-east\n' +
        '- sword 0 steps with you',
    );
  });

  it('says when the avatar holds the message, and when it sees nothing', () => {
    expect(describeFrame(true, 0, 0, [at(11, 0, 1)])).toBe('You (agent) already have the message.\n\nYou see:\n- robot 1 steps to your east');
    expect(describeFrame(false, 3, 3, [])).toBe("You (agent) don't have the message.\n\nYou see nothing away from you.");
    expect(describeFrame(true, 3, 3, [])).toBe('You (agent) already have the message.\n\nYou see nothing away from you.');
  });

  it('reports only the nearest instance of an id (a decoy and the real one collapse)', () => {
    // queen (12) twice: 2 steps south and 4 steps west: one line, the nearer one.
    expect(describeFrame(false, 4, 4, [at(12, 4, 0), at(12, 6, 4)])).toBe("You (agent) don't have the message.\n\nYou see:\n- queen 2 steps to your south");
    // Equally near: the first in row-major order (numpy argmin) wins: row 3 before row 5.
    expect(describeFrame(false, 4, 4, [at(12, 5, 4), at(12, 3, 4)])).toBe("You (agent) don't have the message.\n\nYou see:\n- queen 1 steps to your north");
    expect(describeFrame(false, 4, 4, [at(12, 4, 6), at(12, 4, 2)])).toBe("You (agent) don't have the message.\n\nYou see:\n- queen 2 steps to your west");
  });

  it('sees sprites at half-cell offsets in the cell their top-left pixel floors to', () => {
    // Enemy airplane at pixel (7, 4): column 3, row 2. Avatar at pixel (10, 4): column 5, row 2.
    const s = build(2, [10, 4], [{ x: 7, y: 4 }], { px: true });
    expect(observe(s)).toBe("You (agent) don't have the message.\n\nYou see:\n- airplane 2 steps to your west");
  });

  it('prefixes step observations with the action, and a killed avatar reads "Environment Error."', () => {
    const s = build(2, [5, 5], [{ x: 5, y: 7 }]);
    expect(stepObservation(s, 4)).toBe("You took action Do Nothing.\n\nYou (agent) don't have the message.\n\nYou see:\n- airplane 2 steps to your south");
    expect(stepObservation({ ...s, alive: false }, 0)).toBe('Environment Error.');
    expect(observe({ ...s, alive: false })).toBe('Environment Error.');
  });

  it('reset observations: L1 shows three entities two steps away; L3 shows three lines for five sprites', () => {
    for (let seed = 0; seed < 50; seed++) {
      const o1 = resetSync(messenger, L1, seed).observation;
      expect(o1).toMatch(/^You \(agent\) (don't|already) have the message\.\n\nYou see:\n(- [a-z]+ 2 steps to your (north|south|west|east)\n?){3}$/);
      const o3 = resetSync(messenger, L3, seed).observation;
      expect(o3.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(3);
    }
  });
});

describe('MESSENGER stage 1: rules', () => {
  const DIRS: [string, number, number][] = [
    [NORTH, 0, -1],
    [SOUTH, 0, 1],
    [WEST, -1, 0],
    [EAST, 1, 0],
  ];
  // envs/messenger/README.md, Upstream, stage 1: enemy −1; message +1 without it, −1 with it; goal +1 with it, −1 without; all end the episode.
  const TABLE: [Npc['role'], boolean, number][] = [
    ['enemy', false, -1],
    ['enemy', true, -1],
    ['message', false, 1],
    ['message', true, -1],
    ['goal', false, -1],
    ['goal', true, 1],
  ];

  it('the reward table, for every role, message state and direction', () => {
    for (const [role, hasMessage, reward] of TABLE) {
      for (const [action, dx, dy] of DIRS) {
        const others = (['enemy', 'message', 'goal'] as const).filter((r) => r !== role).map((r, i) => ({ role: r, x: i, y: 0 }));
        const s = build(1, [5, 5], [{ role, x: 5 + dx, y: 5 + dy }, ...others], { hasMessage });
        const step = stepSync(messenger, s, action);
        expect(step.reward, `${role} ${hasMessage} ${action}`).toBe(reward);
        expect(step.terminated).toBe(true);
        expect(step.score).toBe(reward);
        expect(messenger.success(step.state)).toBe(reward === 1);
        // The avatar is never removed in stage 1: the text still renders, on the entity's cell.
        expect(step.observation).toMatch(new RegExp(`^You took action ${action}\\.\\n\\nYou \\(agent\\) (don't|already) have the message\\.\\n\\nYou see:\\n`));
        expect(step.observation).toContain('- airplane 0 steps with you');
        expect(step.observation.startsWith(`You took action ${action}.\n\nYou (agent) ${hasMessage ? 'already' : "don't"} have`)).toBe(true);
      }
    }
  });

  it('an empty cell gives 0 and goes on; Do Nothing and off-grid moves leave the avatar in place', () => {
    const s = build(1, [0, 0], [{ role: 'enemy', x: 9, y: 9 }, { role: 'message', x: 9, y: 8 }, { role: 'goal', x: 9, y: 7 }]);
    for (const action of [NORTH, WEST, NOTHING]) {
      const step = stepSync(messenger, s, action);
      expect([step.reward, step.terminated, step.state.ax, step.state.ay]).toEqual([0, false, 0, 0]);
    }
    const moved = stepSync(messenger, s, EAST);
    expect([moved.reward, moved.terminated, moved.state.ax, moved.state.ay]).toEqual([0, false, 2, 0]);
  });

  it('stage 1 never changes the avatar\'s message state (picking the message up ends the game)', () => {
    const s = build(1, [5, 5], [{ role: 'message', x: 5, y: 4 }, { role: 'enemy', x: 0, y: 0 }, { role: 'goal', x: 9, y: 9 }]);
    const step = stageOneStep(s, 0);
    expect(step.state.hasMessage).toBe(false);
    expect(step.state.events).toEqual([{ kind: 'picked-up', entity: 'airplane' }]);
  });

  it('resets: entities on three of the four cells two steps away, the message held with probability 0.2', () => {
    const cells = new Map<string, number>();
    let holding = 0;
    const N = 5000;
    for (let seed = 0; seed < N; seed++) {
      const { state } = resetSync(messenger, L1, seed);
      expect([state.ax, state.ay]).toEqual([10, 10]);
      expect(state.npcs.map((n) => n.role)).toEqual(['enemy', 'message', 'goal']);
      for (const n of state.npcs) {
        const key = `${n.y / 2},${n.x / 2}`;
        expect(['3,5', '5,3', '5,7', '7,5']).toContain(key);
        cells.set(`${n.role}@${key}`, (cells.get(`${n.role}@${key}`) ?? 0) + 1);
      }
      expect(new Set(state.npcs.map((n) => `${n.x},${n.y}`)).size).toBe(3);
      if (state.hasMessage) holding++;
    }
    expect(Math.abs(holding / N - 0.2)).toBeLessThan(0.02);
    // Each role appears on each cell about a quarter of the time.
    expect(cells.size).toBe(12);
    for (const count of cells.values()) expect(Math.abs(count / N - 0.25)).toBeLessThan(0.03);
  });
});

describe('MESSENGER stages 2–3: VGDL collisions and rewards', () => {
  it('collides on 2×2-pixel overlap: half a cell away kills, a whole cell does not', () => {
    // Immovable enemy at pixel (7, 4); the avatar steps east from (4, 4) to (6, 4): |dx| = 1 → overlap.
    const hit = stepSync(messenger, build(2, [4, 4], [{ x: 7, y: 4 }], { px: true }), EAST);
    expect([hit.reward, hit.terminated, hit.state.alive, hit.observation]).toEqual([-1, true, false, 'Environment Error.']);
    // Diagonal half-cell offset (1, 1) also overlaps.
    const diag = stepSync(messenger, build(2, [4, 4], [{ x: 7, y: 5 }], { px: true }), EAST);
    expect(diag.reward).toBe(-1);
    // A whole cell apart (|dx| = 2) does not, even diagonally adjacent (|dx| = 2, |dy| = 1).
    const clear = stepSync(messenger, build(2, [4, 4], [{ x: 8, y: 4 }], { px: true }), NOTHING);
    expect([clear.reward, clear.terminated]).toEqual([0, false]);
    const clear2 = stepSync(messenger, build(2, [4, 4], [{ x: 8, y: 5 }], { px: true }), EAST);
    expect(clear2.state.ax).toBe(6);
    expect([clear2.reward, clear2.terminated]).toEqual([0, false]);
    const clear3 = stepSync(messenger, build(2, [4, 4], [{ x: 6, y: 6 }], { px: true }), NOTHING);
    expect([clear3.reward, clear3.terminated]).toEqual([0, false]);
  });

  it('a sprite whose floored cell looks adjacent can already touch the avatar', () => {
    // Enemy at pixel (7, 4) is seen in column 3; the avatar moving west from (10, 4) to (8, 4) is in column 4.
    const before = build(2, [10, 4], [{ x: 7, y: 4 }], { px: true });
    expect(observe(before)).toContain('- airplane 2 steps to your west');
    const step = stepSync(messenger, before, WEST);
    expect(step.reward).toBe(-1);
    expect(step.observation).toBe('Environment Error.');
    expect(step.state.events).toEqual([{ kind: 'killed', by: 'enemy', entity: 'airplane' }]);
  });

  it('picking up the message scores +0.5 and goes on; delivering it to the goal scores +1 and wins', () => {
    const s = build(2, [2, 2], [
      { role: 'enemy', entity: 'airplane', x: 9, y: 9 },
      { role: 'message', entity: 'dog', x: 3, y: 2 },
      { role: 'goal', entity: 'ship', x: 5, y: 2 },
    ]);
    const pick = stepSync(messenger, s, EAST);
    expect([pick.reward, pick.score, pick.terminated, pick.state.hasMessage]).toEqual([0.5, 0.5, false, true]);
    expect(pick.state.npcs.map((n) => n.role)).toEqual(['enemy', 'goal']);
    expect(pick.observation).toBe(
      'You took action Move East.\n\nYou (agent) already have the message.\n\nYou see:\n- airplane 13 steps to your south-east\n- ship 2 steps to your east',
    );
    const walk = stepSync(messenger, pick.state, EAST);
    expect(walk.reward).toBe(0);
    const win = stepSync(messenger, walk.state, EAST);
    expect([win.reward, win.score, win.terminated, messenger.success(win.state)]).toEqual([1, 1, true, true]);
    expect(win.observation).toBe('You took action Move East.\n\nYou (agent) already have the message.\n\nYou see:\n- airplane 11 steps to your south-east');
  });

  it('the goal without the message kills (−1); the message then stays', () => {
    const s = build(2, [2, 2], [{ role: 'enemy', x: 9, y: 9 }, { role: 'message', x: 0, y: 9 }, { role: 'goal', x: 2, y: 3 }]);
    const step = stepSync(messenger, s, SOUTH);
    expect([step.reward, step.terminated, step.state.alive, messenger.success(step.state)]).toEqual([-1, true, false, false]);
    expect(step.state.events).toEqual([{ kind: 'killed', by: 'goal', entity: 'airplane' }]);
  });

  it('the enemy is checked first: touching the enemy and the message at once is −1 and no pick-up', () => {
    const s = build(2, [4, 4], [{ role: 'enemy', x: 7, y: 4 }, { role: 'message', x: 6, y: 5 }, { role: 'goal', x: 18, y: 18 }], { px: true });
    const step = stepSync(messenger, s, EAST);
    expect([step.reward, step.state.hasMessage, step.state.alive]).toEqual([-1, false, false]);
  });

  it('stays on the screen: the avatar and NPCs that try to leave step back', () => {
    const edge = build(2, [18, 0], [{ role: 'enemy', x: 0, y: 18 }, { role: 'message', movement: 'fleeing', x: 18, y: 18 }, { role: 'goal', x: 0, y: 0 }], { px: true });
    const step = stepSync(messenger, edge, EAST);
    expect([step.state.ax, step.state.ay]).toEqual([18, 0]);
    const up = stepSync(messenger, edge, NORTH);
    expect([up.state.ax, up.state.ay]).toEqual([18, 0]);
    // The fleer in the bottom-right corner, the avatar straight north: it flees south, east (off-screen:
    // stepped back) or west along the bottom row, never north.
    for (let seed = 0; seed < 50; seed++) {
      const s = stepSync(messenger, { ...edge, rng: seed }, NOTHING).state;
      const m = s.npcs.find((n) => n.role === 'message')!;
      expect(m.x).toBeLessThanOrEqual(18);
      expect(m.y).toBeLessThanOrEqual(18);
      expect(m.y).toBe(18);
      expect(m.x).toBeGreaterThanOrEqual(17);
    }
  });

  it('NPCs move before the avatar, toward where it stands before its move', () => {
    // A chaser 4 pixels east on the same row can only go west; the avatar moving north does not change that.
    const s = build(2, [4, 4], [{ role: 'enemy', movement: 'chaser', x: 8, y: 4 }, { role: 'goal', x: 18, y: 18 }], { px: true });
    for (let seed = 0; seed < 20; seed++) {
      const step = stepSync(messenger, { ...s, rng: seed }, NORTH);
      expect(step.state.npcs[0]).toMatchObject({ x: 7, y: 4 });
      expect([step.state.ax, step.state.ay]).toEqual([4, 2]);
    }
  });

  it('stage 3: decoys kill; the enemy and a decoy at once score −2 (VGDL adds each overlap\'s score)', () => {
    const base = [
      { role: 'enemy' as const, x: 18, y: 18 },
      { role: 'message' as const, entity: 'dog' as const, x: 0, y: 18 },
      { role: 'goal' as const, entity: 'ship' as const, x: 18, y: 0 },
    ];
    for (const role of ['decoy_message', 'decoy_goal'] as const) {
      const s = build(3, [4, 4], [...base, { role, entity: role === 'decoy_message' ? 'dog' : 'ship', x: 6, y: 4 }], { px: true });
      const step = stepSync(messenger, s, EAST);
      expect([step.reward, step.terminated, step.observation]).toEqual([-1, true, 'Environment Error.']);
      expect(step.state.events).toEqual([{ kind: 'killed', by: role, entity: role === 'decoy_message' ? 'dog' : 'ship' }]);
      // Even holding the message, a decoy goal is deadly.
      const held = stepSync(messenger, { ...s, hasMessage: true, npcs: s.npcs.filter((n) => n.role !== 'message') }, EAST);
      expect(held.reward).toBe(-1);
    }
    const both = build(3, [4, 4], [{ role: 'enemy', x: 7, y: 4 }, { role: 'message', x: 0, y: 18 }, { role: 'goal', x: 18, y: 0 }, { role: 'decoy_goal', x: 6, y: 5 }], { px: true });
    expect(stepSync(messenger, both, EAST).reward).toBe(-2);
  });

  it('stage 3: the decoy message looks like the message in the text; only the real one can be picked up', () => {
    const s = build(3, [4, 4], [
      { role: 'enemy', entity: 'airplane', x: 18, y: 18 },
      { role: 'message', entity: 'dog', x: 0, y: 16 },
      { role: 'goal', entity: 'ship', x: 18, y: 0 },
      { role: 'decoy_message', entity: 'dog', x: 4, y: 8 },
    ], { px: true });
    expect(observe(s)).toBe("You (agent) don't have the message.\n\nYou see:\n- airplane 14 steps to your south-east\n- dog 2 steps to your south\n- ship 9 steps to your north-east");
  });
});

describe('MESSENGER: seeding, score and robustness', () => {
  it('a seed and the actions replay exactly; seeds differ', () => {
    const rand = testRandom(7);
    const actions = Array.from({ length: 64 }, () => MESSENGER_ACTIONS[Math.floor(rand() * 5)]);
    for (const t of [L1, L2, L3]) {
      const a = rollout(messenger, t, 11, actions);
      const b = rollout(messenger, t, 11, actions);
      expect(b.steps.map((s) => s.observation)).toEqual(a.steps.map((s) => s.observation));
      expect(b.init.observation).toBe(a.init.observation);
      expect(messengerManual(t, 11)).toBe(messengerManual(t, 11));
    }
    const layouts = new Set(Array.from({ length: 40 }, (_, seed) => JSON.stringify(resetSync(messenger, L2, seed).state.npcs)));
    expect(layouts.size).toBeGreaterThan(30);
  });

  it('score is the last step\'s reward, not a sum', () => {
    const s = build(2, [2, 2], [{ role: 'enemy', x: 9, y: 9 }, { role: 'message', x: 3, y: 2 }, { role: 'goal', x: 9, y: 0 }]);
    const pick = stepSync(messenger, s, EAST);
    expect(pick.score).toBe(0.5);
    const after = stepSync(messenger, pick.state, NOTHING);
    expect(after.score).toBe(0);
    expect(messenger.success(after.state)).toBe(false);
  });

  it('matches actions in free text; unmatched text moves north and is invalid; step never throws', () => {
    const { state } = resetSync(messenger, L2, 3);
    const a = stepSync(messenger, state, 'I will do nothing. Final: DO NOTHING');
    expect(a.observation.startsWith('You took action Do Nothing.')).toBe(true);
    expect(a.valid).toBe(true);
    const b = stepSync(messenger, state, 'go up please');
    expect(b.observation.startsWith('You took action Move North.')).toBe(true);
    expect(b.valid).toBe(false);
    const rand = testRandom(99);
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: Math.floor(rand() * 40) }, () => String.fromCodePoint(32 + Math.floor(rand() * 0x2fff))).join('');
      const step = stepSync(messenger, state, text);
      expect(typeof step.observation).toBe('string');
      expect(Number.isFinite(step.reward)).toBe(true);
    }
  });
});

describe('MESSENGER: the oracle', () => {
  function play(t: MessengerTask, seed: number): number {
    let state = resetSync(messenger, t, seed).state;
    let reward = 0;
    for (let i = 0; i < messenger.maxSteps(t) && !state.done; i++) {
      const step = stepSync(messenger, state, messenger.oracleAction!(state, t)!);
      state = step.state;
      reward = step.reward;
    }
    return reward;
  }

  it('wins every level-1 episode and nearly every level-2 and level-3 one', () => {
    const rate = (t: MessengerTask, n: number) => Array.from({ length: n }, (_, seed) => play(t, 1000 + seed)).filter((r) => r === 1).length / n;
    expect(rate(L1, 100)).toBe(1);
    expect(rate(L2, 60)).toBeGreaterThanOrEqual(0.95);
    expect(rate(L3, 60)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('MESSENGER: manual', () => {
  it('manual(task, seed) is the episode\'s manual; without a seed a placeholder stands for the sentences', () => {
    const manual = messengerManual(L2, 5);
    const sentences = messengerReset(L2, 5).sentences;
    expect(manual).toBe(
      'In the game, MESSENGER, each entity can take on one of three roles: an enemy, message, or goal. The agent’s objective is to bring the message to the goal while avoiding the enemies. If the agent encounters an enemy at any point in the game, or the goal without first obtaining the message, it loses the game and obtains a reward of −1.' +
        `\n\n${sentences.join('\n')}\n\n` +
        'To solve a game, you may find it helpful to list the objects that you see. Then for each object, match it with an entity description, and identify whether it is good or bad to interact with the object.\nThe name specifications of in-game objects may not be exact matches. Please try identifying with synonyms.' +
        '\n\nList of all actions:\n1. Move North\n2. Move South\n3. Move West\n4. Move East\n5. Do Nothing',
    );
    expect(messenger.manual(L2)).toContain(`\n\n${MANUAL_PLACEHOLDER}\n\n`);
    expect(messenger.manual(L2).endsWith(`\n\n${describeActions(MESSENGER_ACTIONS)}`)).toBe(true);
  });
});
