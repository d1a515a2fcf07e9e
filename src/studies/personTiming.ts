/**
 * A person's think time in free play (outside a study), the same way a study records it:
 * per step `timing`, and in the header `time`, `pauses` and `signals`. The play host
 * passes `extras` to PlaySession.start/resume and calls `attach` once the task is shown.
 */
import type { PlaySession, SessionExtras } from '../lib/session.svelte.ts';
import type { StepRecord } from '../../runtime/records.ts';
import { EpisodeClock } from './clock.ts';
import { watchClock } from './watchers.ts';
import { patchHeader } from './studyDb.ts';
import { taskOnScreen } from './onScreen.ts';

/** Free play has no study threshold: a minute without input is an idle pause. */
export const FREE_PLAY_IDLE_MS = 60_000;

export class PersonTiming {
  clock: EpisodeClock | null = null;
  private stopWatching: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly idleMs = FREE_PLAY_IDLE_MS) {}

  /** Only a person's own steps get think time (a driver's steps in a hand-off do not). */
  readonly extras: Pick<SessionExtras, 'decorateStep'> = {
    decorateStep: (record: StepRecord): StepRecord => (this.clock && record.actor.kind === 'human' ? { ...record, timing: this.clock.stepDone(record.t) } : record),
  };

  /** The task is shown: start the clock (or pick up the one saved before a reload) and keep the header's figures current. */
  attach(session: PlaySession, resumed = false): void {
    this.detach();
    const id = session.episodeId;
    let steps = session.snapshot.context.history.length;
    const clock = (resumed ? EpisodeClock.restore(id, steps + 1) : undefined) ?? EpisodeClock.start(id, steps + 1);
    this.clock = clock;
    // After a reload the page's loading is part of the `reload` pause, until the task is on screen.
    if (resumed) void taskOnScreen(session.env.id).then(() => clock.shown());
    session.onAct = () => clock.sent();
    this.stopWatching = watchClock(clock, { idleMs: this.idleMs });
    let finished = false;
    const subscription = session.episode.subscribe((snapshot) => {
      if (finished) return;
      const n = snapshot.context.history.length;
      if (snapshot.status === 'done') {
        finished = true;
        this.stopWatching?.();
        this.stopWatching = null;
        void session.flushed().then(() => new Promise((r) => setTimeout(r, 0))).then(() => session.flushed()).then(() => patchHeader(id, (h) => ({ ...h, ...clock.finish() }))).catch(() => {});
      } else if (n > steps) {
        steps = n;
        void session.flushed().then(() => patchHeader(id, (h) => ({ ...h, ...clock.summary() }))).catch(() => {});
      }
    });
    this.unsubscribe = () => subscription.unsubscribe();
  }

  detach(): void {
    this.stopWatching?.();
    this.unsubscribe?.();
    this.stopWatching = this.unsubscribe = null;
  }
}
