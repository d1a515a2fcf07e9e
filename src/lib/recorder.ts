/**
 * Records an episode actor into the store as it plays: the header with the first
 * step (an episode nobody acted in is not stored), the steps as the machine applies
 * them, and the outcome at the end.
 *
 * Steps that come faster than the store writes them are written together, in one
 * transaction, as soon as the write before them has landed; on `pagehide` or when the
 * page is hidden, whatever waits is written at once. `storedSteps` counts only steps
 * whose transaction has committed, so a page showing that count never shows a step
 * that a closed tab could lose, and `room()` lets a fast driver wait until the store
 * has nearly caught up before it plays on.
 */
import type { EpisodeActor, EpisodeOutput, EpisodeSnapshot } from '../../envs/core/episode.ts';
import type { ViewKind } from '../../envs/core/types.ts';
import { toStepRecord, type EpisodeHeader, type StepRecord } from '../../runtime/records.ts';
import type { Store } from '../store/store.ts';

/** How many steps a driver may play ahead of what is stored (room()'s default). */
export const STEPS_AHEAD = 2;

export interface RecorderOptions {
  store: Store;
  /** The header to create; omitted when resuming an episode that is already stored. */
  header?: EpisodeHeader;
  episodeId: string;
  /** Steps already stored (when resuming): those history entries are not written again. */
  alreadyRecorded?: number;
  /** The view in use, for steps whose ACT carried none. */
  currentView: () => ViewKind;
  onError?: (message: string) => void;
  /** The header has been queued for writing (the first step happened). */
  onCreated?: () => void;
  /** Steps now committed to the store (called after each write lands). */
  onStored?: (count: number) => void;
  /** More facts for the step at history[index] (e.g. progress under the task's chosen subgoal set). */
  stepExtras?: (history: EpisodeSnapshot['context']['history'], index: number) => Partial<StepRecord> | undefined;
  /** Adds facts to a new step record before it is written (a study adds the person's think time). */
  decorateStep?: (record: StepRecord) => StepRecord;
  /** Where to listen for pagehide / visibilitychange (the window; none in Node). */
  page?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { document?: { visibilityState: string } };
}

export interface Recorder {
  /** Resolves when every step and outcome noted so far has landed (or failed). */
  flushed(): Promise<void>;
  /** Steps of this episode committed to the store. */
  readonly storedSteps: number;
  /**
   * Resolves true once at most `ahead` played steps are still waiting to be stored; false when
   * recording has stopped or failed (they never will be). A driver awaits it before each action.
   */
  room(ahead?: number): Promise<boolean>;
  /** Stop recording new steps; writes already noted still land (await flushed()). */
  stop(): void;
}

export function attachRecorder(actor: EpisodeActor, options: RecorderOptions): Recorder {
  const { store, episodeId } = options;
  const page = options.page ?? (typeof window === 'undefined' ? undefined : window);
  /** History entries turned into records (stored, in flight or waiting). */
  let noted = options.alreadyRecorded ?? 0;
  let stored = noted;
  let headerQueued = options.header === undefined;
  let headerReady = options.header === undefined;
  let outcome: EpisodeOutput | null = null;
  let outcomeWritten = false;
  const waiting: StepRecord[] = [];
  let inFlight = 0;
  /** Writes land in the order they were issued; this counts them in that order. */
  let landed: Promise<void> = Promise.resolve();
  let failed = false;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];
  let roomWaiters: { ahead: number; resolve: (ok: boolean) => void }[] = [];

  const wake = (): void => {
    roomWaiters = roomWaiters.filter((w) => {
      if (failed || stopped) w.resolve(false);
      else if (noted - stored <= w.ahead) w.resolve(true);
      else return true;
      return false;
    });
    const idle = inFlight === 0 && (failed || (waiting.length === 0 && (outcome === null || outcomeWritten)));
    if (idle) {
      const resolvers = idleWaiters;
      idleWaiters = [];
      for (const resolve of resolvers) resolve();
    }
  };

  const fail = (err: unknown): void => {
    if (!failed) options.onError?.(`Recording failed: ${err instanceof Error ? err.message : String(err)}`);
    failed = true;
    waiting.length = 0;
  };

  /** Issue `write` now (IndexedDB orders it after earlier ones); count it once those before it have landed. */
  const issue = (write: Promise<void>, done: () => void): void => {
    inFlight++;
    write.catch(() => {}); // its failure is reported in order, below
    landed = landed
      .then(() => write)
      .then(done, fail)
      .finally(() => {
        inFlight--;
        pump(false);
        wake();
      });
  };

  /** Write what waits: at once when nothing is in flight (or `now`), else when the current write lands. */
  const pump = (now: boolean): void => {
    if (failed || !headerReady) return;
    if (inFlight > 0 && !now) return;
    if (waiting.length > 0) {
      const batch = waiting.splice(0);
      issue(store.appendSteps(batch), () => {
        stored += batch.length;
        options.onStored?.(stored);
      });
    } else if (outcome && !outcomeWritten && inFlight === 0) {
      outcomeWritten = true;
      issue(store.finishEpisode(episodeId, outcome, new Date().toISOString()), () => {});
    }
  };

  const onSnapshot = (snapshot: EpisodeSnapshot): void => {
    if (stopped || snapshot.matches('loading')) return;
    const history = snapshot.context.history;
    // An episode is stored from its first step: opening a task and leaving it records nothing.
    if (history.length === 0) return;
    if (!headerQueued && options.header) {
      headerQueued = true;
      // Steps wait for the header: were its id taken, they must not land in someone else's episode.
      issue(store.createEpisode(options.header), () => {
        headerReady = true;
      });
      options.onCreated?.();
    }
    while (noted < history.length) {
      const entry = history[noted++];
      const built = { ...toStepRecord(episodeId, entry, options.currentView()), ...options.stepExtras?.(history, noted - 1) };
      waiting.push(options.decorateStep ? options.decorateStep(built) : built);
    }
    if (snapshot.status === 'done' && !outcome && snapshot.output) outcome = snapshot.output;
    pump(false);
  };

  // Leaving or hiding the page: write what waits now, without waiting for the write in flight.
  const onPageHide = (): void => pump(true);
  const onVisibility = (): void => {
    if (page?.document?.visibilityState === 'hidden') pump(true);
  };
  page?.addEventListener('pagehide', onPageHide);
  page?.addEventListener('visibilitychange', onVisibility);

  onSnapshot(actor.getSnapshot());
  const subscription = actor.subscribe({ next: onSnapshot, error: () => {} });
  return {
    flushed: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        wake();
      }),
    get storedSteps() {
      return stored;
    },
    room: (ahead = STEPS_AHEAD) =>
      new Promise<boolean>((resolve) => {
        roomWaiters.push({ ahead, resolve });
        wake();
      }),
    stop: () => {
      stopped = true;
      subscription.unsubscribe();
      page?.removeEventListener('pagehide', onPageHide);
      page?.removeEventListener('visibilitychange', onVisibility);
      wake();
    },
  };
}
