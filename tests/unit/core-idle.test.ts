import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenPageIdle } from '../../envs/core/idle.ts';

describe('whenPageIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs in the page\'s idle moment, once, although the time limit passes later', () => {
    vi.useFakeTimers();
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => (idle = callback));
    const run = vi.fn();
    whenPageIdle(run, 1000);
    expect(run).not.toHaveBeenCalled();
    idle?.();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs by the time limit when the page never reports an idle moment (a page that draws no frames)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', () => 0);
    const run = vi.fn();
    whenPageIdle(run, 1000);
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs on a timer where requestIdleCallback is missing', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    whenPageIdle(run, 50);
    vi.advanceTimersByTime(50);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
