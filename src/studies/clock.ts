/**
 * The episode clock of a person's play: when each observation was shown, when each
 * action was sent, and the pauses in between (typed: hidden tab, idle, Pause button,
 * model call, reload). Its state is saved synchronously (localStorage) on every change
 * and every second, so a reload or crash resumes with the clock right: from the page
 * going away until the task is shown again (the new page's loading included) is one
 * `reload` pause.
 */
import type { Pause, PauseReason, Signal, StepTiming } from '../../runtime/records.ts';
import { closeOpen, netMs, stepTiming } from '../../runtime/studies/timing.ts';

export interface OpenPause {
  reason: PauseReason;
  from: number;
  step: number;
}

export interface ClockState {
  episodeId: string;
  /** When the task was first shown. */
  shownAt: number;
  /** The step being thought about (1-based) and when its observation was shown. */
  step: number;
  stepShownAt: number;
  /** When the pending action was sent (between ACT and its step record). */
  sentAt?: number;
  pauses: Pause[];
  open: OpenPause[];
  signals: Signal[];
  /** Last moment the page was known to be alive (heartbeat), for crashes without a pagehide. */
  aliveAt: number;
}

export interface ClockStorage {
  load(episodeId: string): ClockState | undefined;
  save(state: ClockState): void;
  remove(episodeId: string): void;
}

const PREFIX = 'agentplay.clock.';

/** localStorage: synchronous, so the state written on pagehide survives the reload. */
export const localClockStorage: ClockStorage = {
  load(id) {
    try {
      const raw = localStorage.getItem(PREFIX + id);
      return raw ? (JSON.parse(raw) as ClockState) : undefined;
    } catch {
      return undefined;
    }
  },
  save(state) {
    try {
      localStorage.setItem(PREFIX + state.episodeId, JSON.stringify(state));
    } catch {
      // storage full or disabled: the header still gets the figures at each step
    }
  },
  remove(id) {
    try {
      localStorage.removeItem(PREFIX + id);
    } catch {
      // nothing to do
    }
  },
};

export class EpisodeClock {
  state: ClockState;
  private readonly now: () => number;
  private readonly storage: ClockStorage | null;
  /** Called after every change (the timer and the study bar re-render). */
  onChange: (() => void) | null = null;

  constructor(state: ClockState, options: { now?: () => number; storage?: ClockStorage | null } = {}) {
    this.state = state;
    this.now = options.now ?? Date.now;
    this.storage = options.storage === undefined ? localClockStorage : options.storage;
  }

  /** A clock that starts now: the task is being shown for the first time, at step `step`. */
  static start(episodeId: string, step = 1, options: { now?: () => number; storage?: ClockStorage | null } = {}): EpisodeClock {
    const now = (options.now ?? Date.now)();
    const clock = new EpisodeClock({ episodeId, shownAt: now, step, stepShownAt: now, pauses: [], open: [], signals: [], aliveAt: now }, options);
    clock.save();
    return clock;
  }

  /**
   * The clock saved for this episode, picked up after a reload: a `reload` pause runs from the
   * page going away (its pagehide, or the last heartbeat after a crash) and stays open until
   * shown() says the task is on screen again, so the new page's loading is not think time.
   * Hidden, idle and model pauses end where the page went away; a Pause-button pause stays open
   * (the task stays hidden).
   */
  static restore(episodeId: string, step: number, options: { now?: () => number; storage?: ClockStorage | null } = {}): EpisodeClock | undefined {
    const storage = options.storage === undefined ? localClockStorage : options.storage;
    const saved = storage?.load(episodeId);
    if (!saved) return undefined;
    const clock = new EpisodeClock(saved, options);
    const now = clock.now();
    const s = clock.state;
    if (!s.open.some((o) => o.reason === 'reload')) s.open.push({ reason: 'reload', from: Math.min(now, s.aliveAt), step: s.step });
    const away = s.open.find((o) => o.reason === 'reload')!.from;
    for (const reason of ['hidden', 'idle', 'model'] as const) clock.resume(reason, away);
    if (step !== s.step) {
      // The stored steps are the truth: a step recorded after the last save moves the clock on.
      s.step = step;
      s.stepShownAt = now;
    }
    s.sentAt = undefined;
    clock.save();
    return clock;
  }

  private save(): void {
    this.storage?.save(this.state);
    this.onChange?.();
  }

  isPaused(reason?: PauseReason): boolean {
    return reason ? this.state.open.some((o) => o.reason === reason) : this.state.open.length > 0;
  }

  /** Start a pause (no-op if one with this reason is already open). `at` may be in the past (idle began then). */
  pause(reason: PauseReason, at = this.now()): void {
    if (this.isPaused(reason)) return;
    this.state.open.push({ reason, from: at, step: this.state.step });
    this.save();
  }

  resume(reason: PauseReason, at = this.now()): void {
    const i = this.state.open.findIndex((o) => o.reason === reason);
    if (i < 0) return;
    const [o] = this.state.open.splice(i, 1);
    if (at > o.from) this.state.pauses.push({ reason, from: o.from, to: at, step: o.step });
    this.save();
  }

  /** The task is on screen again after a reload: the `reload` pause ends. */
  shown(at = this.now()): void {
    this.resume('reload', at);
  }

  signal(kind: Signal['kind'], detail?: string): void {
    const s: Signal = { kind, at: this.now(), step: this.state.step };
    if (detail !== undefined) s.detail = detail;
    this.state.signals.push(s);
    this.save();
  }

  /** Heartbeat: the page is alive (saved, so a crash loses at most a second of the record). */
  alive(): void {
    this.state.aliveAt = this.now();
    this.storage?.save(this.state);
  }

  /** The person sent an action. */
  sent(at = this.now()): void {
    this.state.sentAt = at;
    this.storage?.save(this.state);
  }

  /** The step `t` was recorded: its timing, and the clock moves to the next observation (shown now). */
  stepDone(t: number): StepTiming {
    const now = this.now();
    const sentAt = this.state.sentAt ?? now;
    const timing = stepTiming(this.state.stepShownAt, sentAt, this.allPauses(sentAt));
    this.state.step = t + 1;
    this.state.stepShownAt = now;
    this.state.sentAt = undefined;
    this.save();
    return timing;
  }

  /** Every pause so far, open ones closed at `at`. */
  allPauses(at = this.now()): Pause[] {
    return closeOpen(this.state.pauses, this.state.open, at);
  }

  /** Time on task net of pauses, from first shown to `at`. */
  activeMs(at = this.now()): number {
    return netMs(this.state.shownAt, at, this.allPauses(at));
  }

  /** The episode's figures for its header. */
  summary(at = this.now()): { time: { shownAt: number; activeMs: number; wallMs: number }; pauses: Pause[]; signals: Signal[] } {
    return {
      time: { shownAt: this.state.shownAt, activeMs: Math.round(this.activeMs(at)), wallMs: Math.max(0, at - this.state.shownAt) },
      pauses: this.allPauses(at),
      signals: [...this.state.signals],
    };
  }

  /** The episode ended: close every pause and forget the saved state. */
  finish(at = this.now()): ReturnType<EpisodeClock['summary']> {
    for (const o of [...this.state.open]) this.resume(o.reason, at);
    const out = this.summary(at);
    this.storage?.remove(this.state.episodeId);
    return out;
  }
}
