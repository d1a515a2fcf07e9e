import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { bandits } from '../../envs/bandits/index.ts';
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import { episodeHeader } from '../../runtime/records.ts';
import { policyDriver, StepGate } from '../../runtime/drivers/index.ts';
import { attachRecorder, STEPS_AHEAD, type Recorder } from '../../src/lib/recorder.ts';
import { driverStopStatus, unsavedNote } from '../../src/lib/playStatus.ts';
import { openStore, type Store } from '../../src/store/store.ts';

/** The watched run's gate as the app builds it: wait for the recorder before each action, stop when it says no. */
class RecorderGate extends StepGate {
  constructor(private readonly recorder: () => Recorder) {
    super();
  }
  override async wait(signal?: AbortSignal): Promise<boolean> {
    return (await this.recorder().room()) && super.wait(signal);
  }
}

let store: Store;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  store = await openStore();
});

describe('a random driver whose recording fails part-way', () => {
  it('stops within a few steps, and the page says those steps are not saved and why the driver stopped', async () => {
    // An IndexedDB store whose writes of steps fail from the third batch on (a full disk, a store closed under it).
    let appends = 0;
    const failing: Store = Object.create(store);
    failing.appendSteps = (steps) => (++appends >= 3 ? Promise.reject(new Error('QuotaExceededError')) : store.appendSteps(steps));

    const task = bandits.tasks()[0];
    const actor = startEpisode(bandits, task, { seed: 3 });
    const ready = await whenIdle(actor);
    const header = episodeHeader(ready.context, { id: 'f1', driver: { kind: 'random' }, view: 'text', appVersion: 'test', startedAt: new Date().toISOString() });
    const errors: string[] = [];
    const recorder = attachRecorder(actor, { store: failing, header, episodeId: 'f1', currentView: () => 'text', onError: (m) => errors.push(m) });
    const result = await policyDriver('random', bandits, task, { seed: 3 }).run(actor, { gate: new RecorderGate(() => recorder) });
    await recorder.flushed();

    const played = actor.getSnapshot().context.history.length;
    const stored = (await store.getEpisode('f1'))!.steps.length;
    expect(errors).toEqual(['Recording failed: QuotaExceededError']);
    expect(result.stop).toBe('aborted'); // stopped by the gate, not finished: the episode has 50 steps
    expect(actor.getSnapshot().status).toBe('active');
    expect(recorder.storedSteps).toBe(stored);
    expect(played - stored).toBeGreaterThan(0);
    expect(played - stored).toBeLessThanOrEqual(STEPS_AHEAD + 1);

    const tab = { readOnly: null, recordingFailed: errors.length > 0 };
    expect(unsavedNote(played, recorder.storedSteps, tab)).toBe(`${played - stored} not saved`);
    expect(driverStopStatus(result.stop, tab)).toBe('Stopped: recording failed, so the driver played no further steps.');
  });
});

describe('the status wording', () => {
  const fine = { readOnly: null, recordingFailed: false };
  it('shows steps in flight as saving while recording works, and nothing when all are stored', () => {
    expect(unsavedNote(7, 5, fine)).toBe('+2 saving…');
    expect(unsavedNote(5, 5, fine)).toBeNull();
    expect(unsavedNote(7, 5, { readOnly: 'Taken over.', recordingFailed: false })).toBeNull();
  });
  it('says another tab took the episode over when the gate stopped the driver for that (not "carry on by hand")', () => {
    const status = driverStopStatus('aborted', { readOnly: 'This episode was taken over by another tab.', recordingFailed: false });
    expect(status).toBe('Stopped: another tab took this episode over.');
    expect(driverStopStatus('aborted', fine)).toMatch(/^Stopped\. You can carry on by hand/);
    expect(driverStopStatus('finished', fine)).toBeNull();
    expect(driverStopStatus('step-budget', fine)).toBe('The driver stopped (step-budget).');
  });
});
