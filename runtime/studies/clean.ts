/**
 * The researcher's side of a study: participants' result files merged, who finished
 * what, exclusions (each with its reason), and the clean episode set handed onward
 * (to scoring) without a spreadsheet step.
 */
import type { EpisodeRecord } from '../records.ts';

/** An exclusion the researcher marked: a whole participant, or one episode. */
export interface Exclusion {
  /** `participant:<id>` or `episode:<id>`. */
  key: string;
  reason: string;
  at: string;
}

export const participantKey = (id: string): string => `participant:${id}`;
export const episodeKey = (id: string): string => `episode:${id}`;

export interface ParticipantSummary {
  participant: string;
  studies: string[];
  episodes: number;
  finished: number;
  practice: number;
  /** Finished scored episodes per task, and the highest attempt number seen. */
  tasks: Record<string, { finished: number; attempts: number }>;
  activeMs: number;
  pauses: number;
  signals: Record<string, number>;
  prolific?: string;
}

/** Who played what, one row per participant (episodes without a participant are grouped under "(none)"). */
export function summarise(records: readonly EpisodeRecord[]): ParticipantSummary[] {
  const rows = new Map<string, ParticipantSummary>();
  for (const { header } of records) {
    const id = header.participant ?? '(none)';
    let row = rows.get(id);
    if (!row) {
      row = { participant: id, studies: [], episodes: 0, finished: 0, practice: 0, tasks: {}, activeMs: 0, pauses: 0, signals: {} };
      rows.set(id, row);
    }
    row.episodes++;
    if (header.study && !row.studies.includes(header.study.id)) row.studies.push(header.study.id);
    if (header.study?.prolific?.PROLIFIC_PID) row.prolific = header.study.prolific.PROLIFIC_PID;
    if (header.practice) row.practice++;
    if (header.outcome) row.finished++;
    if (!header.practice) {
      const t = (row.tasks[header.task] ??= { finished: 0, attempts: 0 });
      if (header.outcome) t.finished++;
      t.attempts = Math.max(t.attempts, header.attempt ?? 1);
    }
    row.activeMs += header.time?.activeMs ?? 0;
    row.pauses += header.pauses?.length ?? 0;
    for (const s of header.signals ?? []) row.signals[s.kind] = (row.signals[s.kind] ?? 0) + 1;
  }
  return [...rows.values()].sort((a, b) => a.participant.localeCompare(b.participant));
}

/** Merge result files: one record per episode id (the one with more steps, or finished, wins). */
export function mergeRecords(files: readonly (readonly EpisodeRecord[])[]): EpisodeRecord[] {
  const byId = new Map<string, EpisodeRecord>();
  for (const file of files) {
    for (const r of file) {
      const had = byId.get(r.header.id);
      if (!had || (!had.header.outcome && r.header.outcome) || (!!had.header.outcome === !!r.header.outcome && r.steps.length > had.steps.length)) byId.set(r.header.id, r);
    }
  }
  return [...byId.values()];
}

/**
 * The clean set: finished, scored (not practice) episodes of participants and episodes
 * not excluded. `study` narrows it to one study.
 */
export function cleanEpisodeSet(records: readonly EpisodeRecord[], exclusions: readonly Exclusion[], study?: string): EpisodeRecord[] {
  const excluded = new Set(exclusions.map((e) => e.key));
  return records.filter(({ header }) => {
    if (!header.outcome || header.practice) return false;
    if (study !== undefined && header.study?.id !== study) return false;
    return !isExcluded(header, excluded);
  });
}

/** Whether the researcher excluded this episode, or the whole participant who played it (keys as in Exclusion). */
export function isExcluded(header: { id: string; participant?: string }, excludedKeys: ReadonlySet<string>): boolean {
  if (excludedKeys.has(episodeKey(header.id))) return true;
  return !!header.participant && excludedKeys.has(participantKey(header.participant));
}

/** The ids of the episodes the researcher's exclusions leave out (for scoring: they show as "excluded"). */
export function excludedEpisodeIds(records: readonly EpisodeRecord[], exclusions: readonly Exclusion[]): Set<string> {
  const keys = new Set(exclusions.map((e) => e.key));
  return new Set(records.filter((r) => isExcluded(r.header, keys)).map((r) => r.header.id));
}
