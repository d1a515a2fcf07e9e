/**
 * The OS is deterministic (issue 16 item 7): $RANDOM, mktemp names, /dev/urandom and the clock
 * (date, file times, background writers) come from the episode seed and a virtual clock that
 * moves a fixed step per command and by what `sleep` skips, never from the real time, so the
 * same seed and actions give the same observations however long apart they are played.
 */
import { describe, expect, it, vi } from 'vitest';
import { createOsEnv, OS_TEST_TASKS } from '../../envs/os/index.ts';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

const COMMANDS = [
  'echo $RANDOM $RANDOM; echo $((RANDOM % 100))',
  'mktemp; mktemp -d',
  'date; date +%s',
  'touch /root/f; ls -l --time-style=+%s /root/f | cut -d" " -f1-5; stat -c %Y /root/f',
  'head -c 12 /dev/urandom | od -An -tx1',
  "python3 -c 'import time\nwhile True:\n\twith open(\"/root/log\", \"a+\") as f:\n\t\tf.write(\"x\")\n\ttime.sleep(2)' &",
  'sleep 7; wc -c < /root/log; date +%T',
  'shuf -i 1-100 -n 3 | tr "\\n" " "',
];

async function play(seed: number, delayMs = 0): Promise<string[]> {
  const sh = await createEmbeddedShell({ seed });
  const outputs: string[] = [];
  for (const c of COMMANDS) {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    outputs.push((await sh.exec(c)).output);
  }
  return outputs;
}

describe('os: determinism', () => {
  it('the same seed and commands give the same outputs, even played later', async () => {
    const first = await play(42);
    const again = await play(42, 15);
    expect(again).toEqual(first);
    expect(first[0]).toMatch(/^\d+ \d+\n\d+\n$/);
    expect(first[1]).toMatch(/^\/tmp\/tmp\.\w{10}\n\/tmp\/tmp\.\w{10}\n$/);
    const other = await play(43);
    expect(other[0]).not.toBe(first[0]);
    expect(other[1]).not.toBe(first[1]);
    expect(other[2]).not.toBe(first[2]);
  });

  it('the clock starts at a seeded date and moves one step per command plus sleeps', async () => {
    const sh = await createEmbeddedShell({ seed: 5 });
    const t0 = Number((await sh.exec('date +%s')).output);
    const t1 = Number((await sh.exec('date +%s')).output);
    const t2 = Number((await sh.exec('sleep 30; date +%s')).output);
    expect(new Date(t0 * 1000).getUTCFullYear()).toBe(2024);
    expect(t1 - t0).toBe(1);
    expect(t2 - t1).toBe(31);
  });

  it('a test task with $RANDOM in its init (stock log) gives the same file for the same seed', async () => {
    const env = createOsEnv();
    const task = OS_TEST_TASKS.find((t) => t.id === 'os-test-1-stock-00')!;
    const read = async (seed: number) => {
      const { state } = await env.reset(task, seed);
      const text = await state.shell.readFile('/usr/stock.log');
      env.dispose!(state);
      return text;
    };
    const a = await read(7);
    expect(a?.split('\n').filter(Boolean)).toHaveLength(401);
    expect(await read(7)).toBe(a);
    expect(await read(8)).not.toBe(a);
  }, 60_000);

  it('an episode made ahead (prepare: its shell and init started before the reset) is the one a reset alone gives', async () => {
    let made = 0;
    let closed = 0;
    const env = createOsEnv({
      shellFactory: async (o) => {
        made++;
        const shell = await createEmbeddedShell(o);
        const close = shell.dispose.bind(shell);
        shell.dispose = () => (closed++, close());
        return shell;
      },
    });
    const task = OS_TEST_TASKS.find((t) => t.id === 'os-test-1-stock-00')!;
    const play = async (seed: number) => {
      const { state } = await env.reset(task, seed);
      const outputs = [await state.shell.readFile('/usr/stock.log')];
      let s = state;
      for (const c of ['tail -n 2 /usr/stock.log; date +%s', 'echo $RANDOM; ls -l --time-style=+%s /usr/stock.log | cut -d" " -f5-6']) {
        const step = await env.step(s, `Act: bash\n\n\`\`\`bash\n${c}\n\`\`\``);
        outputs.push(step.observation);
        s = step.state;
      }
      env.dispose!(s);
      return outputs;
    };
    const alone = await play(7);
    expect(made).toBe(1);
    env.prepare!(task, 7);
    await new Promise((r) => setTimeout(r, 300)); // a person's pointer on Play: the init runs meanwhile
    expect(made).toBe(2);
    expect(await play(7)).toEqual(alone);
    expect(made).toBe(2); // the reset took the shell made ahead
    // Made ahead for another seed, then not taken: the reset makes its own and the other is closed.
    env.prepare!(task, 8);
    const closedBefore = closed;
    expect(await play(7)).toEqual(alone);
    expect(made).toBe(4);
    await vi.waitFor(() => expect(closed).toBe(closedBefore + 2)); // the one made ahead for seed 8, and the episode's own
  }, 60_000);
});
