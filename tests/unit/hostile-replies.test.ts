/**
 * The hostile replies issue 16 names, each through its environment's own step (items 3, 8 and
 * 10): they are answered with a clear observation, never an exception, within the step bound
 * the fuzz suite holds every environment to (check-env.test.ts: 1 s here for the 100 ms
 * target, so a busy 2-core machine does not fail it; these replies took 3.5 s to 26 s before).
 * A step's time is the lesser of its wall and CPU time, as checkEnv counts it.
 */
import { describe, expect, it } from 'vitest';
import { babyai } from '../../envs/babyai/index.ts';
import { db, DB_TASKS } from '../../envs/db/index.ts';
import { pddl, TASKS as PDDL_TASKS } from '../../envs/pddl/index.ts';
import { hanoi } from '../../envs/hanoi/index.ts';
import { MEGABYTE } from '../../envs/core/fuzz-inputs.ts';
import { resetSync, runCli, stepSync } from './helpers.ts';

/** The bound asserted for one synchronous step (check-env.test.ts BOUNDS.maxStepMs). */
const STEP_BOUND_MS = 1000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms: Math.min(wall, (used.user + used.system) / 1000) };
}

describe('hostile replies through the environments', () => {
  it('BabyAI: answer(x + 100 kB of spaces + x) is refused at once (was 9.4 s)', () => {
    const { state } = resetSync(babyai, babyai.tasks()[0], 1);
    const { value, ms } = timed(() => stepSync(babyai, state, `answer(x${' '.repeat(100_000)}x)`));
    expect(value.valid).toBe(false);
    expect(value.observation).toMatch(/not recognized|not a valid action/i);
    expect(ms).toBeLessThan(STEP_BOUND_MS);
  });

  it('PDDL: a 1 MB reply is read up to its limit and says so (was 3.5 s)', () => {
    const task = PDDL_TASKS.find((t) => t.domain === 'gripper')!;
    const { state } = resetSync(pddl, task, 0);
    const action = pddl.validActions(state)[0];
    const { value, ms } = timed(() => stepSync(pddl, state, action + ' x'.repeat(MEGABYTE / 2)));
    expect(value.observation).toMatch(/only the first \d+ were read\.\)$/);
    expect(ms).toBeLessThan(STEP_BOUND_MS);
  });

  it('SmartPlay: 1 MB of case-changing Unicode before the action is matched (was 100–700 ms in toLowerCase)', () => {
    const { state } = resetSync(hanoi, hanoi.tasks()[0], 1);
    const action = hanoi.validActions(state)[1];
    const { value, ms } = timed(() => stepSync(hanoi, state, 'İßΣ\u200b😀\u0301'.repeat(150_000) + action));
    expect(value.valid).toBe(true);
    expect(ms).toBeLessThan(STEP_BOUND_MS);
  });

  it('DB: "Final Answer:" with 5,000 nested [ ends the episode as a wrong answer, no exception (was a RangeError)', async () => {
    const task = DB_TASKS.find((t) => t.id === 'db-dev-003')!;
    const init = await db.reset(task, 1);
    const step = await db.step(init.state, `Action: Answer\nFinal Answer: ${'['.repeat(5000)}`);
    expect(step).toMatchObject({ terminated: true, score: 0 });
    db.dispose?.(step.state);
  });

  it('DB through the CLI: the same reply ends Complete, not failed, and exits 0 with the outcome', () => {
    const r = runCli(['run', '--env', 'db', '--task', 'db-dev-003'], `${JSON.stringify(`Action: Answer\nFinal Answer: ${'['.repeat(5000)}`)}\n`);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out.trim().split('\n').at(-1)!)).toEqual({ score: 0, success: false, steps: 1, finishReason: 'Complete' });
  }, 60_000);
});
