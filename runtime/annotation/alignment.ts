/**
 * Agreement between two sets by what their subgoals match, not by position (issue 29 §3).
 * Two subgoals are aligned when they fire together: the pair that fires within ±k steps of
 * each other in the most stored episodes is aligned first, then the next among the rest
 * (greedy), and a pair that never fires together is not aligned. Per aligned pair: Cohen's κ
 * on "reached" per episode and the timing agreement (of the episodes where either fires, the
 * share where both fire on the same step, and within ±k); for the set: κ over every subgoal
 * (an unmatched one counts against "not reached" in the other set) and the same timing
 * figures pooled. Unmatched subgoals are listed.
 */
import type { RescoreReport } from './score.ts';
import { cohensKappa, type KappaResult } from './stats.ts';

export interface Timing {
  /** Episodes where at least one of the two fires. */
  either: number;
  /** Of those, both fire on the same step. */
  sameStep: number;
  /** Of those, both fire within ±k steps. */
  withinK: number;
}

export interface AlignedPair {
  /** Subgoal indices in set a and set b. */
  a: number;
  b: number;
  kappa: KappaResult;
  timing: Timing;
}

export interface PairAgreement {
  k: number;
  pairs: AlignedPair[];
  /** Subgoals of a (and of b) aligned with none of the other set's. */
  unmatchedA: number[];
  unmatchedB: number[];
  /** κ on reached over every (subgoal, episode): aligned pairs, and unmatched subgoals against "not reached". */
  kappa: KappaResult;
  timing: Timing;
}

function timingOf(fa: readonly (number | null)[], fb: readonly (number | null)[], k: number): Timing {
  const t: Timing = { either: 0, sameStep: 0, withinK: 0 };
  fa.forEach((x, e) => {
    const y = fb[e];
    if (x === null && y === null) return;
    t.either++;
    if (x !== null && y !== null) {
      if (x === y) t.sameStep++;
      if (Math.abs(x - y) <= k) t.withinK++;
    }
  });
  return t;
}

/** Two sets' scores over the same episodes (rescore), compared subgoal by aligned subgoal. */
export function alignSets(a: RescoreReport, b: RescoreReport, k = 1): PairAgreement {
  const firedA = a.subgoals.map((_, i) => a.episodes.map((e) => e.fired[i]));
  const firedB = b.subgoals.map((_, j) => b.episodes.map((e) => e.fired[j]));
  const candidates: { i: number; j: number; together: number; same: number }[] = [];
  firedA.forEach((fa, i) =>
    firedB.forEach((fb, j) => {
      const t = timingOf(fa, fb, k);
      if (t.withinK > 0) candidates.push({ i, j, together: t.withinK, same: t.sameStep - (t.either - t.withinK) });
    }),
  );
  // Most episodes fired together first; then more on the very same step and fewer fired alone; then list order.
  candidates.sort((p, q) => q.together - p.together || q.same - p.same || p.i - q.i || p.j - q.j);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const pairs: AlignedPair[] = [];
  for (const c of candidates) {
    if (usedA.has(c.i) || usedB.has(c.j)) continue;
    usedA.add(c.i);
    usedB.add(c.j);
    const fa = firedA[c.i];
    const fb = firedB[c.j];
    pairs.push({ a: c.i, b: c.j, kappa: cohensKappa(fa.map((x) => x !== null), fb.map((y) => y !== null)), timing: timingOf(fa, fb, k) });
  }
  pairs.sort((p, q) => p.a - q.a);
  const unmatchedA = firedA.flatMap((_, i) => (usedA.has(i) ? [] : [i]));
  const unmatchedB = firedB.flatMap((_, j) => (usedB.has(j) ? [] : [j]));
  const never = a.episodes.map(() => null);
  const columns: [readonly (number | null)[], readonly (number | null)[]][] = [
    ...pairs.map((p) => [firedA[p.a], firedB[p.b]] as [readonly (number | null)[], readonly (number | null)[]]),
    ...unmatchedA.map((i) => [firedA[i], never] as [readonly (number | null)[], readonly (number | null)[]]),
    ...unmatchedB.map((j) => [never, firedB[j]] as [readonly (number | null)[], readonly (number | null)[]]),
  ];
  const ra = columns.flatMap(([x]) => x.map((s) => s !== null));
  const rb = columns.flatMap(([, y]) => y.map((s) => s !== null));
  const timing = columns.reduce<Timing>(
    (sum, [x, y]) => {
      const t = timingOf(x, y, k);
      return { either: sum.either + t.either, sameStep: sum.sameStep + t.sameStep, withinK: sum.withinK + t.withinK };
    },
    { either: 0, sameStep: 0, withinK: 0 },
  );
  return { k, pairs, unmatchedA, unmatchedB, kappa: cohensKappa(ra, rb), timing };
}

/** One side of a disagreement: a set's subgoal (null: the set has no subgoal aligned with the other's) and the step it fires at in the episode (null: never). */
export interface DisagreementSide {
  /** The set's index among those compared. */
  set: number;
  subgoal: number | null;
  step: number | null;
}

/**
 * An episode where two aligned subgoals disagree beyond ±k steps (one fires and the other
 * never does, or both fire more than k steps apart), or where an unmatched subgoal fires.
 * `first` is the side that fires first (so `first.step` is set): the step to open.
 */
export interface AlignedDisagreement {
  episode: string;
  first: DisagreementSide & { step: number };
  other: DisagreementSide;
}

/**
 * The disagreement queue of two sets by alignment (the same pairing as their κ): per episode,
 * in step order. `ia`/`ib` are the two sets' indices among those compared.
 */
export function alignedDisagreements(a: RescoreReport, b: RescoreReport, r: PairAgreement, ia = 0, ib = 1): AlignedDisagreement[] {
  const out: AlignedDisagreement[] = [];
  const add = (episode: string, x: DisagreementSide, y: DisagreementSide) => {
    // The side that fires first is the one to open; a side that never fires comes second.
    const [first, other] = y.step !== null && (x.step === null || y.step < x.step) ? [y, x] : [x, y];
    if (first.step !== null) out.push({ episode, first: first as AlignedDisagreement['first'], other });
  };
  a.episodes.forEach((ea, e) => {
    const eb = b.episodes[e];
    for (const p of r.pairs) {
      const x = ea.fired[p.a];
      const y = eb.fired[p.b];
      if (x === null && y === null) continue;
      if (x !== null && y !== null && Math.abs(x - y) <= r.k) continue;
      add(ea.episode, { set: ia, subgoal: p.a, step: x }, { set: ib, subgoal: p.b, step: y });
    }
    for (const i of r.unmatchedA) if (ea.fired[i] !== null) add(ea.episode, { set: ia, subgoal: i, step: ea.fired[i] }, { set: ib, subgoal: null, step: null });
    for (const j of r.unmatchedB) if (eb.fired[j] !== null) add(ea.episode, { set: ib, subgoal: j, step: eb.fired[j] }, { set: ia, subgoal: null, step: null });
  });
  const order = new Map(a.episodes.map((e, i) => [e.episode, i]));
  return out.sort((p, q) => order.get(p.episode)! - order.get(q.episode)! || p.first.step - q.first.step || p.first.set - q.first.set || (p.first.subgoal ?? 0) - (q.first.subgoal ?? 0));
}
