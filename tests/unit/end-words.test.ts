/**
 * Issue 28: the outcome says what happened in the game's own words (each environment's endWords),
 * and the score's ceiling where it has one (maxScore). Episodes are played through the
 * environments' own steps; nothing is built by hand but the moves.
 */
import { describe, expect, it } from 'vitest';
import { HANOI_ACTIONS, hanoi, hanoiSolution } from '../../envs/hanoi/index.ts';
import { messenger } from '../../envs/messenger/index.ts';
import { ACTION_DX, ACTION_DY, MESSENGER_ACTIONS, type MessengerState } from '../../envs/messenger/entities.ts';
import { bandits } from '../../envs/bandits/index.ts';
import { rps } from '../../envs/rps/index.ts';
import type { EnvDefinition } from '../../envs/core/types.ts';
import { resetSync, rollout, stepSync, task } from './helpers.ts';

describe('endWords and maxScore', () => {
  it('Hanoi: a solved tower is said as such, and its ceiling is its disks', () => {
    const t = task(hanoi, 'hanoi-3');
    const { steps } = rollout(hanoi, t, 0, hanoiSolution(3).map((m) => HANOI_ACTIONS[m]));
    const last = steps.at(-1)!;
    expect(last.terminated).toBe(true);
    expect(hanoi.endWords!(last.state, { finishReason: 'Complete', success: true, score: last.score, steps: steps.length }, t)).toBe('All 3 disks are on rod C: the tower is moved.');
    expect(hanoi.maxScore!(t)).toBe(3);
    expect(hanoi.maxScore!(task(hanoi, 'hanoi-4'))).toBe(4);
  });

  it('MESSENGER: walking into the enemy reads as being caught by it, not as a failed check', () => {
    const t = task(messenger, 'messenger-l1');
    let found = 0;
    for (let seed = 0; seed < 40 && found < 3; seed++) {
      let state = resetSync(messenger, t, seed).state as MessengerState;
      const enemy = state.npcs.find((n) => n.role === 'enemy')!;
      // Straight at the enemy: first across, then along (a seed whose path crosses another entity is skipped).
      for (let i = 0; i < 40 && !state.done; i++) {
        const dx = Math.sign(enemy.x - state.ax);
        const dy = Math.sign(enemy.y - state.ay);
        const move = dx !== 0 ? ACTION_DX.indexOf(dx * 2 as never) : ACTION_DY.indexOf(dy * 2 as never);
        state = stepSync(messenger, state, MESSENGER_ACTIONS[move]).state;
      }
      const event = state.events.at(-1);
      if (!(event?.kind === 'killed' && event.by === 'enemy')) continue;
      found++;
      const words = messenger.endWords!(state, { finishReason: 'Complete', success: messenger.success(state), score: state.reward, steps: state.t }, t);
      expect(words).toBe(`The ${enemy.entity}, the enemy, caught you.`);
    }
    expect(found, 'seeds where the avatar reached the enemy').toBe(3);
  });

  it('Bandits and RPS: the episode ends after its pulls or rounds, counted against a ceiling of one per step', () => {
    for (const env of [bandits, rps] as EnvDefinition[]) {
      const t = env.tasks()[0];
      const actions = Array.from({ length: env.maxSteps(t) }, () => env.validActions(undefined as never)[0]);
      const { steps } = rollout(env as never, t, 5, actions) as { steps: { state: { optimal: number }; score: number }[] };
      const last = steps.at(-1)!;
      expect(env.maxScore!(t)).toBe(50);
      expect(last.score).toBeLessThanOrEqual(50);
      const words = env.endWords!(last.state as never, { finishReason: 'Complete', success: null, score: last.score, steps: 50 }, t as never)!;
      expect(words).toMatch(env === bandits ? /^All 50 pulls are made: \d+ of them were on the machine that pays more/ : /^All 50 rounds are played: \d+ times you chose (Rock|Paper|Scissor)/);
      expect(words).toContain(String(last.score));
    }
  });
});
