/**
 * /dev/urandom and /dev/random give new bytes on every read, as Linux's do (random(4); upstream's
 * tasks run in a real ubuntu container; `npm run test:linux` checks the same reads in real Debian), yet
 * stay deterministic: the episode's seed and commands give the same bytes, and reading them
 * changes nothing else (the seed's mktemp names, the devices' mode and times).
 */
import { describe, expect, it } from 'vitest';
import { createOsEnv, OS_TEST_TASKS } from '../../envs/os/index.ts';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

const READS = [
  'head -c 12 /dev/urandom | base64',
  'head -c 12 /dev/urandom | base64',
  "cat /dev/urandom | tr -cd '[:alnum:]' | head -c 20; echo",
  "tr -dc a-z < /dev/urandom | head -c 20; echo",
  'head -c 12 /dev/random | base64',
];

async function outputs(seed: number, commands: string[]): Promise<string[]> {
  const sh = await createEmbeddedShell({ seed });
  const out: string[] = [];
  for (const c of commands) out.push((await sh.exec(c)).output);
  sh.dispose();
  return out;
}

describe('os: random devices', () => {
  it('every read gives new bytes, the same ones for the same seed', async () => {
    const first = await outputs(11, READS);
    expect(new Set(first).size).toBe(READS.length);
    expect(first[0]).toMatch(/^[A-Za-z0-9+/]{16}\n$/);
    expect(first[2]).toMatch(/^[A-Za-z0-9]{20}\n$/);
    expect(first[3]).toMatch(/^[a-z]{20}\n$/);
    expect(await outputs(11, READS)).toEqual(first);
    expect((await outputs(12, READS))[1]).not.toBe(first[1]);
  });

  it('reading them leaves the seed\'s mktemp names and the devices\' mode, size and times as they were', async () => {
    const look = 'mktemp; ls -l --time-style=+%s /dev/urandom /dev/random; stat -c "%a %s %Y" /dev/urandom';
    const [plain] = await outputs(5, [look]);
    const [, , afterReads] = await outputs(5, ['head -c 4 /dev/urandom >/dev/null', 'dd if=/dev/urandom of=/tmp/r bs=1K count=3 status=none', look]);
    expect(afterReads).toBe(plain);
    expect(plain).toMatch(/crw|rw-rw-rw-/);
  });

  it("the bootstrap task's files of random letters differ from one another, as in upstream's container", async () => {
    const env = createOsEnv();
    const task = OS_TEST_TASKS.find((t) => t.id === 'os-test-7-bootstrap-25')!;
    const { state } = await env.reset(task, 3);
    expect(await state.setup).toBeFalsy();
    const listing = await state.shell.exec('cd /test_directory 2>/dev/null || cd ~/test_directory; for f in */*; do cut -c1-8 "$f"; done');
    env.dispose!(state);
    const starts = listing.output.split('\n').filter(Boolean);
    expect(starts.length).toBeGreaterThanOrEqual(12);
    expect(new Set(starts).size).toBe(starts.length);
  }, 60_000);
});
