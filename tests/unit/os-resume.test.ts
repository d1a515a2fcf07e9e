/**
 * Resuming an OS episode replays its actions into a fresh shell (issue 16 item 7: $RANDOM,
 * `date` and a background writer made 3 of 5 observations differ on resume). Through the
 * episode machine, as the browser's resume does: the same seed and actions give the same
 * observations however much later and slower the replay runs, a shell writer loop included
 * (it was stopped by the wall-clock limit after as many rounds as the machine managed).
 */
import { describe, expect, it } from 'vitest';
import { createOsEnv, OS_TASKS } from '../../envs/os/index.ts';
import { playActions, startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { sleep } from './helpers.ts';

const bash = (script: string) => `Think: look.\n\nAct: bash\n\n\`\`\`bash\n${script}\n\`\`\``;

const ACTIONS = [
  bash('echo $RANDOM $RANDOM; mktemp'),
  bash('date; date +%s%N | cut -c1-13'),
  bash("(while true; do date +%s >> /root/clock; sleep 3; done) &\necho started"),
  bash('sleep 10; wc -l < /root/clock; tail -1 /root/clock'),
  bash('touch /root/f; stat -c %Y /root/f; ls -l --time-style=+%s /root | tail -2 | cut -d" " -f6-'),
];

async function observations(seed: number, pauseMs: number): Promise<string[]> {
  const env = createOsEnv();
  const task = OS_TASKS[6];
  const actor = startEpisode(env, task, { seed });
  await whenIdle(actor);
  await playActions(actor, (async function* () {
    for (const a of ACTIONS) {
      await sleep(pauseMs);
      yield a;
    }
  })());
  const { history } = actor.getSnapshot().context;
  actor.stop();
  return history.map((h) => h.observation);
}

describe('os: resume replays to the same observations', () => {
  it('five steps with $RANDOM, mktemp, date, a background writer and file times', async () => {
    const played = await observations(11, 0);
    const resumed = await observations(11, 300); // later, and slower, as a resume after a reload is
    expect(played).toHaveLength(ACTIONS.length);
    expect(resumed).toEqual(played);
    // The writer loop cannot go to the background here: it runs until it has slept 30 s (ten
    // rounds of sleep 3, and one more line), stopped at the same point on any machine.
    expect(played[2]).toBe('The output of the OS:\n\n[The command was stopped: it slept 30 s in all, the longest this simulated shell waits for a command.]\n');
    expect(played[3]).toMatch(/^The output of the OS:\n\n11\n\d{10}\n$/);
  }, 120_000);
});
