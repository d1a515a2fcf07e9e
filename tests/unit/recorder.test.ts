import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { hanoi, hanoiSolution, HANOI_ACTIONS } from '../../envs/hanoi/index.ts';
import { playActions, startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { episodeHeader, type EpisodeHeader } from '../../runtime/records.ts';
import { attachRecorder } from '../../src/lib/recorder.ts';
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
    const driver = modelDriverInfo(client as never, hanoi.protocol, resolveSampling('smartplay', { temperature: 0 }));
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
