// The Linux machine's scheduling (envs/os/linux/machine.ts sleepWhenHalted) on a stand-in for
// v86's scheduler (its main.js: next_tick → yield → yield_callback → the emulator's loop, whose
// result is 0 while the guest runs, else the time in ms until its next timer). The real emulator's
// idle rate is checked by `npm run test:linux` (it needs the built image).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleepWhenHalted } from '../../envs/os/linux/machine.ts';

/** v86's scheduler around a guest whose emulator loop returns the given results in turn (then the last forever). */
function fakeScheduler(results: number[]) {
  let i = 0;
  const v86 = {
    tick_counter: 0,
    runs: 0,
    unregistered: 0,
    yield(_t: number, _tick: number): void {
      throw new Error("v86's own yield was used");
    },
    yield_callback(tick: number): void {
      if (tick !== v86.tick_counter) return;
      v86.runs++;
      v86.next_tick(results[Math.min(i++, results.length - 1)]);
    },
    next_tick(t: number): void {
      v86.yield(t, ++v86.tick_counter);
    },
    unregister_yield(): void {
      v86.unregistered++;
    },
  };
  return v86;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('sleepWhenHalted', () => {
  it('a guest halted with its timer under 1 ms away sleeps until then instead of running the emulator again at once', async () => {
    const v86 = fakeScheduler([0.6]);
    sleepWhenHalted(v86);
    expect(v86.unregistered).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    v86.yield = () => undefined; // stop
    // A timer a run: about one run a millisecond. Run again at once (v86's own way), it was tens of thousands.
    expect(v86.runs).toBeGreaterThan(0);
    expect(v86.runs).toBeLessThan(500);
  });

  it('a guest still running goes on at once; a pending tick of the old scheduler is ignored', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'Date'] });
    const v86 = fakeScheduler([0, 0, 0, 1000]);
    v86.tick_counter = 7; // a tick v86's own helper worker still has in flight
    const start = Date.now();
    sleepWhenHalted(v86);
    // One timer at a time: the three runs that follow a running guest's are immediates (the fake clock counts them as a millisecond at most).
    for (let step = 0; step < 4; step++) vi.advanceTimersToNextTimer();
    expect(v86.runs).toBe(4);
    expect(Date.now() - start).toBeLessThan(5);
    v86.yield_callback(7);
    expect(v86.runs).toBe(4);
    // Then the halted guest's 1000 ms.
    vi.advanceTimersToNextTimer();
    expect(v86.runs).toBe(5);
    expect(Date.now() - start).toBeGreaterThanOrEqual(1000);
  });

  it('in a browser (no setImmediate) a running guest goes on through a message to its own thread', async () => {
    vi.stubGlobal('setImmediate', undefined);
    const v86 = fakeScheduler([0, 0, 0, 60_000]);
    sleepWhenHalted(v86);
    await vi.waitFor(() => expect(v86.runs).toBe(4));
    await new Promise((r) => setTimeout(r, 20));
    expect(v86.runs).toBe(4);
  });
});
