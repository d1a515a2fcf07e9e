/**
 * Agreement statistics (issue 13 §4, §5): Cohen's κ (two raters), Fleiss' κ (any fixed
 * number of raters), Pearson's r. Textbook definitions; a statistic that is undefined
 * for the data (no variation to agree about or correlate) is NaN, never a made-up 0 or 1.
 */

export interface KappaResult {
  /** NaN when chance agreement is 1 (every rating in one category). */
  kappa: number;
  /** Observed agreement p_o (Cohen) or P̄ (Fleiss). */
  observed: number;
  /** Chance agreement p_e (Cohen) or P̄_e (Fleiss). */
  expected: number;
  /** Number of subjects. */
  n: number;
  /** When κ is not defined because every rating fell in one category: that category (so a view can say "both reached it every time"). */
  only?: unknown;
}

function kappaOf(observed: number, expected: number, n: number): KappaResult {
  const kappa = n === 0 || expected === 1 ? NaN : (observed - expected) / (1 - expected);
  return { kappa, observed, expected, n };
}

/** Cohen's κ for two raters' labels of the same subjects (labels compared with ===). */
export function cohensKappa<T>(a: readonly T[], b: readonly T[]): KappaResult {
  if (a.length !== b.length) throw new RangeError(`cohensKappa: ${a.length} vs ${b.length} ratings`);
  const n = a.length;
  if (n === 0) return kappaOf(NaN, NaN, 0);
  const countA = new Map<T, number>();
  const countB = new Map<T, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    countA.set(a[i], (countA.get(a[i]) ?? 0) + 1);
    countB.set(b[i], (countB.get(b[i]) ?? 0) + 1);
  }
  let expected = 0;
  for (const [label, ca] of countA) expected += (ca / n) * ((countB.get(label) ?? 0) / n);
  const r = kappaOf(agree / n, expected, n);
  return expected === 1 ? { ...r, only: a[0] } : r;
}

/**
 * Fleiss' κ from a subjects × categories table of counts: counts[i][j] = raters who put
 * subject i in category j. Every subject needs the same number of raters (≥ 2).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): KappaResult {
  const N = counts.length;
  if (N === 0) return kappaOf(NaN, NaN, 0);
  const k = counts[0].length;
  const raters = counts[0].reduce((s, x) => s + x, 0);
  if (raters < 2) throw new RangeError('fleissKappa: needs at least two raters per subject');
  const colTotals = new Array<number>(k).fill(0);
  let sumP = 0;
  for (const [i, row] of counts.entries()) {
    if (row.length !== k) throw new RangeError(`fleissKappa: subject ${i} has ${row.length} categories, not ${k}`);
    const total = row.reduce((s, x) => s + x, 0);
    if (total !== raters) throw new RangeError(`fleissKappa: subject ${i} has ${total} ratings, not ${raters}`);
    let sq = 0;
    row.forEach((x, j) => {
      sq += x * x;
      colTotals[j] += x;
    });
    sumP += (sq - raters) / (raters * (raters - 1));
  }
  const observed = sumP / N;
  const expected = colTotals.reduce((s, c) => s + (c / (N * raters)) ** 2, 0);
  const r = kappaOf(observed, expected, N);
  // The one category's column index (fleissKappaOfLabels names it).
  return expected === 1 ? { ...r, only: colTotals.findIndex((c) => c > 0) } : r;
}

/**
 * Fleiss' κ from raw labels: ratings[i] = the labels the raters gave subject i (one per
 * rater). Categories are the labels seen, or `categories` when given.
 */
export function fleissKappaOfLabels<T>(ratings: readonly (readonly T[])[], categories?: readonly T[]): KappaResult {
  const cats = categories ? [...categories] : [...new Set(ratings.flat())];
  const index = new Map(cats.map((c, j) => [c, j]));
  const counts = ratings.map((labels) => {
    const row = new Array<number>(cats.length).fill(0);
    for (const l of labels) {
      const j = index.get(l);
      if (j === undefined) throw new RangeError(`fleissKappa: label ${String(l)} is not a category`);
      row[j]++;
    }
    return row;
  });
  const r = fleissKappa(counts);
  return r.only === undefined ? r : { ...r, only: cats[r.only as number] };
}

/** Pearson's r; NaN with fewer than two pairs or when either side does not vary. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError(`pearson: ${x.length} vs ${y.length} values`);
  const n = x.length;
  if (n < 2) return NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}
