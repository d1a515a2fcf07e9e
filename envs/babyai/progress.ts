/**
 * AgentBoard's progress rate for BabyAI (README.md, Upstream; ../core/README.md, "AgentBoard subgoals"): subgoal
 * patterns matched against the observation after each executed action, at most one
 * subgoal credited per step. A problem has one list of patterns, or several
 * alternative lists (test.jsonl `subgoals`, `subgoals_1`, …) that advance together.
 * The pattern matcher and the one-per-step rule live in envs/core/subgoals.ts (shared
 * with the annotation runtime); this file keeps AgentBoard's list bookkeeping.
 */
import { firstFiring, matchStyle } from '../core/subgoals.ts';

export { matchStyle };

export interface ProgressState {
  /** Remaining patterns: one list, or the alternative lists. */
  readonly lists: readonly (readonly string[])[];
  readonly multi: boolean;
  /** Number of subgoals (the first list's length at the start). */
  readonly total: number;
  readonly points: number;
  readonly progress: number;
}

export function initProgress(lists: readonly (readonly string[])[], multi: boolean): ProgressState {
  const first = lists[0] ?? [];
  return { lists: lists.map((l) => [...l]), multi, total: first.length, points: 0, progress: 0 };
}

/** Python's list.remove(value): drop the first equal element. */
function removeFirst(list: string[], value: string): void {
  const k = list.indexOf(value);
  if (k >= 0) list.splice(k, 1);
}

/** update_reward: credit at most one subgoal matched by this observation. */
export function updateProgress(s: ProgressState, observation: string): ProgressState {
  if (s.lists.length === 0) return s;
  const lists = s.lists.map((l) => [...l]);
  let matched = false;
  if (s.multi) {
    const length = lists[0].length;
    for (let i = 0; i < length && !matched; i++) {
      // AgentBoard indexes every list at i (the alternative lists have equal lengths in the data).
      if (lists.some((l) => i < l.length && matchStyle(observation, l[i]))) {
        matched = true;
        for (const l of lists) if (i < l.length) removeFirst(l, l[i]);
      }
    }
  } else {
    const list = lists[0];
    const k = firstFiring(list, (p) => matchStyle(observation, p));
    if (k >= 0) {
      matched = true;
      list.splice(k, 1);
    }
  }
  if (!matched) return s;
  const points = s.points + 1;
  return { lists, multi: s.multi, total: s.total, points, progress: Math.max(s.progress, points / s.total) };
}
