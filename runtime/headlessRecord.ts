/**
 * The record of an episode played headless (the CLI's `run`, `reference`, `eval`), built from
 * its actor's final snapshot: every step as played, and the outcome once it ended. An episode
 * stopped by an infrastructure failure gets `infraError` and no outcome (it is not scored).
 */
import type { EpisodeActor } from '../envs/core/episode.ts';
import { episodeHeader, toStepRecord, withActor, type DriverInfo, type EpisodeHeader, type EpisodeRecord } from './records.ts';

export function headlessRecord(
  actor: EpisodeActor,
  fields: { driver: DriverInfo; appVersion: string; startedAt: string; infraError?: EpisodeHeader['infraError'] },
): EpisodeRecord {
  const final = actor.getSnapshot();
  const id = globalThis.crypto.randomUUID();
  const now = new Date().toISOString();
  const header = episodeHeader(final.context, { id, driver: fields.driver, view: 'text', appVersion: fields.appVersion, startedAt: fields.startedAt });
  const steps = final.context.history.map((h) => toStepRecord(id, h, 'text', now));
  const actors = steps.reduce((list, st) => withActor(list, st.actor), header.actors);
  const done: EpisodeRecord['header'] = { ...header, actors, updatedAt: now };
  if (fields.infraError) done.infraError = fields.infraError;
  else if (final.status === 'done') Object.assign(done, { endedAt: now, outcome: final.output });
  return { header: done, steps };
}
