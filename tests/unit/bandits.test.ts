/**
 * Conformance of the Bandits port with SmartPlay's BanditTwoArmedHighLowFixed-v0
 * (envs/core/README.md "SmartPlay", envs/bandits/README.md "Upstream"). Expected texts are written out
 * literally from upstream's source, not computed by the port.
 */
import { describe, expect, it } from 'vitest';
import { bandits, type BanditTask } from '../../envs/bandits/index.ts';
import { loadEnv, getTask } from '../../envs/index.ts';
import { playEpisode, resetSync, rollout, stepSync, task, testRandom } from './helpers.ts';

const T: BanditTask = task(bandits, 'bandits-highlow');
const PULL_1 = 'Pull slot machine 1.';
const PULL_2 = 'Pull slot machine 2.';
const PULLS = [PULL_1, PULL_2];

const MANUAL =
  'You are in the casino with 2 slot machines in front of you. Your goal is to try to earn the most from those slot machines.\n\nList of all actions:\n1. Pull slot machine 1.\n2. Pull slot machine 2.';

/** Parse "You pulled slot machine {a+1}, you received reward {reward}." (fails the test on any other shape). */
function parsePull(obs: string): { arm: number; reward: number } {
  const m = /^You pulled slot machine ([12]), you received reward (-?1)\.$/.exec(obs);
  expect(m, `unexpected observation ${JSON.stringify(obs)}`).not.toBeNull();
  return { arm: Number(m![1]) - 1, reward: Number(m![2]) };
}

/** Pull `arm` n times from the state after reset of `seed`; returns the rewards read from the observations. */
function pullMany(seed: number, arm: number, n: number): number[] {
  let state = resetSync(bandits, T, seed).state;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = stepSync(bandits, state, PULLS[arm]);
    out.push(parsePull(s.observation).reward);
    state = s.state;
  }
  return out;
}

describe('Bandits: registration and settings', () => {
  it('is registered with the upstream task', async () => {
    expect(await loadEnv('bandits')).toBe(bandits);
    expect(getTask(bandits, 'BanditTwoArmedHighLowFixed-v0').id).toBe('bandits-highlow');
    expect(bandits.suites).toEqual([{ suite: 'smartplay' }]);
  });

  it('has a 50-step horizon and a 50-step history window', () => {
    expect(bandits.maxSteps(T)).toBe(50);
    expect(bandits.limitKind).toBe('horizon');
    expect(bandits.conversation('smartplay', bandits.tasks()[0])).toEqual({ smartplay: { historyWindow: 50 } });
  });

  it('offers the two actions with their trailing period', () => {
    expect(bandits.validActions(resetSync(bandits, T, 0).state)).toEqual(['Pull slot machine 1.', 'Pull slot machine 2.']);
  });

  it('the manual is exact', () => {
    expect(bandits.manual(T)).toBe(MANUAL);
  });

  it('success is null (the benchmark defines none)', () => {
    const { state } = rollout(bandits, T, 3, [PULL_1, PULL_2]);
    expect(bandits.success(state)).toBeNull();
  });
});

describe('Bandits: reset and step observations', () => {
  it('reset observation is "A new round begins." with score 0', () => {
    const init = resetSync(bandits, T, 0);
    expect(init.observation).toBe('A new round begins.');
    expect(init.score).toBe(0);
  });

  it('step observations are exact for both machines and both rewards', () => {
    const seen = new Map<string, string>();
    for (let seed = 0; seed < 20 && seen.size < 4; seed++) {
      const { steps } = rollout(bandits, T, seed, [PULL_1, PULL_2, PULL_1, PULL_2, PULL_1, PULL_2]);
      steps.forEach((s, i) => seen.set(`${i % 2}|${s.reward}`, s.observation));
    }
    expect(seen.get('0|1')).toBe('You pulled slot machine 1, you received reward 1.');
    expect(seen.get('0|-1')).toBe('You pulled slot machine 1, you received reward -1.');
    expect(seen.get('1|1')).toBe('You pulled slot machine 2, you received reward 1.');
    expect(seen.get('1|-1')).toBe('You pulled slot machine 2, you received reward -1.');
  });

  it('rewards are only +1 or -1, never terminate, and the text matches the reward', () => {
    const rand = testRandom(11);
    for (let seed = 0; seed < 30; seed++) {
      const actions = Array.from({ length: 50 }, () => PULLS[rand() < 0.5 ? 0 : 1]);
      const { steps } = rollout(bandits, T, seed, actions);
      steps.forEach((s, i) => {
        expect([1, -1]).toContain(s.reward);
        expect(s.terminated).toBe(false);
        expect(s.truncated).toBe(false);
        expect(s.valid).toBe(true);
        const parsed = parsePull(s.observation);
        expect(parsed.arm).toBe(PULLS.indexOf(actions[i]));
        expect(parsed.reward).toBe(s.reward);
      });
    }
  });

  it('matches the action inside free text; unmatched text pulls machine 1 and is invalid', () => {
    const init = resetSync(bandits, T, 5);
    const a = stepSync(bandits, init.state, 'I think I should PULL SLOT MACHINE 2. now');
    expect(parsePull(a.observation).arm).toBe(1);
    expect(a.valid).toBe(true);
    const b = stepSync(bandits, init.state, 'the second one please');
    expect(parsePull(b.observation).arm).toBe(0);
    expect(b.valid).toBe(false);
    // Without the trailing period the action string does not occur: falls back to machine 1.
    const c = stepSync(bandits, init.state, 'Pull slot machine 2');
    expect(parsePull(c.observation).arm).toBe(0);
    expect(c.valid).toBe(false);
  });
});

describe('Bandits: arms, optimal arm and score', () => {
  it('the arm order is shuffled at reset: both orders occur over 200 seeds', () => {
    let firstIsHigh = 0;
    let secondIsHigh = 0;
    for (let seed = 0; seed < 200; seed++) {
      const { state } = resetSync(bandits, T, seed);
      expect([...state.p].sort()).toEqual([0.2, 0.8]);
      expect(state.r).toEqual([1, 1]);
      if (state.p[0] === 0.8) firstIsHigh++;
      else secondIsHigh++;
    }
    expect(firstIsHigh).toBeGreaterThan(60);
    expect(secondIsHigh).toBeGreaterThan(60);
  });

  it('the optimal arm is the one with p = 0.8 (ev = p*r - (1-p))', () => {
    for (let seed = 0; seed < 50; seed++) {
      const { state } = resetSync(bandits, T, seed);
      expect(state.p[state.optimal]).toBe(0.8);
    }
  });

  it('score counts pulls of the optimal arm, step by step, and the step info names that arm', () => {
    const rand = testRandom(2024);
    for (const seed of [0, 1, 2, 3, 4, 5, 6, 7]) {
      const init = resetSync(bandits, T, seed);
      const optimal = init.state.optimal;
      let state = init.state;
      let expected = 0;
      for (let i = 0; i < 50; i++) {
        const arm = rand() < 0.5 ? 0 : 1;
        const s = stepSync(bandits, state, PULLS[arm]);
        if (arm === optimal) expected++;
        expect(s.score).toBe(expected);
        expect(s.info?.optimal).toBe(optimal);
        state = s.state;
      }
    }
  });

  it('always pulling the optimal arm scores 50/50; always the other scores 0', () => {
    const { state } = resetSync(bandits, T, 9);
    const good = rollout(bandits, T, 9, Array(50).fill(PULLS[state.optimal]));
    const bad = rollout(bandits, T, 9, Array(50).fill(PULLS[1 - state.optimal]));
    expect(good.steps[49].score).toBe(50);
    expect(bad.steps[49].score).toBe(0);
  });

  it('over many pulls the optimal arm pays ~80% and the other ~20%', () => {
    let goodWins = 0;
    let goodPulls = 0;
    let badWins = 0;
    let badPulls = 0;
    let highIsFirst = 0;
    for (let seed = 100; seed < 140; seed++) {
      const optimal = resetSync(bandits, T, seed).state.optimal;
      if (optimal === 0) highIsFirst++;
      const good = pullMany(seed, optimal, 250);
      const bad = pullMany(seed, 1 - optimal, 250);
      goodWins += good.filter((r) => r === 1).length;
      goodPulls += good.length;
      badWins += bad.filter((r) => r === 1).length;
      badPulls += bad.length;
      // Per seed the arm that pays more is the optimal one (250 pulls: no realistic overlap of 0.8 and 0.2).
      expect(good.filter((r) => r === 1).length).toBeGreaterThan(bad.filter((r) => r === 1).length);
    }
    // Both orders were in the sample, so this is not one fixed arm.
    expect(highIsFirst).toBeGreaterThan(5);
    expect(highIsFirst).toBeLessThan(35);
    expect(goodWins / goodPulls).toBeGreaterThan(0.77);
    expect(goodWins / goodPulls).toBeLessThan(0.83);
    expect(badWins / badPulls).toBeGreaterThan(0.17);
    expect(badWins / badPulls).toBeLessThan(0.23);
  });
});

describe('Bandits: through the episode machine', () => {
  it('the 50-step horizon ends with Complete after exactly 50 steps; success is null', async () => {
    const actions = Array.from({ length: 80 }, (_, i) => PULLS[i % 2]);
    const { snapshot, output, context } = await playEpisode(bandits, T, actions, { seed: 4 });
    expect(snapshot.status).toBe('done');
    expect(context.history).toHaveLength(50);
    expect(output?.finishReason).toBe('Complete');
    expect(output?.steps).toBe(50);
    expect(output?.success).toBeNull();
    expect(output?.score).toBe(25);
    expect(context.history[49].truncated).toBe(true);
    expect(context.history.slice(0, 49).every((h) => !h.truncated && !h.terminated)).toBe(true);
    expect(context.initialObservation).toBe('A new round begins.');
  });

  it('49 steps do not end the episode', async () => {
    const { snapshot, context } = await playEpisode(bandits, T, Array(49).fill(PULL_1), { seed: 4 });
    expect(snapshot.status).toBe('active');
    expect(context.finishReason).toBeNull();
    expect(context.history).toHaveLength(49);
  });
});

describe('Bandits: the other registered variants', () => {
  const VARIANTS: [string, string, number[]][] = [
    ['bandits-deterministic', 'BanditTwoArmedDeterministicFixed-v0', [1, 0]],
    ['bandits-highhigh', 'BanditTwoArmedHighHighFixed-v0', [0.8, 0.9]],
    ['bandits-lowlow', 'BanditTwoArmedLowLowFixed-v0', [0.1, 0.2]],
  ];

  it('are registered with upstream names and the same manual; only HighLow is in benchmark v0', () => {
    expect(bandits.tasks().map((t) => [t.id, t.benchmarkV0])).toEqual([
      ['bandits-highlow', true],
      ['bandits-deterministic', false],
      ['bandits-highhigh', false],
      ['bandits-lowlow', false],
    ]);
    for (const [id, name] of VARIANTS) {
      const t = task(bandits, id);
      expect(t.name).toBe(name);
      expect(bandits.manual(t)).toBe(MANUAL);
      expect(bandits.maxSteps(t)).toBe(50);
    }
  });

  it('pay with their probabilities (payout 1, else -1), shuffled at reset; the optimal arm is the likelier one', () => {
    for (const [id, , p] of VARIANTS) {
      const t = task(bandits, id);
      const paid = [0, 0];
      const pulls = [0, 0];
      const orders = new Set<string>();
      for (let seed = 0; seed < 40; seed++) {
        const init = resetSync(bandits, t, seed);
        expect([...init.state.p].sort()).toEqual([...p].sort());
        orders.add(init.state.p.join());
        expect(init.state.p[init.state.optimal]).toBe(Math.max(...p));
        for (const arm of [0, 1]) {
          let state = init.state;
          for (let i = 0; i < 100; i++) {
            const s = stepSync(bandits, state, PULLS[arm]);
            const hi = init.state.p[arm] === Math.max(...p) ? 1 : 0;
            if (parsePull(s.observation).reward === 1) paid[hi]++;
            pulls[hi]++;
            state = s.state;
          }
        }
      }
      expect(orders.size).toBe(2);
      const [lo, hi] = [...p].sort((a, b) => a - b);
      expect(Math.abs(paid[1] / pulls[1] - hi)).toBeLessThan(0.03);
      expect(Math.abs(paid[0] / pulls[0] - lo)).toBeLessThan(0.03);
      if (id === 'bandits-deterministic') expect([paid[1] / pulls[1], paid[0] / pulls[0]]).toEqual([1, 0]);
    }
  });
});
