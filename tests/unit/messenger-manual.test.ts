/**
 * MESSENGER manuals as messenger-emma composes them (envs/messenger/README.md, Upstream), checked
 * against the crowd-sourced test texts: which list every sentence comes from, per
 * stage, and stage 2's 0.15 rate of sentences without movement information.
 */
import { describe, expect, it } from 'vitest';
import { messenger, messengerManual, messengerReset, type MessengerTask } from '../../envs/messenger/index.ts';
import { MESSENGER_ADVICE, MESSENGER_CONTEXT } from '../../envs/messenger/manual.ts';
import { STAGE_THREE, STAGE_TWO } from '../../envs/messenger/levels.ts';
import texts from '../../envs/messenger/data/text_test.json';
import { task } from './helpers.ts';

type Lists = Record<string, Record<string, Record<string, string[]>>>;
const TEXTS = texts as Lists;
const L1: MessengerTask = task(messenger, 'messenger-l1');
const L2: MessengerTask = task(messenger, 'messenger-l2');
const L3: MessengerTask = task(messenger, 'messenger-l3');

const has = (entity: string, role: string, type: string, sentence: string): boolean => TEXTS[entity][role][type].includes(sentence);

/** Consumes each expected (entity, role, type options) once: every sentence must match one of them. */
function matchAll(sentences: readonly string[], wanted: { entity: string; role: string; types: string[] }[]): boolean {
  const left = [...wanted];
  for (const s of sentences) {
    const i = left.findIndex((w) => w.types.some((t) => has(w.entity, w.role, t, s)));
    if (i === -1) return false;
    left.splice(i, 1);
  }
  return left.length === 0;
}

describe('MESSENGER manual texts', () => {
  it('keeps the context\'s curly apostrophe and Unicode minus, and the advice text', () => {
    expect(MESSENGER_CONTEXT).toContain('The agent’s objective');
    expect(MESSENGER_CONTEXT.endsWith('obtains a reward of −1.')).toBe(true);
    expect(MESSENGER_ADVICE).toBe(
      'To solve a game, you may find it helpful to list the objects that you see. Then for each object, match it with an entity description, and identify whether it is good or bad to interact with the object.\nThe name specifications of in-game objects may not be exact matches. Please try identifying with synonyms.',
    );
  });

  it('is context, sentences (one per line), advice and action list, separated by blank lines', () => {
    for (const [t, n] of [[L1, 3], [L2, 3], [L3, 6]] as const) {
      const manual = messengerManual(t, 42);
      const parts = manual.split('\n\n');
      expect(parts[0]).toBe(MESSENGER_CONTEXT);
      expect(parts[1].split('\n')).toEqual(messengerReset(t, 42).sentences);
      expect(parts[1].split('\n')).toHaveLength(n);
      expect(parts.slice(2).join('\n\n')).toBe(`${MESSENGER_ADVICE}\n\nList of all actions:\n1. Move North\n2. Move South\n3. Move West\n4. Move East\n5. Do Nothing`);
    }
  });

  it('stage 1: one immovable-or-unknown sentence per role, shuffled', () => {
    const firstIsEnemy = new Set<number>();
    for (let seed = 0; seed < 2000; seed++) {
      const s = messengerReset(L1, seed);
      const [enemy, message, goal] = s.game;
      const wanted = [
        { entity: enemy, role: 'enemy', types: ['immovable', 'unknown'] },
        { entity: message, role: 'message', types: ['immovable', 'unknown'] },
        { entity: goal, role: 'goal', types: ['immovable', 'unknown'] },
      ];
      expect(matchAll(s.sentences, wanted), `seed ${seed}`).toBe(true);
      firstIsEnemy.add(s.sentences.findIndex((x) => has(enemy, 'enemy', 'immovable', x) || has(enemy, 'enemy', 'unknown', x)));
    }
    expect([...firstIsEnemy].sort()).toEqual([0, 1, 2]);
  });

  it('stage 2: one sentence per role of its true movement type, or with probability 0.15 an unknown one', () => {
    const N = 10_000;
    let unknown = 0;
    for (let seed = 0; seed < N; seed++) {
      const s = messengerReset(L2, seed);
      const types = STAGE_TWO.variants[s.variant].types;
      const roles = ['enemy', 'message', 'goal'];
      const wanted = roles.map((role, i) => ({ entity: s.game[i], role, types: [types[i], 'unknown'] }));
      expect(matchAll(s.sentences, wanted), `seed ${seed}`).toBe(true);
      // The variant's types are the sprites' movement types.
      expect(s.npcs.map((n) => n.movement)).toEqual(types);
      for (const sentence of s.sentences) if (roles.some((role, i) => has(s.game[i], role, 'unknown', sentence))) unknown++;
    }
    expect(Math.abs(unknown / (3 * N) - 0.15)).toBeLessThan(0.02);
  });

  it('stage 3: six typed sentences: the three roles, two decoys described as enemies, the enemy in another role', () => {
    for (let seed = 0; seed < 1000; seed++) {
      const s = messengerReset(L3, seed);
      const [enemy, message, goal] = s.game;
      const [te, tm, tg, tdm, tdg] = STAGE_THREE.variants[s.variant].types;
      const others = ['chaser', 'fleeing', 'immovable'].filter((t) => t !== te);
      const wanted = [
        { entity: enemy, role: 'enemy', types: [te] },
        { entity: message, role: 'message', types: [tm] },
        { entity: goal, role: 'goal', types: [tg] },
        { entity: message, role: 'enemy', types: [tdm] },
        { entity: goal, role: 'enemy', types: [tdg] },
      ];
      expect(s.sentences).toHaveLength(6);
      // Exactly one sentence is the decoy one: the enemy entity as message or goal, another movement type.
      const decoy = s.sentences.filter((x) => ['message', 'goal'].some((r) => others.some((t) => has(enemy, r, t, x))));
      expect(decoy.length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
      const rest = [...s.sentences];
      rest.splice(rest.indexOf(decoy[0]), 1);
      expect(matchAll(rest, wanted), `seed ${seed}`).toBe(true);
      // No unknown sentences in stage 3.
      for (const x of s.sentences) for (const [e, r] of [[enemy, 'enemy'], [message, 'message'], [goal, 'goal']]) expect(has(e, r, 'unknown', x)).toBe(false);
      // Decoy sprites: the message's and the goal's entity, with the variant's decoy types.
      expect(s.npcs.map((n) => [n.role, n.entity, n.movement])).toEqual([
        ['enemy', enemy, te],
        ['message', message, tm],
        ['goal', goal, tg],
        ['decoy_message', message, tdm],
        ['decoy_goal', goal, tdg],
      ]);
    }
  });
});
