/**
 * Resuming a run from its output file: which (task, seed) pairs it already holds complete, and
 * what the file should hold before new episodes are appended. A run killed mid-write can leave
 * half a line at the end; an episode stopped by an infrastructure failure is to be played again.
 * Both are dropped, so after the resumed run the file holds every pair exactly once.
 */
import { parseJsonl } from '../jsonl.ts';
import type { EpisodeRecord } from '../records.ts';
import { unitKey } from './plan.ts';

export interface ResumeState {
  /** Keys (`env/task/seed`) of complete episodes: skipped by the resumed run. */
  done: Set<string>;
  /** The episodes to keep, in file order (complete ones). */
  kept: EpisodeRecord[];
  /** Infrastructure failures dropped from the file (played again). */
  retried: number;
  /** Whether the file needs rewriting before appending (a partial last line, dropped failures). */
  rewrite: boolean;
  /** Who played the kept episodes (`kind:name`), to refuse mixing another player into the file. */
  players: Set<string>;
}

export function playerKey(driver: { kind: string; name?: string }): string {
  return `${driver.kind}:${driver.name ?? ''}`;
}

/** Reads an output file's text (the app's JSON Lines export, one episode per line). */
export function resumeState(text: string): ResumeState {
  // Everything up to the last newline is whole lines; anything after it was cut off mid-write.
  const end = text.lastIndexOf('\n') + 1;
  const whole = text.slice(0, end);
  const partial = text.slice(end).trim() !== '';
  const records = whole.trim() === '' ? [] : parseJsonl(whole);
  const done = new Set<string>();
  const kept: EpisodeRecord[] = [];
  const players = new Set<string>();
  let retried = 0;
  let duplicates = 0;
  for (const r of records) {
    const h = r.header;
    if (h.infraError || !h.outcome) {
      retried++;
      continue;
    }
    const key = unitKey(h.env, h.task, h.seed);
    // The same pair twice (two shard files concatenated by hand into one output): kept once.
    if (done.has(key)) {
      duplicates++;
      continue;
    }
    done.add(key);
    kept.push(r);
    players.add(playerKey(h.driver));
  }
  return { done, kept, retried, rewrite: partial || retried > 0 || duplicates > 0, players };
}
