/**
 * A shell worker started ahead of need (envs/os/embedded/spare.ts): the next shell takes the
 * waiting one and a new spare starts once it is idle; a worker whose shell ended cleanly serves the
 * next shell; what a spare reports before anyone listens is kept.
 */
import { describe, expect, it } from 'vitest';
import { buffered, withSpare } from '../../envs/os/embedded/spare.ts';
import type { WorkerReply, WorkerRequest } from '../../envs/os/embedded/worker-protocol.ts';
import { nodeGuardedShellFactory } from '../../envs/os/embedded/node-worker.ts';

function fakeStarts() {
  const started: { deliver: (r: WorkerReply) => void; died: (why: string) => void; posted: WorkerRequest[] }[] = [];
  const start = (deliver: (r: WorkerReply) => void, died: (why: string) => void) => {
    const w = { deliver, died, posted: [] as WorkerRequest[] };
    started.push(w);
    return { post: (m: WorkerRequest) => void w.posted.push(m), terminate: () => undefined };
  };
  return { started, start };
}

describe('spare shell workers', () => {
  it('hands out the spare started before, and starts the next one once the worker handed out is idle', async () => {
    const { started, start } = fakeStarts();
    const holds: boolean[] = [];
    const pool = withSpare(start, (_port, on) => holds.push(on));
    const first = pool.take();
    const replies: number[] = [];
    first.onMessage((r) => replies.push(r.id));
    expect(started.length).toBe(1); // no spare beside a worker starting its shell
    first.post({ id: 1, op: 'init', seed: 1 });
    first.post({ id: 2, op: 'run', script: 'true', args: [] });
    started[0].deliver({ id: 1, ok: true, result: null });
    await new Promise((r) => setTimeout(r, 150));
    expect(started.length).toBe(1); // still running the init script
    started[0].deliver({ id: 2, ok: true, result: null });
    expect(replies).toEqual([1, 2]);
    await new Promise((r) => setTimeout(r, 150));
    expect(started.length).toBe(2); // idle: the spare starts
    expect(holds).toEqual([true, false]); // the taken worker holds the process; the waiting spare does not
    const second = pool.take();
    second.post({ id: 1, op: 'exec', command: 'true' });
    expect(started[1].posted).toHaveLength(1); // the spare, not a new worker
    expect(started.length).toBe(2);
    second.terminate(); // ended before it was idle: the next spare starts now
    expect(started.length).toBe(3);
  });

  it('takes a worker started before the pool (a page opened on a Play link) as its first, once', () => {
    const { started, start } = fakeStarts();
    const early = buffered(start);
    started[0].died('the shell worker failed'); // failed while loading, before the pool existed
    let offers = 0;
    const pool = withSpare(start, undefined, () => (offers++ === 0 ? early : null));
    const first = pool.take();
    const deaths: string[] = [];
    first.onExit?.((why) => deaths.push(why));
    expect(started.length).toBe(1); // the early worker, not a new one
    expect(deaths).toEqual(['the shell worker failed']); // what it reported before anyone listened
    pool.take();
    expect(started.length).toBe(2); // the next take starts its own
  });

  it('takes back a worker whose shell ended cleanly: it waits in place of a fresh spare and serves the next shell', () => {
    const { started, start } = fakeStarts();
    const ended: number[] = [];
    const startCounting = (deliver: (r: WorkerReply) => void, died: (why: string) => void) => {
      const index = started.length;
      return { ...start(deliver, died), terminate: () => void ended.push(index) };
    };
    const pool = withSpare(startCounting);
    const first = pool.take();
    first.onMessage(() => undefined);
    first.terminate(); // ended: a fresh spare starts
    expect(started.length).toBe(2);
    const second = pool.take(); // the fresh spare (worker 1)
    second.onMessage(() => undefined);
    second.terminate(); // worker 2 starts as the spare
    expect(started.length).toBe(3);
    const third = pool.take(); // worker 2
    pool.release(third); // its shell ended with nothing running: worker 2 waits again
    expect(ended).toEqual([0, 1]);
    const fourth = pool.take();
    fourth.post({ id: 1, op: 'init', seed: 4 });
    expect(started[2].posted).toEqual([{ id: 1, op: 'init', seed: 4 }]); // the same worker serves the next shell
    expect(started.length).toBe(3);
    // A given-back worker replaces a fresh spare waiting.
    fourth.onMessage(() => undefined);
    const fifth = pool.take(); // no spare waiting: worker 3 starts for it
    expect(started.length).toBe(4);
    fifth.terminate(); // worker 4 starts as the spare
    expect(started.length).toBe(5);
    pool.release(fourth);
    expect(ended).toEqual([0, 1, 3, 4]); // the fresh spare (worker 4) ended; worker 2 waits
    pool.take().post({ id: 1, op: 'init', seed: 5 });
    expect(started[2].posted).toHaveLength(2);
    pool.release({ post: () => undefined, onMessage: () => undefined, terminate: () => void ended.push(99) });
    expect(ended).toContain(99); // a port the pool did not hand out is ended
  });

  it('keeps replies and a death that came before a listener', () => {
    const { started, start } = fakeStarts();
    const port = buffered(start);
    started[0].deliver({ id: 7, ok: true, result: null });
    started[0].died('the shell worker failed');
    const got: number[] = [];
    const deaths: string[] = [];
    port.onMessage((r) => got.push(r.id));
    port.onExit!((why) => deaths.push(why));
    expect(got).toEqual([7]);
    expect(deaths).toEqual(['the shell worker failed']);
    started[0].deliver({ id: 8, ok: true, result: null });
    expect(got).toEqual([7, 8]);
  });

  it('two shells in a row from Node worker threads (the second in the first one\'s worker) share nothing, and a seed gives the same session as in a fresh worker', async () => {
    const SESSION = 'echo $RANDOM $RANDOM; mktemp; date +%s; echo $$; ls -l /tmp; head -c 8 /dev/urandom | od -An -tx1';
    const fresh = await nodeGuardedShellFactory()({ seed: 5 });
    const expected = (await fresh.exec(SESSION)).output;
    fresh.dispose();
    const factory = nodeGuardedShellFactory();
    const a = await factory({ seed: 1 });
    await a.exec('echo one > /tmp/x; export LEAK=1; cd /root');
    expect((await a.exec('cat /tmp/x')).output).toBe('one\n');
    a.dispose();
    const b = await factory({ seed: 5 });
    expect((await b.exec(SESSION)).output).toBe(expected);
    expect((await b.exec('cat /tmp/x 2>&1; echo $?; echo "[$LEAK]"; pwd')).output).toBe('cat: /tmp/x: No such file or directory\n1\n[]\n/\n');
    b.dispose();
  });
});
