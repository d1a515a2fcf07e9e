/**
 * When a shell worker warms up (envs/os/embedded/worker-serve.ts): a spare while it waits; a worker
 * asked for a shell at once (a page opened on an OS task) after the shell and the task's init, once
 * idle; first when the request says so (a restart after a kill). Never beside a request.
 */
import { describe, expect, it } from 'vitest';
import { serveShell, WARM_STEPS, type WarmUp } from '../../envs/os/embedded/worker-serve.ts';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';
import type { WorkerReply, WorkerRequest } from '../../envs/os/embedded/worker-protocol.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A worker's request handler with a warm-up that takes 60 ms (or `warm`); `events` lists what happened, in order. */
function worker(options: { warmBeforeShell?: boolean; warm?: (events: string[]) => WarmUp } = {}) {
  const events: string[] = [];
  const outputs = new Map<number, string>();
  const replies = new Map<number, () => void>();
  const accept = serveShell(
    (reply: WorkerReply) => {
      events.push(`reply ${reply.id}${reply.ok ? '' : ` failed: ${reply.error}`}`);
      if (reply.ok && typeof reply.result === 'object' && reply.result) outputs.set(reply.id, reply.result.output);
      replies.get(reply.id)?.();
    },
    {
      warmBeforeShell: options.warmBeforeShell,
      warm:
        options.warm?.(events) ??
        (async () => {
          events.push('warm-up starts');
          await sleep(60);
          events.push('warm-up ends');
          return 'done';
        }),
    },
  );
  const send = (request: WorkerRequest) => new Promise<void>((resolve) => (replies.set(request.id, resolve), accept(request)));
  return { events, outputs, send };
}

describe('os: when a shell worker warms up', () => {
  it('asked for a shell at once: the shell and the init first, the warm-up once idle, and a later command after it', async () => {
    const w = worker();
    await w.send({ id: 1, op: 'init', seed: 1 });
    await w.send({ id: 2, op: 'run', script: 'echo ready > /tmp/r', args: [] });
    expect(w.events).toEqual(['reply 1', 'reply 2']);
    await sleep(130); // idle past 100 ms: the warm-up has begun
    expect(w.events).toEqual(['reply 1', 'reply 2', 'warm-up starts']);
    await w.send({ id: 3, op: 'exec', command: 'cat /tmp/r' });
    expect(w.events).toEqual(['reply 1', 'reply 2', 'warm-up starts', 'warm-up ends', 'reply 3']);
  });

  it('a spare warms up while it waits, and its shell is made after', async () => {
    const w = worker();
    await sleep(40);
    expect(w.events).toEqual(['warm-up starts']);
    await w.send({ id: 1, op: 'init', seed: 1 });
    expect(w.events).toEqual(['warm-up starts', 'warm-up ends', 'reply 1']);
    await sleep(150);
    expect(w.events).toHaveLength(3); // once only
  });

  it('a restart after a kill, or a Node worker, warms up before the shell', async () => {
    for (const [w, init] of [
      [worker(), { id: 1, op: 'init', seed: 1, warmFirst: true }],
      [worker({ warmBeforeShell: true }), { id: 1, op: 'init', seed: 1 }],
    ] as const) {
      await w.send(init as WorkerRequest);
      expect(w.events).toEqual(['warm-up starts', 'warm-up ends', 'reply 1']);
    }
  });

  it('a busy worker never warms up between its requests', async () => {
    const w = worker();
    await w.send({ id: 1, op: 'init', seed: 1 });
    for (let id = 2; id < 6; id++) {
      await sleep(50);
      await w.send({ id, op: 'exec', command: 'true' });
    }
    expect(w.events).toEqual(['reply 1', 'reply 2', 'reply 3', 'reply 4', 'reply 5']);
  });

  it('a worker given back frees its shell (drop, no reply); the next init makes a new one', async () => {
    const w = worker();
    await w.send({ id: 1, op: 'init', seed: 1 });
    await w.send({ id: 2, op: 'exec', command: 'echo kept > /root/f' });
    (w.send({ id: 0, op: 'drop' }) as Promise<void>).catch(() => undefined);
    await w.send({ id: 3, op: 'exec', command: 'cat /root/f' });
    expect(w.events.filter((e) => e.startsWith('reply'))).toEqual(['reply 1', 'reply 2', 'reply 3 failed: the worker shell was not started']);
    await w.send({ id: 4, op: 'init', seed: 2 });
    await w.send({ id: 5, op: 'exec', command: 'cat /root/f' });
    expect(w.events.filter((e) => e.startsWith('reply')).slice(3)).toEqual(['reply 4', 'reply 5']);
    expect(w.outputs.get(5)).toBe('cat: /root/f: No such file or directory\n');
  });

  it('a request stops a warm-up between its steps; the rest runs once the worker is idle again, then never more', async () => {
    // Three steps of 40 ms; the app's first part (loading the commands) is not stoppable, so not modelled here.
    const stepwise = (events: string[]): WarmUp => async (stop) => {
      for (let step = 1; step <= 3; step++) {
        if (stop()) return (events.push('warm-up stops'), 'stopped');
        events.push(`step ${step}`);
        await sleep(40);
      }
      return 'done';
    };
    const w = worker({ warm: stepwise });
    await sleep(50); // a spare: its warm-up began at 20 ms and is inside step 1
    await w.send({ id: 1, op: 'init', seed: 1 });
    expect(w.events).toEqual(['step 1', 'warm-up stops', 'reply 1']);
    await sleep(250); // idle for 100 ms: the warm-up runs again, whole
    expect(w.events.slice(3)).toEqual(['step 1', 'step 2', 'step 3']);
    await w.send({ id: 2, op: 'exec', command: 'true' });
    await sleep(250);
    expect(w.events.slice(6)).toEqual(['reply 2']);
  });

  it('the app\'s warm-up steps run cleanly in the embedded shell (each one silent, status 0)', async () => {
    const shell = await createEmbeddedShell({ seed: 1 });
    for (const step of WARM_STEPS) expect(await shell.exec(step), step).toMatchObject({ output: '', exitCode: 0 });
    // They did the work they stand for: the log has its 300 lines, the 40 files their 64 bytes.
    expect((await shell.exec('wc -l < /tmp/w.log; cat /tmp/w-0* | wc -c')).output).toBe('300\n2560\n');
  });
});

