/**
 * A shell worker started ahead of need (envs/os/embedded/spare.ts): the next shell takes the
 * waiting one and a new spare starts once it is idle; what a spare reports before anyone listens is kept.
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
    const spawn = withSpare(start, (_port, on) => holds.push(on));
    const first = spawn();
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
    const second = spawn();
    second.post({ id: 1, op: 'exec', command: 'true' });
    expect(started[1].posted).toHaveLength(1); // the spare, not a new worker
    expect(started.length).toBe(2);
    second.terminate(); // ended before it was idle: the next spare starts now
    expect(started.length).toBe(3);
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

  it('two shells in a row from Node worker threads answer and share nothing', async () => {
    const factory = nodeGuardedShellFactory();
    const a = await factory({ seed: 1 });
    await a.exec('echo one > /tmp/x');
    expect((await a.exec('cat /tmp/x')).output).toBe('one\n');
    a.dispose();
    const b = await factory({ seed: 1 });
    expect((await b.exec('cat /tmp/x 2>&1; echo $?')).output).toBe('cat: /tmp/x: No such file or directory\n1\n');
    b.dispose();
  });
});
