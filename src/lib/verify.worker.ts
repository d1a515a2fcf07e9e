/// <reference lib="webworker" />
/**
 * Verifies replays off the main thread: each message is an episode record, each answer
 * its verdict (runtime/verify.ts). Environments load here as in the page.
 */
import { registerEnv } from '../../envs/index.ts';
import extraEnvs from 'virtual:extra-envs';
import { verifyEpisode } from '../../runtime/verify.ts';
import { loadEnvWithTasks } from './importedTasks.ts';
import type { EpisodeRecord } from '../../runtime/records.ts';

// The same environments as the page (vite.config.ts extraEnvs).
for (const line of extraEnvs) registerEnv(line);

self.onmessage = async (event: MessageEvent<{ id: number; record: EpisodeRecord }>) => {
  // Imported task files kept in this browser are registered here too, so their episodes verify.
  const verdict = await verifyEpisode(event.data.record, { loadEnv: loadEnvWithTasks });
  (self as unknown as Worker).postMessage({ id: event.data.id, verdict });
};
