import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EpisodeClock, type ClockState, type ClockStorage } from '../../src/studies/clock.ts';

/** A clock on a hand-driven time line, with storage that outlives it (as localStorage outlives a reload). */
function harness(start = 1_000_000) {
  let now = start;
  const saved = new Map<string, ClockState>();
  const storage: ClockStorage = {
    load: (id) => (saved.has(id) ? structuredClone(saved.get(id)) : undefined),
    save: (s) => saved.set(s.episodeId, structuredClone(s)),
    remove: (id) => saved.delete(id),
  };
  return { at: (t: number) => (now = start + t), options: { now: () => now, storage }, saved };
}

describe('the episode clock', () => {
  it('times each step from shown to sent, net of overlapping pauses, and sums the episode', () => {
    const h = harness();
    const clock = EpisodeClock.start('e', 1, h.options);
    h.at(1000); clock.pause('hidden');
    h.at(1500); clock.pause('idle', 1_000_000 + 1200); // idle began while hidden: overlap counted once
    h.at(3000); clock.resume('hidden');
    h.at(3500); clock.resume('idle');
    h.at(5000); clock.sent();
    expect(clock.stepDone(1)).toEqual({ shownAt: 1_000_000, sentAt: 1_005_000, thinkMs: 2500, pausedMs: 2500 });
    h.at(6000); clock.sent();
    expect(clock.stepDone(2).thinkMs).toBe(1000);
    expect(clock.state.step).toBe(3);
    const end = clock.finish(1_006_000);
    expect(end.time).toEqual({ shownAt: 1_000_000, activeMs: 3500, wallMs: 6000 });
    expect(end.pauses.map((p) => [p.reason, p.to - p.from, p.step])).toEqual([['hidden', 2000, 1], ['idle', 2300, 1]]);
    expect(h.saved.size).toBe(0); // forgotten once finished
  });

  it('after a reload the time away and the page\'s loading are one reload pause, until the task is shown; a Pause-button pause stays open', () => {
    const h = harness();
    const first = EpisodeClock.start('e', 1, h.options);
    h.at(2000); first.sent();
    first.stepDone(1);
    h.at(3000); first.pause('button');
    h.at(4000); first.pause('reload'); // pagehide
    h.at(9000);
    const again = EpisodeClock.restore('e', 2, h.options)!;
    expect(again.isPaused('button')).toBe(true);
    expect(again.isPaused('reload')).toBe(true); // the new page is still loading the task
    h.at(9500); again.shown();
    expect(again.isPaused('reload')).toBe(false);
    h.at(10_000); again.resume('button');
    h.at(11_000); again.sent();
    const t = again.stepDone(2);
    expect(t.pausedMs).toBe(7000); // 3000–10000 (button, covering the reload 4000–9500)
    expect(t.thinkMs).toBe(2000);
    expect(again.activeMs()).toBe(4000);
    expect(again.state.pauses.map((p) => [p.reason, p.from - 1_000_000, p.to - 1_000_000])).toEqual([['reload', 4000, 9500], ['button', 3000, 10_000]]);
  });

  it('the new page\'s loading after a reload is not think time: the step\'s think time and the active time agree', () => {
    const h = harness();
    const first = EpisodeClock.start('e', 1, h.options);
    h.at(1000); first.pause('hidden'); // the tab hidden, then the page reloaded
    h.at(1500); first.pause('reload');
    h.at(4000);
    const again = EpisodeClock.restore('e', 1, h.options)!;
    h.at(6500); again.shown(); // 2.5 s of loading after the clock was restored
    h.at(7000); again.sent();
    const t = again.stepDone(1);
    expect(t.thinkMs).toBe(1500); // 0–1000 and 6500–7000
    expect(again.activeMs()).toBe(1500);
    expect(again.state.pauses.map((p) => [p.reason, p.from - 1_000_000, p.to - 1_000_000])).toEqual([['hidden', 1000, 1500], ['reload', 1500, 6500]]);
  });

  it('after a crash (no pagehide) the reload pause runs from the last heartbeat', () => {
    const h = harness();
    const first = EpisodeClock.start('e', 1, h.options);
    h.at(1000); first.alive();
    h.at(60_000);
    const again = EpisodeClock.restore('e', 1, h.options)!;
    h.at(61_000); again.shown();
    expect(again.state.pauses).toEqual([{ reason: 'reload', from: 1_001_000, to: 1_061_000, step: 1 }]);
    expect(again.activeMs()).toBe(1000);
  });

  it('records screening signals with the step they happened in', () => {
    const h = harness();
    const clock = EpisodeClock.start('e', 3, h.options);
    h.at(10); clock.signal('paste', '12 characters');
    expect(clock.summary().signals).toEqual([{ kind: 'paste', at: 1_000_010, step: 3, detail: '12 characters' }]);
  });
});

describe('the results outbox', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('retries with backoff until acknowledged, sends each episode once, and resends unacknowledged items after a reload', async () => {
    const { OutboxSender } = await import('../../src/studies/outbox.ts');
    const { listOutbox } = await import('../../src/studies/studyDb.ts');
    const bodies: string[] = [];
    let failures = 0;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      if (failures < 2) {
        failures++;
        return new Response('no', { status: 503 });
      }
      bodies.push(String(init.body));
      return new Response('ok', { status: 200 });
    });
    const sender = new OutboxSender({ retryMs: 10 });
    await sender.add({ target: 'http', url: 'http://127.0.0.1:1/collect', episodeId: 'a', studyId: 's', body: 'A\n' });
    await sender.add({ target: 'http', url: 'http://127.0.0.1:1/collect', episodeId: 'a', studyId: 's', body: 'A\n' }); // queued twice: kept once
    expect(await sender.drained(5000)).toBe(true);
    expect(bodies).toEqual(['A\n']);
    expect(failures).toBe(2);
    sender.stop();

    // An item left unsent (the tab closed before the endpoint answered) goes out from the next page.
    vi.stubGlobal('fetch', async () => new Response('down', { status: 500 }));
    const dying = new OutboxSender({ retryMs: 10_000 });
    await dying.add({ target: 'http', url: 'http://127.0.0.1:1/collect', episodeId: 'b', studyId: 's', body: 'B\n' });
    await new Promise((r) => setTimeout(r, 50));
    dying.stop();
    expect((await listOutbox()).find((i) => i.episodeId === 'b')?.sentAt).toBeUndefined();
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      bodies.push(String(init.body));
      return new Response('ok', { status: 200 });
    });
    const next = new OutboxSender({ retryMs: 10 });
    next.kick();
    expect(await next.drained(5000)).toBe(true);
    expect(bodies).toEqual(['A\n', 'B\n']);
    next.kick();
    await next.drained(1000);
    expect(bodies).toEqual(['A\n', 'B\n']); // nothing twice
    next.stop();
  });

  it('says when the endpoint stays down (each item tried N times), keeps trying, and a retry on request sends it once', async () => {
    const { OutboxSender } = await import('../../src/studies/outbox.ts');
    let up = false;
    let tries = 0;
    const keys: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      tries++;
      if (!up) return new Response('down', { status: 503 });
      keys.push(String((init.headers as Record<string, string>)['Idempotency-Key']));
      return new Response('ok', { status: 200 });
    });
    const sender = new OutboxSender({ retryMs: 10, maxRetryMs: 60_000 });
    await sender.add({ target: 'http', url: 'http://127.0.0.1:1/collect', episodeId: 'down-1', studyId: 's', body: 'D\n' });
    expect(await sender.drained(10_000, 4)).toBe(false); // given up on after 4 tries, long before 10 s
    expect(tries).toBeGreaterThanOrEqual(4);
    up = true;
    sender.retryNow();
    expect(await sender.drained(5000)).toBe(true);
    expect(keys).toEqual(['down-1']);
    sender.stop();
  });
});
