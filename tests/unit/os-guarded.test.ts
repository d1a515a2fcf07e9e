/**
 * A hard deadline from outside the engine (issue 16 item 2): the embedded shell runs in a
 * worker; a command just-bash cannot interrupt is ended by terminating the worker at its limit
 * plus a grace period, and the session goes on with the state of every earlier command (replayed
 * into a new worker). The same holds for a cancelled step and for a worker that dies at its heap
 * limit. Node worker_threads here; the browser uses browserWorkerPort the same way
 * (tests/e2e/runaway.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { GuardedShell } from '../../envs/os/embedded/guarded.ts';
import { nodeWorkerPort } from '../../envs/os/embedded/node-worker.ts';
import { createOsEnv, OS_TASKS } from '../../envs/os/index.ts';

/**
 * One synchronous string operation in the shell's python (10-17 s and ~1.9 GB in-thread on this machine): the
 * shell's own time limit is checked only between commands, so nothing inside the engine can stop it; `kills`
 * below shows it was the outside kill that did.
 */
const RUNAWAY = `python3 -c "print(len(('ab'*4000000).replace('a','a'*20)))"`;

describe('os: the guarded (worker) shell', () => {
  it('ends a runaway from outside and keeps the session', async () => {
    const sh = new GuardedShell({ seed: 3, spawn: nodeWorkerPort, graceMs: 300 });
    try {
      expect((await sh.exec('x=5; cd /tmp; echo hi > /root/f; echo ok')).output).toBe('ok\n');
      const start = performance.now();
      const runaway = await sh.exec(RUNAWAY, { timeoutMs: 200 });
      console.log(`runaway ended after ${(performance.now() - start).toFixed(0)} ms (limit 200 ms + 300 ms grace)`);
      expect(sh.kills).toBe(1);
      expect(runaway).toMatchObject({ timedOut: true, exitCode: 124 });
      expect(runaway.output).toMatch(/^\[The command was stopped: it ran longer than 0\.5 s and was ended from outside the shell/);
      expect((await sh.exec('echo $x; pwd; cat /root/f')).output).toBe('5\n/tmp\nhi\n');
      expect(await sh.readFile('/root/f')).toBe('hi\n');
    } finally {
      sh.dispose();
    }
  }, 60_000);

  it('a cancelled command is ended the same way and leaves nothing behind', async () => {
    const sh = new GuardedShell({ seed: 3, spawn: nodeWorkerPort });
    try {
      await sh.exec('echo one > /root/f');
      const controller = new AbortController();
      const running = sh.exec(`echo two > /root/f; ${RUNAWAY}`, { signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      expect(await running).toMatchObject({ timedOut: true, exitCode: 130 });
      expect((await running).output).toMatch(/it was cancelled/);
      expect(sh.kills).toBe(1);
      // The cancelled command is not replayed: its write is gone with its worker.
      expect((await sh.exec('cat /root/f')).output).toBe('one\n');
    } finally {
      sh.dispose();
    }
  }, 60_000);

  it('a worker past its heap limit is ended by Node; the command reads as at its deadline (as in the browser, whose workers have no heap bound) and the session goes on', async () => {
    const sh = new GuardedShell({ seed: 3, spawn: () => nodeWorkerPort(128), commandTimeoutMs: 30_000 });
    try {
      await sh.exec('echo kept > /root/f');
      const start = performance.now();
      const r = await sh.exec(RUNAWAY);
      expect(performance.now() - start).toBeLessThan(30_000); // the heap bound ended it, not the deadline
      expect(r).toMatchObject({ timedOut: true, exitCode: 124 });
      expect(r.output).toMatch(/^\[The command was stopped: it ran longer than 30\.5 s and was ended from outside the shell; files it changed are as before it\.\]\n$/);
      expect((await sh.exec('cat /root/f')).output).toBe('kept\n');
    } finally {
      sh.dispose();
    }
  }, 60_000);

  it('plays a task through the environment', async () => {
    const env = createOsEnv({ shellFactory: async ({ seed }) => new GuardedShell({ seed, spawn: nodeWorkerPort }) });
    const task = OS_TASKS[13];
    let { state } = await env.reset(task, 1);
    state = (await env.step(state, 'Act: bash\n\n```bash\nnproc\n```')).state;
    const done = await env.step(state, 'Act: answer(4)');
    expect(done.score).toBe(1);
    env.dispose!(done.state);
  }, 60_000);
});
