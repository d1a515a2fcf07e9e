/**
 * The scripted drivers on every environment of the catalogue: the random driver always
 * brings the episode to an end (or, where the environment has no enumerable action set,
 * as the DB, says so at once), and the oracle's results are the ceiling lines.
 */
import { describe, expect, it } from 'vitest';
import { entries, loadEnv } from '../../envs/index.ts';
import { startEpisode } from '../../envs/core/runner.ts';
import { runScriptedDriver } from '../../runtime/drivers/index.ts';

async function play(envId: string, kind: 'random' | 'oracle', limit = Infinity) {
  const env = await loadEnv(envId);
  const results: { task: string; stop: string; success: boolean | null | undefined; score: number | undefined }[] = [];
  for (const task of env.tasks().slice(0, limit)) {
    const actor = startEpisode(env, task, { seed: 3 });
    const result = await runScriptedDriver({ actor, env, task, kind, seed: 3 });
    const snap = actor.getSnapshot();
    if (snap.status === 'active') actor.send({ type: 'GIVE_UP' });
    results.push({ task: task.id, stop: result.stop, success: actor.getSnapshot().output?.success, score: actor.getSnapshot().output?.score });
  }
  return results;
}

describe('random driver finishes the tasks of every environment', () => {
  for (const entry of entries()) {
    it(entry.id, { timeout: 120_000 }, async () => {
      const env = await loadEnv(entry.id);
      const task = env.tasks()[0];
      const first = await env.reset(task, 3);
      const enumerable = env.validActions(first.state).length > 0;
      env.dispose?.(first.state);
      const results = await play(entry.id, 'random', 12);
      // Without an action set the random player has nothing to pick from and says so at once.
      expect(results.filter((r) => r.stop !== (enumerable ? 'finished' : 'no-action'))).toEqual([]);
    });
  }
});

describe('oracle driver', () => {
  it('SmartPlay: Hanoi solved in 2^n - 1 moves, Bandits and RPS 50/50', async () => {
    expect((await play('hanoi', 'oracle')).map((r) => [r.task, r.success, r.score])).toEqual([
      ['hanoi-3', true, 3],
      ['hanoi-4', true, 4],
    ]);
    expect((await play('bandits', 'oracle')).map((r) => r.score)).toEqual([50, 50, 50, 50]);
    expect((await play('rps', 'oracle')).map((r) => r.score)).toEqual([50, 50]);
  });

  it('OS: the dev tasks are solved by their example scripts, except the one upstream cannot judge', { timeout: 120_000 }, async () => {
    const env = await loadEnv('os');
    const dev = env.tasks().filter((t) => t.split === 'dev');
    expect(dev).toHaveLength(26);
    const results = await play('os', 'oracle', dev.length);
    const unsolvable = dev.filter((t) => (t as { unsolvable?: string }).unsolvable).map((t) => t.id);
    expect(unsolvable).toEqual(['os-dev-08']);
    expect(results.filter((r) => r.success !== true).map((r) => r.task)).toEqual(unsolvable);
  });

  it('BabyAI: the oracle solves at least 105 of the 112 problems within 30 turns', { timeout: 120_000 }, async () => {
    const results = await play('babyai', 'oracle');
    const solved = results.filter((r) => r.success === true).length;
    expect(solved).toBeGreaterThanOrEqual(105);
  });
});
