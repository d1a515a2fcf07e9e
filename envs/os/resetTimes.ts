/**
 * OS reset timing shared by the Node bench (bench.ts) and the in-browser one (ui.ts): to the
 * first observation (what the agent waits for: the task's init goes on meanwhile) and until the
 * init and start scripts have ended (what a first command sent at once waits for).
 */
import type { EnvDefinition } from '../core/types.ts';
import { quantile } from '../core/stats.ts';
import type { OsState } from './index.ts';
import type { OsTask } from './tasks.ts';

/** The test set's slowest inits: upstream's 401-round stock-log script, 372 touches named by two printf each, and 64 KiB of /dev/urandom through tr per file. */
export const SLOW_TEST_TASKS = ['os-test-1-stock-00', 'os-test-7-bootstrap-24', 'os-test-7-bootstrap-25'] as const;

/**
 * Medians over resets of `task` (a new seed each) for about `seconds`, and at least `runs` of them.
 * `aheadMs`: the episode is prepared that long before its reset (env.prepare: a pointer resting on
 * the task's Play link, a study's next task), and the times count from the reset. `pauseMs`: the
 * time between one episode's end and the next reset (a person choosing the next task; none: back to back).
 */
export async function resetTimes(env: EnvDefinition<OsState, OsTask>, task: OsTask, { seconds = 0, runs = 3, aheadMs, pauseMs = 0 }: { seconds?: number; runs?: number; aheadMs?: number; pauseMs?: number } = {}): Promise<{ observation: number; setUp: number }> {
  const observation: number[] = [];
  const setUp: number[] = [];
  const start = performance.now();
  while (performance.now() - start < seconds * 1000 || setUp.length < runs) {
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    if (aheadMs !== undefined) {
      env.prepare!(task, setUp.length);
      await new Promise((r) => setTimeout(r, aheadMs));
    }
    const t0 = performance.now();
    const init = await env.reset(task, setUp.length);
    observation.push(performance.now() - t0);
    const problem = await init.state.setup;
    if (problem) throw new Error(`${task.id}: ${problem}`);
    setUp.push(performance.now() - t0);
    env.dispose!(init.state);
  }
  return { observation: quantile(observation, 0.5), setUp: quantile(setUp, 0.5) };
}
