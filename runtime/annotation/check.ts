/**
 * Checking a set's subgoals against the stored episodes (issue 29 §1): where each one's
 * matcher holds (on the steps the benchmark scores), which subgoals hold on exactly the
 * same steps (duplicates) or first hold at the same step everywhere (they compete for one
 * credit: with one subgoal credited per step, one of them is pushed later), where a subgoal
 * can never fire, and where it holds but is never credited because another took the step.
 */
import type { PreparedEpisode } from './episodes.ts';
import { compileMatcher, type PredicateEvaluator } from './matchers.ts';
import { rescore, type RescoreReport } from './score.ts';
import type { SubgoalSet } from './schema.ts';

/** The 1-based credited steps at which each subgoal's matcher holds, per episode: holds[i][e]. */
export function holdingSteps(set: SubgoalSet, episodes: readonly PreparedEpisode[], evaluate?: PredicateEvaluator): number[][][] {
  return set.subgoals.map((s) => {
    const m = compileMatcher(s.matcher, evaluate);
    return episodes.map((e) => e.steps.flatMap((st, k) => (st.credited && m(e, k) ? [k + 1] : [])));
  });
}

export interface SubgoalCheck {
  index: number;
  /** Other subgoals holding on exactly the same steps in every stored episode (and somewhere at all). */
  duplicateOf: number[];
  /** Other subgoals (not duplicates) first holding at the same step in every stored episode, somewhere at all. */
  sameMomentAs: number[];
  /** Episodes in which its matcher holds at no scored step: it can never fire there. */
  neverHolds: string[];
  /** Episodes in which it holds but is never credited (another subgoal was credited on each of those steps). */
  crowdedOut: { episode: string; steps: number[] }[];
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, k) => x === b[k]);

/** Every subgoal of the set checked over the episodes; `report` is rescore's for the same set and episodes. */
export function checkSubgoals(set: SubgoalSet, episodes: readonly PreparedEpisode[], report: RescoreReport, evaluate?: PredicateEvaluator): SubgoalCheck[] {
  const holds = holdingSteps(set, episodes, evaluate);
  const anywhere = holds.map((h) => h.some((steps) => steps.length > 0));
  return holds.map((mine, i) => {
    const duplicateOf: number[] = [];
    const sameMomentAs: number[] = [];
    if (anywhere[i]) {
      holds.forEach((other, j) => {
        if (j === i) return;
        if (mine.every((steps, e) => same(steps, other[e]))) duplicateOf.push(j);
        else if (mine.every((steps, e) => steps[0] === other[e][0])) sameMomentAs.push(j);
      });
    }
    const neverHolds: string[] = [];
    const crowdedOut: { episode: string; steps: number[] }[] = [];
    episodes.forEach((e, k) => {
      if (mine[k].length === 0) neverHolds.push(e.id);
      else if (report.episodes[k].fired[i] === null) crowdedOut.push({ episode: e.id, steps: mine[k] });
    });
    return { index: i, duplicateOf, sameMomentAs, neverHolds, crowdedOut };
  });
}

/** Is subgoal `index` of the set credited at `step` of episode `episode` (rescore over the episodes)? */
export function creditedAt(set: SubgoalSet, index: number, episodes: readonly PreparedEpisode[], episode: string, step: number, evaluate?: PredicateEvaluator): boolean {
  const k = episodes.findIndex((e) => e.id === episode);
  if (k < 0) return false;
  return rescore(set, [episodes[k]], evaluate).episodes[0].fired[index] === step;
}

export interface Placed {
  /** The draft with the new subgoal inserted, and where. */
  set: SubgoalSet;
  at: number;
  pattern: string;
}

export interface Rejected {
  pattern: string;
  why: string;
}

/**
 * The first candidate pattern (best first) that, added to `set` for `step` of `episode`,
 * is credited at that step and neither duplicates another subgoal nor first holds with one
 * at the same step everywhere. It goes after the subgoals this episode credits before the
 * step, so under one-credit-per-step crediting nothing earlier takes its step.
 */
export function placeProposal(
  set: SubgoalSet,
  candidates: readonly string[],
  episodes: readonly PreparedEpisode[],
  episode: string,
  step: number,
  evaluate?: PredicateEvaluator,
): { placed: Placed | null; rejected: Rejected[] } {
  const k = episodes.findIndex((e) => e.id === episode);
  const before = k < 0 ? set.subgoals.length : rescore(set, [episodes[k]], evaluate).episodes[0].fired.filter((f) => f !== null && f < step).length;
  const rejected: Rejected[] = [];
  for (const pattern of candidates) {
    const subgoals = [...set.subgoals];
    subgoals.splice(before, 0, { label: pattern, matcher: { kind: 'pattern', pattern } });
    const trial: SubgoalSet = { ...set, subgoals };
    if (k >= 0 && !creditedAt(trial, before, episodes, episode, step, evaluate)) {
      rejected.push({ pattern, why: `would not be credited at step ${step}` });
      continue;
    }
    const check = checkSubgoals(trial, episodes, rescore(trial, episodes, evaluate), evaluate)[before];
    const twin = check.duplicateOf[0] ?? check.sameMomentAs[0];
    if (twin !== undefined) {
      rejected.push({ pattern, why: `${check.duplicateOf.length ? 'same firings as' : 'first holds with'} subgoal ${twin < before ? twin + 1 : twin} everywhere` });
      continue;
    }
    return { placed: { set: trial, at: before, pattern }, rejected };
  }
  return { placed: null, rejected };
}
