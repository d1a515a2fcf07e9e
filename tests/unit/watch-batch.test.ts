/**
 * The Watch batch's runner (src/watch/batchRun.ts) and task sets (src/watch/taskSets.ts),
 * headless: every episode exactly once with never more than `concurrency` in flight, pause
 * holds every driver, a failing episode is an error while the rest carry on, stop leaves the
 * episodes in flight open; task sets follow the tasks' split and each benchmark's protocol.
 */
import { describe, expect, it } from 'vitest';
import { startEpisode } from '../../envs/core/runner.ts';
import { hanoi } from '../../envs/hanoi/index.ts';
import { getTask, loadEnv } from '../../envs/index.ts';
import { policyDriver, type Driver } from '../../runtime/drivers/driver.ts';
import { ModelError } from '../../runtime/models/types.ts';
import { BatchRun } from '../../src/watch/batchRun.ts';
import { batchJobs, taskSets, type BatchJob } from '../../src/watch/taskSets.ts';

const jobs = (n: number): BatchJob[] => Array.from({ length: n }, (_, k) => ({ taskId: k % 2 ? 'hanoi-4' : 'hanoi-3', taskName: '', seed: k }));

function headless(driverFor: (job: BatchJob) => Driver, n: number, concurrency: number, room: () => Promise<boolean> = async () => true) {
  let open = 0;
  let most = 0;
  const opened: string[] = [];
  const run = new BatchRun({
    jobs: jobs(n),
    concurrency,
    driverFor,
    open: async (job) => {
      const actor = startEpisode(hanoi, getTask(hanoi, job.taskId), { seed: job.seed });
      opened.push(`${job.taskId}/${job.seed}`);
      most = Math.max(most, ++open);
      return { actor, episodeId: `${job.taskId}/${job.seed}`, flushed: async () => undefined, room, dispose: () => (open--, actor.stop()) };
    },
  });
  return { run, opened, most: () => most };
}

const oracle = (delayMs = 0) => (job: BatchJob) => policyDriver('oracle', hanoi, getTask(hanoi, job.taskId), { delayMs });

describe('BatchRun', () => {
  it('plays every episode once with at most `concurrency` in flight', async () => {
    const { run, opened, most } = headless(oracle(1), 9, 3);
    await run.run();
    expect(opened.sort()).toEqual(jobs(9).map((j) => `${j.taskId}/${j.seed}`).sort());
    expect(most()).toBe(3);
    const p = run.progress();
    expect(p).toMatchObject({ total: 9, done: 9, errors: 0, stopped: 0, running: 0, over: true });
    expect(run.episodes.every((e) => e.output?.success === true && e.steps === e.output.steps)).toBe(true);
    expect(p.perMinute).toBeGreaterThan(0);
  });

  it("each driver waits for its recorder's room before every action", async () => {
    let open = false;
    const waiting: (() => void)[] = [];
    const room = () => (open ? Promise.resolve(true) : new Promise<boolean>((resolve) => waiting.push(() => resolve(true))));
    const { run } = headless(oracle(0), 2, 2, room);
    const done = run.run();
    await new Promise((r) => setTimeout(r, 50));
    expect(run.episodes.map((e) => e.steps)).toEqual([0, 0]); // the recorder has no room: no action is sent
    expect(waiting.length).toBe(2);
    open = true;
    for (const wake of waiting) wake();
    await done;
    expect(run.progress()).toMatchObject({ done: 2, errors: 0 });
  });

  it('a recorder that stopped ends its episode without further actions', async () => {
    const { run } = headless(oracle(0), 1, 1, async () => false);
    await run.run();
    expect(run.episodes[0].steps).toBe(0);
    expect(run.episodes[0].output).toBeUndefined();
  });

  it('pause holds every driver and starts nothing new; resume finishes the batch', async () => {
    const { run } = headless(oracle(5), 4, 2);
    const done = run.run();
    await new Promise((r) => setTimeout(r, 20));
    run.pause();
    await new Promise((r) => setTimeout(r, 30)); // a step already past the gate may land
    const held = run.episodes.map((e) => e.steps).join();
    await new Promise((r) => setTimeout(r, 150));
    expect(run.episodes.map((e) => e.steps).join()).toBe(held);
    expect(run.progress()).toMatchObject({ paused: true, over: false });
    run.resume();
    await done;
    expect(run.progress()).toMatchObject({ done: 4, over: true });
  });

  it('a failing episode is an error and the others carry on', async () => {
    const failing: Driver = { info: { kind: 'model', name: 'broken' }, run: async () => ({ stop: 'error', steps: 0, error: new ModelError('network', 'offline') }) };
    const { run } = headless((job) => (job.seed === 2 ? failing : oracle()(job)), 5, 2);
    await run.run();
    expect(run.progress()).toMatchObject({ done: 4, errors: 1 });
    expect(run.episodes[2]).toMatchObject({ status: 'error', note: expect.stringContaining('(network)') });
  });

  it('stop leaves the episodes in flight open and starts no more', async () => {
    const { run, opened } = headless(oracle(20), 6, 2);
    const done = run.run();
    await new Promise((r) => setTimeout(r, 50));
    run.stop();
    await done;
    expect(opened).toHaveLength(2);
    expect(run.progress()).toMatchObject({ done: 0, stopped: 2, over: true, stopping: true });
    expect(run.episodes.filter((e) => e.status === 'waiting')).toHaveLength(4);
  });
});

describe('task sets', () => {
  it('offer the splits the tasks carry, and play every task of an AgentBench set once', async () => {
    const os = await loadEnv('os');
    const sets = taskSets(os);
    expect(sets.map((s) => s.key)).toEqual(expect.arrayContaining(['all', 'split:dev', 'split:test']));
    const test = sets.find((s) => s.key === 'split:test')!;
    const planned = batchJobs(os, test, 0, null);
    expect(planned).toHaveLength(test.tasks.length);
    expect(new Set(planned.map((j) => j.taskId)).size).toBe(test.tasks.length);
  });

  it("repeat each SmartPlay game its recorded number of times, or the seeds asked for", () => {
    const all = taskSets(hanoi)[0];
    expect(batchJobs(hanoi, all, 5, null)).toHaveLength(20); // 10 + 10 (envs/core/README.md, "SmartPlay")
    const three = batchJobs(hanoi, all, 5, 3);
    expect(three.map((j) => `${j.taskId}/${j.seed}`)).toEqual(['hanoi-3/5', 'hanoi-3/6', 'hanoi-3/7', 'hanoi-4/5', 'hanoi-4/6', 'hanoi-4/7']);
  });
});
