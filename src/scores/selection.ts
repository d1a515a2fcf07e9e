/**
 * Which episodes the scores view scores: the filter (environment, task, who played, model,
 * participant, study, dates) and the choices it offers (facets of the loaded episodes). Pure, so
 * the Web Worker and unit tests share it.
 */
import type { EpisodeHeader } from '../../runtime/records.ts';

/** The header fields the filter reads: a whole header has them, and so does the worker's slim copy. */
export type FilterFields = Pick<EpisodeHeader, 'env' | 'task' | 'driver' | 'startedAt' | 'participant'> & {
  study?: { id: string; title: string };
  /** Its replay differed from the record when verified (header.verification). */
  failedVerification?: boolean;
};

export type PlayerKind = 'human' | 'model' | 'random' | 'oracle' | 'script';

export interface EpisodeFilter {
  /** Each list empty = no restriction. */
  envs: string[];
  /** "env/task" keys. */
  tasks: string[];
  kinds: PlayerKind[];
  models: string[];
  participants: string[];
  /** A study's id (header.study.id): only the episodes recorded in it; absent = any. */
  study?: string;
  /** Inclusive day bounds, YYYY-MM-DD, on the episode's start (UTC). */
  from?: string;
  to?: string;
  /** Leave out the episodes that failed verification (their scores are not trustworthy). */
  withoutFailedVerification?: boolean;
}

export const NO_FILTER: EpisodeFilter = { envs: [], tasks: [], kinds: [], models: [], participants: [] };

export interface Facets {
  episodes: number;
  envs: string[];
  tasks: string[];
  kinds: PlayerKind[];
  models: string[];
  participants: string[];
  /** The studies episodes were recorded in, by title. */
  studies: { id: string; title: string }[];
  /** First and last start day (YYYY-MM-DD), or null without episodes. */
  days: [string, string] | null;
  /** How many of the episodes failed verification. */
  failedVerification: number;
}

/** The kind of player an episode counts for, as the scores module groups it (its main driver). */
export function playerKind(h: FilterFields): PlayerKind {
  return h.driver.kind as PlayerKind;
}

function participantOf(h: FilterFields): string | undefined {
  const p = (h as { participant?: unknown }).participant;
  return typeof p === 'string' ? p : undefined;
}

const day = (iso: string) => iso.slice(0, 10);
const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));

export function facetsOf(records: readonly { header: FilterFields }[]): Facets {
  const envs = new Set<string>();
  const tasks = new Set<string>();
  const kinds = new Set<string>();
  const models = new Set<string>();
  const participants = new Set<string>();
  const studies = new Map<string, string>();
  let first: string | null = null;
  let last: string | null = null;
  let failedVerification = 0;
  for (const { header: h } of records) {
    if (h.failedVerification) failedVerification++;
    envs.add(h.env);
    tasks.add(`${h.env}/${h.task}`);
    kinds.add(playerKind(h));
    if (h.driver.kind === 'model' && h.driver.name) models.add(h.driver.name);
    const p = participantOf(h);
    if (p !== undefined) participants.add(p);
    if (h.study && !studies.has(h.study.id)) studies.set(h.study.id, h.study.title);
    const d = day(h.startedAt);
    if (first === null || d < first) first = d;
    if (last === null || d > last) last = d;
  }
  return {
    episodes: records.length,
    envs: sorted(envs),
    tasks: sorted(tasks),
    kinds: sorted(kinds) as PlayerKind[],
    models: sorted(models),
    participants: sorted(participants),
    studies: [...studies].map(([id, title]) => ({ id, title })).sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id)),
    days: first && last ? [first, last] : null,
    failedVerification,
  };
}

/** Whether an episode passes the filter. */
export function matches(h: FilterFields, f: EpisodeFilter): boolean {
  if (f.envs.length && !f.envs.includes(h.env)) return false;
  if (f.tasks.length && !f.tasks.includes(`${h.env}/${h.task}`)) return false;
  if (f.kinds.length && !f.kinds.includes(playerKind(h))) return false;
  if (f.models.length && !(h.driver.kind === 'model' && h.driver.name && f.models.includes(h.driver.name))) return false;
  if (f.participants.length) {
    const p = participantOf(h);
    if (p === undefined || !f.participants.includes(p)) return false;
  }
  if (f.study !== undefined && h.study?.id !== f.study) return false;
  if (f.withoutFailedVerification && h.failedVerification) return false;
  const d = day(h.startedAt);
  if (f.from && d < f.from) return false;
  if (f.to && d > f.to) return false;
  return true;
}

/** A short description of the filter for captions and file names ("all episodes" without one); `studyTitle` names the study. */
export function describeFilter(f: EpisodeFilter, studyTitle?: string): string {
  const parts: string[] = [];
  if (f.envs.length) parts.push(`env ${f.envs.join(', ')}`);
  if (f.tasks.length) parts.push(`task ${f.tasks.join(', ')}`);
  if (f.kinds.length) parts.push(`player ${f.kinds.join(', ')}`);
  if (f.models.length) parts.push(`model ${f.models.join(', ')}`);
  if (f.participants.length) parts.push(`participant ${f.participants.join(', ')}`);
  if (f.study !== undefined) parts.push(`study ${studyTitle ?? f.study}`);
  if (f.from || f.to) parts.push(`${f.from ?? '…'} to ${f.to ?? '…'}`);
  if (f.withoutFailedVerification) parts.push('without episodes that failed verification');
  return parts.length ? parts.join('; ') : 'all episodes';
}
