/**
 * Crafter's states are values (envs/crafter/state.ts): stepping one state twice, or an earlier
 * state after a later one, gives what a fresh replay from the seed gives, and leaves every other
 * state as it was (the contract's checker and a replay's "take over" both branch this way).
 */
import { describe, expect, it } from 'vitest';
import { crafter, CRAFTER_ACTIONS, type CrafterState } from '../../envs/crafter/index.ts';
import type { Step } from '../../envs/core/types.ts';
import { resetSync, rollout, task } from './helpers.ts';

const T = task(crafter, 'crafter');
const step = (s: CrafterState, a: string) => crafter.step(s, a) as Step<CrafterState>;
const plan = Array.from({ length: 60 }, (_, i) => CRAFTER_ACTIONS[(i * 5 + 2) % CRAFTER_ACTIONS.length]);

describe('Crafter states', () => {
  it('branching at any earlier state agrees with a fresh replay, and the first line goes on unchanged', () => {
    const states: CrafterState[] = [resetSync(crafter, T, 9).state];
    for (const a of plan) states.push(step(states.at(-1)!, a).state);
    // Branch at step 30 with another action, then carry on along the first line.
    const branch = step(states[30], 'Sleep');
    expect(branch.observation).toBe(rollout(crafter, T, 9, [...plan.slice(0, 30), 'Sleep']).steps.at(-1)!.observation);
    const onFirst = step(states[60], 'Do');
    expect(onFirst.observation).toBe(rollout(crafter, T, 9, [...plan, 'Do']).steps.at(-1)!.observation);
    // The branch goes on as its own line.
    expect(step(branch.state, 'Noop').observation).toBe(rollout(crafter, T, 9, [...plan.slice(0, 30), 'Sleep', 'Noop']).steps.at(-1)!.observation);
    // Stepping one state twice gives the same step twice.
    const again = [step(states[45], 'Move West'), step(states[45], 'Move West')];
    expect(again[0].observation).toBe(again[1].observation);
    expect(again[0].score).toBe(again[1].score);
  });
});
