/**
 * A CPU-bound loop without sleep is stopped by a count of work (commands, loop rounds), not
 * by the wall clock, so it stops at the same point on any machine and resume does not diverge
 * (the wall-clock limit stays as the backstop). Through the episode machine, as a resume does.
 */
import { describe, expect, it } from 'vitest';
import { createOsEnv, OS_TASKS } from '../../envs/os/index.ts';
import { playActions, startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { EPISODE_WORK } from '../../envs/os/embedded/index.ts';

const bash = (script: string) => `Think: look.\n\nAct: bash\n\n\`\`\`bash\n${script}\n\`\`\``;

/**
 * The wall-clock limit is set far off here: it is the backstop, and on a loaded machine it could
 * otherwise come first (this machine ran 0.3 to 3 ms a loop round); what is tested is that the
 * count of work stops the loop, at the same point, however long that takes.
 */
async function play(seed: number, actions: string[]): Promise<string[]> {
  const env = createOsEnv({ commandTimeoutMs: 30_000 });
  const actor = startEpisode(env, OS_TASKS[6], { seed });
  await whenIdle(actor);
  await playActions(actor, actions);
  const { history } = actor.getSnapshot().context;
  actor.stop();
  return history.map((h) => h.observation);
}

describe('os: a runaway loop stops at the same point on any machine', () => {
  it('while true; do echo x >> f; done leaves the same number of lines in two fresh sessions', async () => {
    const actions = [bash('rm -f /root/f; while true; do echo x >> /root/f; done'), bash('wc -l < /root/f')];
    const t0 = performance.now();
    const first = await play(5, actions);
    console.log(`a fresh episode and the runaway loop stopped by the work count: ${(performance.now() - t0).toFixed(0)} ms`);
    const second = await play(5, actions);
    expect(second).toEqual(first);
    expect(first[0]).toBe(`The output of the OS:\n\n[The command was stopped: too many commands executed (>${EPISODE_WORK}) (a limit of this simulated shell).]\n`);
    const lines = Number(/\d+/.exec(first[1])![0]);
    expect(lines).toBeGreaterThan(400); // about 1000 commands: two a round (true, echo)
    expect(lines).toBeLessThan(EPISODE_WORK / 2 + 1);
  }, 120_000);
});
