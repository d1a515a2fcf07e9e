/**
 * Conformance of the Tower of Hanoi port with SmartPlay's Hanoi3Disk-v0 / Hanoi4Disk-v0
 * (envs/core/README.md "SmartPlay", envs/hanoi/README.md "Upstream"). Expected texts are written out
 * literally from upstream's source, not computed by the port.
 */
import { describe, expect, it } from 'vitest';
import { hanoi, hanoiSolution, type HanoiTask } from '../../envs/hanoi/index.ts';
import { loadEnv, getTask } from '../../envs/index.ts';
import { playEpisode, resetSync, rollout, stepSync, task } from './helpers.ts';

const H3: HanoiTask = task(hanoi, 'hanoi-3');
const H4: HanoiTask = task(hanoi, 'hanoi-4');

// Action strings, upstream order, no trailing period.
const A_TO_B = 'Move the top disk of rod A to the top of rod B';
const A_TO_C = 'Move the top disk of rod A to the top of rod C';
const B_TO_A = 'Move the top disk of rod B to the top of rod A';
const B_TO_C = 'Move the top disk of rod B to the top of rod C';
const C_TO_A = 'Move the top disk of rod C to the top of rod A';
const C_TO_B = 'Move the top disk of rod C to the top of rod B';
const ACTIONS = [A_TO_B, A_TO_C, B_TO_A, B_TO_C, C_TO_A, C_TO_B];

function manualFor(start: string): string {
  return [
    // The first two lines end with a space upstream.
    'The game consists of three rods (A,B,C) and a number of disks of various sizes, which can go onto any rod. ',
    'The game begins with the disks stacked on rod A in order of decreasing size, the smallest at the top (righthand side). ',
    'The objective is to move the entire stack to rod C, obeying the following rules:',
    '',
    ' - Only one disk may be moved at a time.',
    ' - Each move consists of taking the top disk from one of the stacks and placing it on top of another stack or on an empty rod.',
    ' - You cannot place a bigger disk on top of a smaller disk.',
    '',
    'For example, considering movements from B under the following setting:',
    '- A: |bottom, [0], top|',
    '- B: |bottom, [1], top|',
    '- C: |bottom, [2], top|',
    'You are only allowed to move from B to C but not A, since the top of B (1) is smaller than the top of C (2) but bigger than the top of A (0).',
    '',
    'Finally, the starting configuration is:',
    `- A: |bottom, ${start}, top|`,
    '- B: |bottom, [], top|',
    '- C: |bottom, [], top|',
    '',
    'and the goal configuration is:',
    '- A: |bottom, [], top|',
    '- B: |bottom, [], top|',
    `- C: |bottom, ${start}, top|`,
    'with top on the right and bottom on the left',
    '',
    'List of all actions:',
    '1. Move the top disk of rod A to the top of rod B',
    '2. Move the top disk of rod A to the top of rod C',
    '3. Move the top disk of rod B to the top of rod A',
    '4. Move the top disk of rod B to the top of rod C',
    '5. Move the top disk of rod C to the top of rod A',
    '6. Move the top disk of rod C to the top of rod B',
  ].join('\n');
}

const config = (a: string, b: string, c: string) => `- A: |bottom, ${a}, top|\n- B: |bottom, ${b}, top|\n- C: |bottom, ${c}, top|`;

describe('Hanoi: registration and settings', () => {
  it('is registered with both upstream tasks', async () => {
    expect(await loadEnv('hanoi')).toBe(hanoi);
    expect(getTask(hanoi, 'Hanoi3Disk-v0').id).toBe('hanoi-3');
    expect(getTask(hanoi, 'Hanoi4Disk-v0').id).toBe('hanoi-4');
    expect(H3.name).toBe('Hanoi3Disk-v0');
    expect(H4.name).toBe('Hanoi4Disk-v0');
  });

  it('uses the SmartPlay protocol with a 5-step history window and a 30-step limit', () => {
    expect(hanoi.suites).toEqual([{ suite: 'smartplay' }]);
    expect(hanoi.conversation('smartplay', hanoi.tasks()[0])).toEqual({ smartplay: { historyWindow: 5 } });
    expect(hanoi.maxSteps(H3)).toBe(30);
    expect(hanoi.limitKind).toBe('limit');
  });

  it('offers the six upstream action strings in order', () => {
    const init = resetSync(hanoi, H3, 0);
    expect(hanoi.validActions(init.state)).toEqual(ACTIONS);
  });
});

describe('Hanoi: manual', () => {
  it('is the exact 3-disk manual (start list [2, 1, 0])', () => {
    const m = hanoi.manual(H3);
    expect(m).toBe(manualFor('[2, 1, 0]'));
    // The two trailing spaces are really there.
    expect(m.split('\n')[0].endsWith('any rod. ')).toBe(true);
    expect(m.split('\n')[1].endsWith('(righthand side). ')).toBe(true);
    // Upstream .strip()s the whole text.
    expect(m).toBe(m.trim());
  });

  it('is the exact 4-disk manual (start list [3, 2, 1, 0])', () => {
    expect(hanoi.manual(H4)).toBe(manualFor('[3, 2, 1, 0]'));
  });
});

describe('Hanoi: reset', () => {
  it('3 disks start on rod A', () => {
    const init = resetSync(hanoi, H3, 0);
    expect(init.observation).toBe('Current configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|');
    expect(init.score).toBe(0);
    expect(hanoi.success(init.state)).toBe(false);
  });

  it('4 disks start on rod A', () => {
    const init = resetSync(hanoi, H4, 0);
    expect(init.observation).toBe('Current configuration:\n- A: |bottom, [3, 2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|');
    expect(init.score).toBe(0);
  });
});

describe('Hanoi: steps', () => {
  it('a legal move: lowercased "rod a" observation, reward 0, valid', () => {
    const { steps } = rollout(hanoi, H3, 0, [A_TO_C]);
    const s = steps[0];
    expect(s.observation).toBe(
      'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n' +
        '- A: |bottom, [2, 1], top|\n- B: |bottom, [], top|\n- C: |bottom, [0], top|',
    );
    expect(s.reward).toBe(0);
    expect(s.valid).toBe(true);
    expect(s.terminated).toBe(false);
    expect(s.truncated).toBe(false);
    expect(s.score).toBe(1);
  });

  it('an illegal move from an empty rod: reward -1, state unchanged, valid false, same observation format', () => {
    const init = resetSync(hanoi, H3, 0);
    const s = stepSync(hanoi, init.state, B_TO_A);
    expect(s.observation).toBe(
      'You tried to move the top disk of rod b to the top of rod a. Current configuration:\n' +
        '- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|',
    );
    expect(s.reward).toBe(-1);
    expect(s.valid).toBe(false);
    expect(s.terminated).toBe(false);
    expect(s.score).toBe(0);
    expect(s.state).toEqual(init.state);
  });

  it('an illegal move putting a bigger disk on a smaller one: reward -1, state unchanged', () => {
    const { steps } = rollout(hanoi, H3, 0, [A_TO_C, A_TO_C]);
    const [first, second] = steps;
    expect(second.reward).toBe(-1);
    expect(second.valid).toBe(false);
    expect(second.state).toEqual(first.state);
    expect(second.score).toBe(1);
    expect(second.observation).toBe(
      'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n' +
        '- A: |bottom, [2, 1], top|\n- B: |bottom, [], top|\n- C: |bottom, [0], top|',
    );
  });

  it('a smaller disk may go on a bigger one', () => {
    // A->C (0 on C), A->B (1 on B), C->B (0 onto 1): legal.
    const { steps } = rollout(hanoi, H3, 0, [A_TO_C, A_TO_B, C_TO_B]);
    expect(steps.map((s) => s.reward)).toEqual([0, 0, 0]);
    expect(steps.map((s) => s.valid)).toEqual([true, true, true]);
    expect(steps[2].observation).toBe(
      'You tried to move the top disk of rod c to the top of rod b. Current configuration:\n' +
        '- A: |bottom, [2], top|\n- B: |bottom, [1, 0], top|\n- C: |bottom, [], top|',
    );
  });

  it('text that names no action plays action 0 (A to B) and is marked invalid', () => {
    const init = resetSync(hanoi, H3, 0);
    const s = stepSync(hanoi, init.state, 'I have no idea');
    expect(s.observation).toBe(
      'You tried to move the top disk of rod a to the top of rod b. Current configuration:\n' +
        '- A: |bottom, [2, 1], top|\n- B: |bottom, [0], top|\n- C: |bottom, [], top|',
    );
    expect(s.valid).toBe(false);
    // The move itself was legal upstream (action 0 from the start), so no penalty.
    expect(s.reward).toBe(0);
  });

  it('the action text is matched inside a longer reply, case-insensitively', () => {
    const init = resetSync(hanoi, H3, 0);
    const s = stepSync(hanoi, init.state, 'I will MOVE THE TOP DISK OF ROD A TO THE TOP OF ROD C.');
    expect(s.valid).toBe(true);
    expect(s.score).toBe(1);
  });
});

describe('Hanoi: solving', () => {
  it('hanoiSolution(3) is the 7-move optimal sequence', () => {
    // A->C, A->B, C->B, A->C, B->A, B->C, A->C as action indices.
    expect(hanoiSolution(3)).toEqual([1, 0, 5, 1, 2, 3, 1]);
    expect(hanoiSolution(4)).toHaveLength(15);
  });

  it('score = disks on rod C after each step, with the exact configurations', () => {
    const plan = [A_TO_C, A_TO_B, C_TO_B, A_TO_C, B_TO_A, B_TO_C, A_TO_C];
    const { steps } = rollout(hanoi, H3, 0, plan);
    expect(steps.map((s) => s.score)).toEqual([1, 1, 0, 1, 1, 2, 3]);
    expect(steps.map((s) => s.observation.slice(s.observation.indexOf('\n') + 1))).toEqual([
      config('[2, 1]', '[]', '[0]'),
      config('[2]', '[1]', '[0]'),
      config('[2]', '[1, 0]', '[]'),
      config('[]', '[1, 0]', '[2]'),
      config('[0]', '[1]', '[2]'),
      config('[0]', '[]', '[2, 1]'),
      config('[]', '[]', '[2, 1, 0]'),
    ]);
    expect(steps.map((s) => s.reward)).toEqual([0, 0, 0, 0, 0, 0, 100]);
    expect(steps.map((s) => s.terminated)).toEqual([false, false, false, false, false, false, true]);
  });

  it('the solving step gives reward 100, terminated, valid, score 3 and success', () => {
    const { steps, state } = rollout(
      hanoi,
      H3,
      0,
      hanoiSolution(3).map((i) => ACTIONS[i]),
    );
    const last = steps[steps.length - 1];
    expect(last.reward).toBe(100);
    expect(last.terminated).toBe(true);
    expect(last.valid).toBe(true);
    expect(last.score).toBe(3);
    expect(last.observation).toBe(
      'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n' +
        '- A: |bottom, [], top|\n- B: |bottom, [], top|\n- C: |bottom, [2, 1, 0], top|',
    );
    expect(hanoi.success(state)).toBe(true);
  });

  it('the score is the disk count on rod C after every step of the 4-disk solution', () => {
    const plan = hanoiSolution(4).map((i) => ACTIONS[i]);
    const { steps } = rollout(hanoi, H4, 0, plan);
    for (const s of steps) {
      const rodC = s.observation.split('\n')[3];
      expect(rodC.startsWith('- C: |bottom, [')).toBe(true);
      const inside = rodC.slice('- C: |bottom, ['.length, rodC.indexOf(']'));
      const count = inside === '' ? 0 : inside.split(', ').length;
      expect(s.score).toBe(count);
      expect(s.reward).toBe(s.terminated ? 100 : 0);
    }
    expect(steps[14].score).toBe(4);
    expect(steps[14].terminated).toBe(true);
  });
});

describe('Hanoi: through the episode machine', () => {
  it('3 disks solved in 7 moves: Complete, success, score 3', async () => {
    const plan = hanoiSolution(3).map((i) => ACTIONS[i]);
    const { snapshot, output, context } = await playEpisode(hanoi, H3, plan, { seed: 1 });
    expect(snapshot.status).toBe('done');
    expect(output).toEqual({ score: 3, success: true, steps: 7, finishReason: 'Complete' });
    expect(context.history).toHaveLength(7);
    expect(context.history[6].terminated).toBe(true);
    expect(context.history[6].truncated).toBe(false);
    expect(context.history[6].reward).toBe(100);
    expect(context.initialObservation).toBe('Current configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|');
  });

  it('30 non-solving steps: Task Limit Exceeded, the last step truncated', async () => {
    const plan = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? A_TO_B : B_TO_A));
    const { snapshot, output, context } = await playEpisode(hanoi, H3, plan, { seed: 1 });
    expect(snapshot.status).toBe('done');
    expect(output).toEqual({ score: 0, success: false, steps: 30, finishReason: 'Task Limit Exceeded' });
    expect(context.history).toHaveLength(30);
    expect(context.history[29].truncated).toBe(true);
    expect(context.history.slice(0, 29).every((h) => !h.truncated)).toBe(true);
    expect(context.history.every((h) => !h.terminated)).toBe(true);
  });

  it('solving on the 30th step still counts as Complete', async () => {
    // 22 legal back-and-forth moves end at the start; then one illegal move (rod B is empty); then the 7-move solution.
    const wander = Array.from({ length: 22 }, (_, i) => (i % 2 === 0 ? A_TO_B : B_TO_A));
    const plan = [...wander, B_TO_A, ...hanoiSolution(3).map((i) => ACTIONS[i])];
    expect(plan).toHaveLength(30);
    const { output, context } = await playEpisode(hanoi, H3, plan, { seed: 1 });
    expect(output).toEqual({ score: 3, success: true, steps: 30, finishReason: 'Complete' });
    expect(context.history[29].terminated).toBe(true);
  });

  it('Hanoi4Disk solved in 15 moves', async () => {
    const plan = hanoiSolution(4).map((i) => ACTIONS[i]);
    expect(plan).toHaveLength(15);
    const { output, context } = await playEpisode(hanoi, H4, plan, { seed: 7 });
    expect(output).toEqual({ score: 4, success: true, steps: 15, finishReason: 'Complete' });
    // With an even number of disks the last move of the optimal solution is B to C.
    expect(context.observation).toBe(
      'You tried to move the top disk of rod b to the top of rod c. Current configuration:\n' +
        '- A: |bottom, [], top|\n- B: |bottom, [], top|\n- C: |bottom, [3, 2, 1, 0], top|',
    );
  });
});
