/**
 * Crafter through the environment (engine + text + score) against SmartPlay's own Crafter
 * (tests/fixtures/upstream/crafter/text.json.gz, record_text.py): for each recorded seed and action
 * sequence, the reset observation and, at every step, the observation, reward, SmartPlay's score,
 * done, the 22 achievements and the inventory; and the two requests the model driver sends
 * against the ones SmartPlay's compose_ingame_prompt made (the history starts with the reset's
 * own noop step, numbered 0).
 */
import { describe, expect, it } from 'vitest';
import { crafter, CRAFTER_ACTIONS } from '../../envs/crafter/index.ts';
import { ACHIEVEMENTS } from '../../envs/crafter/engine/types.ts';
import { resetSync, stepSync, task } from './helpers.ts';
import { FIXTURE } from './crafter-fixture.ts';
import { scriptedRequests } from '../support/scripted-requests.ts';

const T = task(crafter, 'crafter');

describe('Crafter against SmartPlay\'s Crafter, step by step', () => {
  for (const e of FIXTURE.episodes) {
    it(`${e.name} (seed ${e.seed}): ${e.frames.length - 1} steps`, () => {
      const init = resetSync(crafter, T, e.seed);
      expect(init.observation).toBe(e.frames[0].obs);
      expect(init.score).toBe(e.frames[0].score);
      let state = init.state;
      e.actions.forEach((a, i) => {
        const f = e.frames[i + 1];
        const s = stepSync(crafter, state, CRAFTER_ACTIONS[a]);
        const at = `${e.name} step ${i + 1}`;
        expect(s.observation, at).toBe(f.obs);
        expect(s.reward, at).toBeCloseTo(f.reward, 12);
        expect(s.score, at).toBe(f.score);
        expect(s.terminated, at).toBe(f.done);
        expect(s.info?.achievements, at).toEqual(f.achievements);
        expect(s.info?.inventory, at).toEqual(f.inventory);
        expect(Object.keys(s.info?.achievements as object)).toEqual([...ACHIEVEMENTS]);
        state = s.state;
      });
    });
  }

  it('the score is not the reward sum: each step adds the achievements unlocked so far', () => {
    const e = FIXTURE.episodes.find((x) => x.frames.at(-1)!.score > 100)!;
    const rewardSum = e.frames.reduce((s, f) => s + f.reward, 0);
    expect(e.frames.at(-1)!.score).not.toBeCloseTo(rewardSum, 3);
    let score = 0;
    for (const f of e.frames.slice(1)) score += Object.values(f.achievements).filter((c) => c > 0).length;
    expect(e.frames.at(-1)!.score).toBe(score);
  });
});

describe('the requests a model gets, against compose_ingame_prompt', () => {
  for (const e of FIXTURE.episodes.filter((x) => x.prompts.length > 0)) {
    it(`${e.name}: the requests at steps ${e.prompts.map((p) => p.step).join(', ')}`, async () => {
      const last = Math.max(...e.prompts.map((p) => p.step));
      const replies = e.actions.slice(0, last + 1).flatMap((a) => ['Scripted first answer.', CRAFTER_ACTIONS[a]]);
      const sent = await scriptedRequests('crafter', replies, { seed: e.seed, maxSteps: last + 1 });
      for (const p of e.prompts) {
        expect(p.historyIndex).toBe(2);
        expect(sent[2 * p.step], `step ${p.step}, question 1`).toEqual(p.messages[0]);
        expect(sent[2 * p.step + 1], `step ${p.step}, question 2`).toEqual(p.messages[1]);
      }
    }, 60_000);
  }
});
