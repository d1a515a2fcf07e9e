/**
 * A Watch batch: many episodes (task × seed) played by a driver with up to `concurrency`
 * of them in flight, so a model endpoint is kept busy instead of waiting on one episode at a
 * time. Each episode goes through runEpisodes (the loop the single Watch run and the CLI use)
 * and is recorded by whatever `open` starts (the app: a PlaySession and its recorder).
 *
 * Pause holds every driver before its next action and starts no new episode; resume lets them
 * go on; stop aborts the drivers and leaves the episodes in flight open (stored, resumable by
 * hand). A failing episode (a model error) is counted as an error and the others carry on.
 */
import type { EpisodeActor, EpisodeOutput } from '../../envs/core/episode.ts';
import { StepGate } from '../../runtime/drivers/common.ts';
import { RecordingGate } from '../lib/session.svelte.ts';
import type { Driver } from '../../runtime/drivers/driver.ts';
import { isModelError } from '../../runtime/models/types.ts';
import { runEpisodes } from '../../runtime/runEpisodes.ts';
import type { BatchJob } from './taskSets.ts';

export type EpisodeStatus = 'waiting' | 'running' | 'done' | 'error' | 'stopped';

export interface BatchEpisode {
  job: BatchJob;
  status: EpisodeStatus;
  /** The stored episode's id, once opened. */
  episodeId?: string;
  steps: number;
  output?: EpisodeOutput;
  /** Why it failed (status 'error') or how the driver stopped ('stopped'). */
  note?: string;
}

/** An episode opened for the batch: its actor, its id in the store, and how to close it. */
export interface OpenedEpisode {
  actor: EpisodeActor;
  episodeId: string;
  /** Resolves when everything it recorded is written. */
  flushed(): Promise<void>;
  /** Resolves true once the recorder has room for the next step (false: recording stopped). */
  room(): Promise<boolean>;
  dispose(): void;
}

export interface BatchOptions {
  jobs: readonly BatchJob[];
  concurrency: number;
  driverFor(job: BatchJob): Driver;
  open(job: BatchJob, driver: Driver): Promise<OpenedEpisode>;
  /** Called after every change (an episode started, stepped, ended; pause, resume). */
  onChange?(): void;
  /** A model's reply so far, as it streams. */
  onDelta?(text: string): void;
  /** After each step of any episode (e.g. to read an engine's tokens/s). */
  onStep?(): void;
}

export interface BatchProgress {
  total: number;
  done: number;
  errors: number;
  stopped: number;
  running: number;
  /** Finished episodes per minute of running time (paused time left out); null before the first. */
  perMinute: number | null;
  /** Milliseconds left at that rate; null before the first finished episode. */
  etaMs: number | null;
  paused: boolean;
  /** Stop was pressed. */
  stopping: boolean;
  /** True once every episode has ended or the batch was stopped and its drivers have returned. */
  over: boolean;
}

export class BatchRun {
  readonly episodes: BatchEpisode[];
  readonly concurrency: number;
  private readonly options: BatchOptions;
  private readonly gate = new StepGate();
  private readonly controller = new AbortController();
  private next = 0;
  private startedAt = 0;
  private pausedAt: number | null = null;
  private pausedMs = 0;
  private finished = false;

  constructor(options: BatchOptions) {
    this.options = options;
    this.concurrency = Math.max(1, Math.floor(options.concurrency));
    this.episodes = options.jobs.map((job) => ({ job, status: 'waiting', steps: 0 }));
  }

  get paused(): boolean {
    return this.gate.isPaused;
  }

  get stopping(): boolean {
    return this.controller.signal.aborted;
  }

  pause(): void {
    if (this.finished || this.stopping) return;
    this.gate.pause();
    this.pausedAt ??= performance.now();
    this.changed();
  }

  resume(): void {
    if (this.pausedAt !== null) this.pausedMs += performance.now() - this.pausedAt;
    this.pausedAt = null;
    this.gate.resume();
    this.changed();
  }

  /** Stops the drivers; episodes in flight stay open in the store, the rest are not started. */
  stop(): void {
    this.resume();
    this.controller.abort();
    this.changed();
  }

  progress(): BatchProgress {
    const count = (s: EpisodeStatus) => this.episodes.filter((e) => e.status === s).length;
    const done = count('done');
    const ended = done + count('error');
    const now = this.pausedAt ?? performance.now();
    const activeMs = this.startedAt ? now - this.startedAt - this.pausedMs : 0;
    const perMinute = ended > 0 && activeMs > 0 ? (ended / activeMs) * 60_000 : null;
    const left = this.episodes.length - ended - count('stopped');
    return {
      total: this.episodes.length,
      done,
      errors: count('error'),
      stopped: count('stopped'),
      running: count('running'),
      perMinute,
      etaMs: perMinute ? (left / perMinute) * 60_000 : null,
      paused: this.paused,
      stopping: this.stopping,
      over: this.finished,
    };
  }

  /** Plays every episode; resolves when all have ended or the batch was stopped. */
  async run(): Promise<void> {
    this.startedAt = performance.now();
    const workers = Array.from({ length: Math.min(this.concurrency, this.episodes.length) }, () => this.work());
    await Promise.all(workers);
    this.finished = true;
    this.changed();
  }

  private changed(): void {
    this.options.onChange?.();
  }

  /** One slot: takes the next waiting episode until none is left. */
  private async work(): Promise<void> {
    const signal = this.controller.signal;
    while (this.next < this.episodes.length) {
      // Paused: start nothing new until resumed (or stopped).
      if (!(await this.gate.wait(signal))) return;
      if (this.next >= this.episodes.length) return;
      const episode = this.episodes[this.next++];
      await this.play(episode);
      if (signal.aborted) return;
    }
  }

  private async play(episode: BatchEpisode): Promise<void> {
    const { job } = episode;
    const signal = this.controller.signal;
    let opened: OpenedEpisode | null = null;
    episode.status = 'running';
    this.changed();
    try {
      const [run] = await runEpisodes({
        seeds: [job.seed],
        unfinished: 'leave-open',
        signal,
        // Each episode's driver waits for its recorder (issue 16) and for the batch's pause.
        gate: new RecordingGate(() => opened, this.gate),
        onDelta: this.options.onDelta,
        onStep: () => {
          episode.steps++;
          this.options.onStep?.();
          this.changed();
        },
        driverFor: () => this.options.driverFor(job),
        open: async (_seed, driver) => {
          opened = await this.options.open(job, driver);
          episode.episodeId = opened.episodeId;
          return opened.actor;
        },
        close: async () => {
          await opened?.flushed();
        },
      });
      if (!run) episode.status = 'stopped';
      else if (run.output) {
        episode.status = 'done';
        episode.output = run.output;
      } else if (run.result.stop === 'error' && run.result.error) {
        const err = run.result.error;
        episode.status = 'error';
        episode.note = isModelError(err) ? `${err.message} (${err.kind})` : err.message;
      } else {
        episode.status = 'stopped';
        episode.note = run.result.stop === 'aborted' ? 'stopped; open in Episodes to carry on' : `the driver stopped (${run.result.stop})`;
      }
    } catch (err) {
      episode.status = 'error';
      episode.note = err instanceof Error ? err.message : String(err);
    } finally {
      (opened as OpenedEpisode | null)?.dispose();
      this.changed();
    }
  }
}
