import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { hanoi, hanoiSolution, HANOI_ACTIONS } from '../../envs/hanoi/index.ts';
import { playActions, startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { episodeHeader, type EpisodeHeader } from '../../runtime/records.ts';
import { attachRecorder, STEPS_AHEAD } from '../../src/lib/recorder.ts';
import { makePolicy } from '../../envs/core/policies.ts';
import { openStore, type Store } from '../../src/store/store.ts';

const task = hanoi.tasks()[0];
const solution = hanoiSolution(3).map((i) => HANOI_ACTIONS[i]);

function header(id: string): EpisodeHeader {
  const now = new Date().toISOString();
  return { format: 2, id, env: 'hanoi', task: task.id, seed: 5, driver: { kind: 'human' }, actors: [], view: 'text', maxSteps: 30, initialObservation: '', startedAt: now, updatedAt: now, appVersion: 'test' };
}

let store: Store;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openStore();
});

describe('recorder', () => {
  it('writes the header built from the machine (with the reset observation), every step as it happens, and the outcome', async () => {
    const actor = startEpisode(hanoi, task, { seed: 5 });
    const ready = await whenIdle(actor);
    const errors: string[] = [];
    const built = episodeHeader(ready.context, { id: 'e1', driver: { kind: 'human' }, view: 'text', appVersion: 'test', startedAt: new Date().toISOString() });
    const recorder = attachRecorder(actor, { store, header: built, episodeId: 'e1', currentView: () => 'visual', onError: (m) => errors.push(m) });

    await playActions(actor, solution.slice(0, 2), undefined, { actor: { kind: 'human' }, view: 'text' });
    await recorder.flushed();
    let record = await store.getEpisode('e1');
    expect(record?.header.initialObservation).toBe(actor.getSnapshot().context.initialObservation);
    expect(record?.steps.map((s) => s.action)).toEqual(solution.slice(0, 2));
    expect(record?.steps.map((s) => s.view)).toEqual(['text', 'text']);
    expect(record?.header.outcome).toBeUndefined();

    await playActions(actor, solution.slice(2), undefined, { actor: { kind: 'human' } }); // no view given: the current view is used
    await recorder.flushed();
    record = await store.getEpisode('e1');
    const history = actor.getSnapshot().context.history;
    expect(record?.steps.map((s) => [s.t, s.observation, s.reward, s.score, s.valid])).toEqual(history.map((h) => [h.t, h.observation, h.reward, h.score, h.valid]));
    expect(record?.steps.at(-1)?.view).toBe('visual');
    expect(record?.header.outcome).toEqual({ score: 3, success: true, steps: 7, finishReason: 'Complete' });
    expect(errors).toEqual([]);
  });

  it('resumes an interrupted episode by replaying its actions without writing them twice', async () => {
    const first = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(first);
    const r1 = attachRecorder(first, { store, header: header('e2'), episodeId: 'e2', currentView: () => 'text' });
    await playActions(first, solution.slice(0, 3));
    await r1.flushed();
    r1.stop();
    first.stop(); // the tab closes

    const stored = (await store.getEpisode('e2'))!;
    const second = startEpisode(hanoi, task, { seed: stored.header.seed });
    await playActions(second, stored.steps.map((s) => s.action));
    expect(second.getSnapshot().context.history.map((h) => h.observation)).toEqual(stored.steps.map((s) => s.observation));
    const r2 = attachRecorder(second, { store, episodeId: 'e2', alreadyRecorded: stored.steps.length, currentView: () => 'text' });
    await playActions(second, solution.slice(3));
    await r2.flushed();

    const record = (await store.getEpisode('e2'))!;
    expect(record.steps.map((s) => s.t)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(record.steps.map((s) => s.action)).toEqual(solution);
    expect(record.header.outcome?.finishReason).toBe('Complete');
  });

  it('reports a failed write instead of losing it silently', async () => {
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    await store.createEpisode(header('taken'));
    const errors: string[] = [];
    const recorder = attachRecorder(actor, { store, header: header('taken'), episodeId: 'taken', currentView: () => 'text', onError: (m) => errors.push(m) });
    // The header is written with the first step: that is when the taken id is found.
    await playActions(actor, solution.slice(0, 1), undefined, { actor: { kind: 'human' } });
    await recorder.flushed();
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toMatch(/^Recording failed: /);
  });
});

describe('recorder with a model driver', () => {
  it('stores each model step with its prompts, replies and tokens, through export and import', async () => {
    const { runModelDriver, modelDriverInfo, resolveSampling } = await import('../../runtime/drivers/index.ts');
    const plan = solution.slice();
    const client = {
      kind: 'fake' as const,
      model: 'fake-1',
      endpointHost: '127.0.0.1:9',
      async complete(request: { messages: { content: string }[] }) {
        const last = request.messages[request.messages.length - 1].content;
        const text = last.startsWith('Choose') ? plan.shift()! : 'Think first.';
        return { text, usage: { promptTokens: 7, completionTokens: 3 }, latencyMs: 1, finishReason: 'stop' };
      },
    };
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    const driver = modelDriverInfo(client as never, 'smartplay', resolveSampling((await import('../../suites/index.ts')).suiteById('smartplay'), { temperature: 0 }));
    const recorder = attachRecorder(actor, { store, header: { ...header('m1'), driver }, episodeId: 'm1', currentView: () => 'text' });
    const result = await runModelDriver({ actor, env: hanoi, task, client: client as never, temperature: 0 });
    expect(result.stop).toBe('finished');
    await recorder.flushed();

    const record = (await store.getEpisode('m1'))!;
    expect(record.header.driver).toMatchObject({ kind: 'model', name: 'fake-1', endpointHost: '127.0.0.1:9', protocol: 'smartplay' });
    expect(record.steps).toHaveLength(7);
    expect(record.steps[0].model?.calls.map((c) => c.reply)).toEqual(['Think first.', solution[0]]);
    expect(record.steps[0].actor).toEqual({ kind: 'model', name: 'fake-1' });
    expect(record.header.actors).toEqual([{ kind: 'model', name: 'fake-1' }]);
    expect(record.steps[0].model?.tokens).toEqual({ prompt: 14, completion: 6 });
    const exported = await store.exportJsonl(['m1']);
    globalThis.indexedDB = new IDBFactory();
    const fresh = await openStore();
    expect(await fresh.importJsonl(exported)).toEqual({ imported: 1, skipped: 0, taskFiles: [] });
    expect((await fresh.getEpisode('m1'))?.steps[6].model?.reply).toBe(solution[6]);
  });
});

/** The store, with its step writes counted and held back until `release` (a slow disk). */
function slowStore(inner: Store) {
  const batches: number[] = [];
  let held: (() => void)[] = [];
  let hold = false;
  const store: Store = {
    ...inner,
    appendSteps: async (steps) => {
      batches.push(steps.length);
      // Issued at once, as the real store does; only the caller's notice that it landed is delayed.
      const write = inner.appendSteps(steps);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return write;
    },
  };
  return {
    store,
    batches,
    holdWrites: (on: boolean) => {
      hold = on;
      if (!on) {
        const waiting = held;
        held = [];
        for (const resolve of waiting) resolve();
      }
    },
  };
}

const stepsStored = async (id: string): Promise<number> => (await store.getEpisode(id))?.steps.length ?? 0;

describe('recorder under fast drivers (issue 16)', () => {
  it('writes steps that come while a write is in flight together, in one batch, and counts only committed steps', async () => {
    const slow = slowStore(store);
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    const counts: number[] = [];
    const recorder = attachRecorder(actor, { store: slow.store, header: header('b1'), episodeId: 'b1', currentView: () => 'text', onStored: (n) => counts.push(n) });
    slow.holdWrites(true);
    const moves = Array.from({ length: 20 }, (_, i) => HANOI_ACTIONS[i % HANOI_ACTIONS.length]);
    for (const text of moves.slice(0, 12)) actor.send({ type: 'ACT', text, actor: { kind: 'human' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(recorder.storedSteps).toBe(0); // nothing has landed yet, so nothing counts as stored
    slow.holdWrites(false);
    for (const text of moves.slice(12)) actor.send({ type: 'ACT', text, actor: { kind: 'human' } });
    await recorder.flushed();
    const record = (await store.getEpisode('b1'))!;
    expect(record.steps.map((s) => s.t)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(record.steps.map((s) => s.observation)).toEqual(actor.getSnapshot().context.history.map((h) => h.observation));
    expect(slow.batches.reduce((a, b) => a + b, 0)).toBe(20);
    expect(slow.batches.length).toBeLessThanOrEqual(4); // 20 steps, not 20 transactions
    expect(Math.max(...slow.batches)).toBeGreaterThan(1);
    expect(recorder.storedSteps).toBe(20);
    expect(counts.at(-1)).toBe(20);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('never reports a step as stored before the store holds it', async () => {
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    const checks: Promise<[number, number]>[] = [];
    const recorder = attachRecorder(actor, {
      store,
      header: header('b2'),
      episodeId: 'b2',
      currentView: () => 'text',
      onStored: (n) => checks.push(stepsStored('b2').then((have) => [n, have])),
    });
    const policy = makePolicy('random', hanoi, task, 3);
    for (let i = 0; i < 25 && actor.getSnapshot().status === 'active'; i++) {
      actor.send({ type: 'ACT', text: policy(actor.getSnapshot().context.state as never)!, actor: { kind: 'random' } });
      if (i % 5 === 0) await Promise.resolve();
    }
    await recorder.flushed();
    const pairs = await Promise.all(checks);
    expect(pairs.length).toBeGreaterThan(0);
    for (const [reported, have] of pairs) expect(have).toBeGreaterThanOrEqual(reported);
    expect(pairs.at(-1)![0]).toBe(actor.getSnapshot().context.history.length);
  });

  it('room() holds a driver back until the store has nearly caught up', async () => {
    const slow = slowStore(store);
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    const recorder = attachRecorder(actor, { store: slow.store, header: header('b3'), episodeId: 'b3', currentView: () => 'text' });
    const policy = makePolicy('random', hanoi, task, 7);
    let most = 0;
    const releaser = setInterval(() => {
      slow.holdWrites(false);
      slow.holdWrites(true);
    }, 5);
    slow.holdWrites(true);
    for (let i = 0; i < 30 && actor.getSnapshot().status === 'active'; i++) {
      expect(await recorder.room()).toBe(true);
      const ahead = actor.getSnapshot().context.history.length - recorder.storedSteps;
      most = Math.max(most, ahead);
      actor.send({ type: 'ACT', text: policy(actor.getSnapshot().context.state as never)!, actor: { kind: 'random' } });
    }
    clearInterval(releaser);
    slow.holdWrites(false);
    await recorder.flushed();
    expect(most).toBeLessThanOrEqual(STEPS_AHEAD);
    expect(most).toBeGreaterThan(0); // the driver did run ahead of the store, within the bound
    expect(await stepsStored('b3')).toBe(actor.getSnapshot().context.history.length);
  });

  it('writes what waits at once on pagehide or a hidden page, without waiting for the write in flight', async () => {
    const slow = slowStore(store);
    const page = Object.assign(new EventTarget(), { document: { visibilityState: 'visible' } });
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    const recorder = attachRecorder(actor, { store: slow.store, header: header('b4'), episodeId: 'b4', currentView: () => 'text', page });
    actor.send({ type: 'ACT', text: HANOI_ACTIONS[0], actor: { kind: 'human' } });
    await recorder.flushed();
    slow.holdWrites(true);
    for (const i of [1, 2, 3]) actor.send({ type: 'ACT', text: HANOI_ACTIONS[i], actor: { kind: 'human' } });
    expect(slow.batches).toEqual([1, 1]); // step 2 is in flight; 3 and 4 wait for it
    page.dispatchEvent(new Event('pagehide'));
    expect(slow.batches).toEqual([1, 1, 2]);
    actor.send({ type: 'ACT', text: HANOI_ACTIONS[4], actor: { kind: 'human' } });
    page.document.visibilityState = 'hidden';
    page.dispatchEvent(new Event('visibilitychange'));
    expect(slow.batches).toEqual([1, 1, 2, 1]);
    slow.holdWrites(false);
    await recorder.flushed();
    expect((await store.getEpisode('b4'))?.steps.map((s) => s.t)).toEqual([1, 2, 3, 4, 5]);
  });

  it('room() answers false once recording stops or fails, so a driver stops instead of playing unrecorded steps', async () => {
    const actor = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(actor);
    await store.createEpisode(header('taken2'));
    const errors: string[] = [];
    const failing = attachRecorder(actor, { store, header: header('taken2'), episodeId: 'taken2', currentView: () => 'text', onError: (m) => errors.push(m) });
    actor.send({ type: 'ACT', text: HANOI_ACTIONS[0], actor: { kind: 'human' } });
    expect(await failing.room(0)).toBe(false);
    expect(errors).toHaveLength(1);
    expect(await stepsStored('taken2')).toBe(0); // nothing went into the other episode with that id

    const other = startEpisode(hanoi, task, { seed: 5 });
    await whenIdle(other);
    const recorder = attachRecorder(other, { store, header: header('b5'), episodeId: 'b5', currentView: () => 'text' });
    other.send({ type: 'ACT', text: HANOI_ACTIONS[0], actor: { kind: 'human' } });
    recorder.stop();
    expect(await recorder.room()).toBe(false);
    await recorder.flushed();
    other.send({ type: 'ACT', text: HANOI_ACTIONS[1], actor: { kind: 'human' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await stepsStored('b5')).toBe(1); // the step noted before stop lands; none after it
  });
});
