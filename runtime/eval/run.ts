/**
 * Plays a list of episodes with at most `concurrency` in flight: the model endpoint is the
 * bottleneck (environments step in microseconds to milliseconds), so many episodes wait on it
 * at once. Each episode is played by the shared loop (runEpisodes) on the one episode machine
 * and handed to `write` as a record the moment it ends, so a stopped run loses only the
 * episodes in flight.
 *
 * An episode the driver could not finish because of the infrastructure (the endpoint still
 * failing after the client's retries, the network, an environment error) is written without an
 * outcome and with `header.infraError`: not scored as the player's failure, and played again by
 * a resumed run. A refused key stops the run (every further call would be refused too), and so
 * do `stopAfterFailures` infrastructure failures in a row (the endpoint is down: resume later).
 */
import { startEpisode, whenIdle } from '../../envs/core/runner.ts';
import type { EpisodeActor } from '../../envs/core/episode.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import type { Driver } from '../drivers/driver.ts';
import { ModelError } from '../models/types.ts';
import { recordOfEpisode, type EpisodeHeader, type EpisodeRecord } from '../records.ts';
import { runEpisodes, type EpisodeRun } from '../runEpisodes.ts';
import type { EvalUnit } from './plan.ts';

export type InfraError = NonNullable<EpisodeHeader['infraError']>;

export interface FinishedEpisode {
  unit: EvalUnit;
  record: EpisodeRecord;
  /** Set when the episode stopped for an infrastructure reason (not scored; resume plays it again). */
  infraError?: InfraError;
}

export interface EvalRunOptions {
  units: readonly EvalUnit[];
  driverFor(env: EnvDefinition, task: TaskInfo, seed: number): Driver;
  /** Episodes in flight at most (default 1). */
  concurrency?: number;
  appVersion: string;
  maxSteps?: number;
  /** Aborting stops the run: episodes in flight are dropped (not written), none are started. */
  signal?: AbortSignal;
  /** Called once per finished episode, in the order they finish (append it to the output). */
  write(episode: FinishedEpisode): void;
  /** Infrastructure failures in a row that stop the run (default max(4, concurrency)). */
  stopAfterFailures?: number;
}

export interface EvalRunResult {
  /** Episodes written, and how many of them are infrastructure failures. */
  written: number;
  failures: number;
  /** Why the run ended early, or null when every unit was played. */
  stopped: null | { reason: 'aborted' | 'auth' | 'failing'; message: string };
}

/** Model errors that are the endpoint's or the network's doing; anything else a driver reports is the environment's. */
function infraErrorOf(error: Error): InfraError {
  return { kind: error instanceof ModelError ? error.kind : 'environment', message: error.message };
}

/** The episode as one record: with its outcome, or (an infrastructure failure) with `infraError` and none. */
function recordOf(actor: EpisodeActor, driver: Driver, appVersion: string, startedAt: string, infraError?: InfraError): EpisodeRecord {
  const final = actor.getSnapshot();
  const outcome = infraError ? undefined : final.output;
  const record = recordOfEpisode(final.context, { id: globalThis.crypto.randomUUID(), driver: driver.info, appVersion, startedAt, endedAt: new Date().toISOString(), outcome });
  if (infraError) record.header.infraError = infraError;
  return record;
}

export async function runEval(options: EvalRunOptions): Promise<EvalRunResult> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const stopAfter = options.stopAfterFailures ?? Math.max(4, concurrency);
  // The run's own stop (a refused key, a dead endpoint) aborts the episodes in flight like the caller's signal.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  // Each episode listens on its own signal, all aborted by one listener here (not one listener per episode on the run's).
  const inFlight = new Set<AbortController>();
  signal.addEventListener('abort', () => inFlight.forEach((c) => c.abort()), { once: true });
  const result: EvalRunResult = { written: 0, failures: 0, stopped: null };
  let inARow = 0;
  let next = 0;

  const halt = (reason: 'auth' | 'failing', message: string) => {
    if (!result.stopped) result.stopped = { reason, message };
    stop.abort();
  };

  const play = async (unit: EvalUnit): Promise<void> => {
    const startedAt = new Date().toISOString();
    const driver = options.driverFor(unit.env, unit.task, unit.seed);
    const episodeAbort = new AbortController();
    inFlight.add(episodeAbort);
    let opened: EpisodeActor | undefined;
    let finished: FinishedEpisode | undefined;
    const record = (actor: EpisodeActor, error?: Error) => {
      const infraError = error ? infraErrorOf(error) : undefined;
      // Ended by its rules, or the driver had nothing more to give (a policy without a plan): the player's result.
      if (!infraError && actor.getSnapshot().status === 'active') actor.send({ type: 'GIVE_UP' });
      finished = { unit, record: recordOf(actor, driver, options.appVersion, startedAt, infraError), infraError };
    };
    try {
      await runEpisodes({
        seeds: [unit.seed],
        // Decided per episode in close: an infrastructure failure is recorded as it stands, not given up.
        unfinished: 'leave-open',
        signal: episodeAbort.signal,
        driverFor: () => driver,
        open: async (seed) => {
          opened = startEpisode(unit.env, unit.task, { seed, maxSteps: options.maxSteps });
          // A reset that fails ends the episode as Task Error, which the benchmark's table counts.
          await whenIdle(opened);
          return opened;
        },
        close: ({ actor, result: ran }: EpisodeRun) => {
          if (ran.stop !== 'aborted') record(actor, ran.stop === 'error' ? ran.error : undefined); // aborted: in flight, not written
        },
      });
    } catch (err) {
      // The driver or the environment threw: recorded as an infrastructure failure, played again on resume.
      if (!opened) throw err;
      if (!signal.aborted) record(opened, err instanceof Error ? err : new Error(String(err)));
    } finally {
      inFlight.delete(episodeAbort);
      // Release what the environment holds (a shell, a database) whatever happened.
      if (opened?.getSnapshot().status === 'active') opened.send({ type: 'GIVE_UP' });
    }
    if (!finished) return;
    options.write(finished);
    result.written++;
    if (finished.infraError) {
      result.failures++;
      inARow++;
      if (finished.infraError.kind === 'auth') halt('auth', finished.infraError.message);
      else if (inARow >= stopAfter) halt('failing', `${inARow} episodes in a row stopped by infrastructure failures; the last: ${finished.infraError.message}`);
    } else inARow = 0;
  };

  const worker = async () => {
    while (!signal.aborted && next < options.units.length) await play(options.units[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, options.units.length) }, worker));
  if (!result.stopped && options.signal?.aborted) result.stopped = { reason: 'aborted', message: 'stopped before every episode was played' };
  return result;
}
