/**
 * Play a list of actions headless through the episode machine and return the episode
 * record, as the app would have recorded it (tests, benchmarks, the demo build's fixtures).
 */
import { getTask, loadEnv } from '../envs/index.ts';
import { playActions, startEpisode, stopEpisode, whenIdle } from '../envs/core/runner.ts';
import { actorOf, recordOfEpisode, type DriverInfo, type EpisodeRecord } from './records.ts';

export async function recordActions(
  envId: string,
  taskId: string,
  seed: number,
  actions: Iterable<string>,
  options: { id?: string; driver?: DriverInfo; at?: string; maxSteps?: number } = {},
): Promise<EpisodeRecord> {
  const env = await loadEnv(envId);
  const task = getTask(env, taskId);
  const driver = options.driver ?? { kind: 'script', name: 'script' };
  const episode = startEpisode(env, task, { seed, maxSteps: options.maxSteps });
  await whenIdle(episode);
  const at = options.at ?? new Date().toISOString();
  const id = options.id ?? crypto.randomUUID();
  await playActions(episode, [...actions], undefined, { actor: actorOf(driver) });
  const snapshot = await whenIdle(episode);
  stopEpisode(episode);
  const outcome = snapshot.status === 'done' ? snapshot.output! : undefined;
  return recordOfEpisode(snapshot.context, { id, driver, appVersion: 'test', startedAt: at, endedAt: at, outcome });
}
