/**
 * Point estimates with a seeded, stratified BCa bootstrap interval.
 *
 * Every figure in the scores tables is a function of one or more means ("strata"): a
 * game's mean score, a task set's success rate, the category accuracies that
 * overall_cat_accuracy averages, the task sets an overall score averages. A replicate
 * resamples each stratum's rows with replacement, independently (so a figure the benchmark
 * averages over parts is resampled within each part), and recomputes every figure asked for
 * together. The interval is BCa: the replicates' percentiles corrected for bias and skew.
 *
 * Reproducible: the random stream comes from (seed, the bootstrap's key) alone. The scoring
 * modules key one bootstrap per group and benchmark, so the same episodes and seed always
 * give the same intervals, and adding another group's episodes changes no other group's.
 */
import { Rng, seedState } from '../../envs/core/rng.ts';

/** One figure: its value, how many episodes it rests on, and its interval (null when there is no data). */
export interface Estimate {
  value: number | null;
  n: number;
  /** [low, high] of the interval at the report's level; null when value is null. */
  ci: [number, number] | null;
}

export interface BootstrapOptions {
  seed: number;
  /** Number of replicates (1000 by default); 0 gives the values alone, every interval null (the scores view's first, quick report). */
  resamples: number;
  /** Interval level (0.95 by default). */
  level: number;
}

export const DEFAULT_BOOTSTRAP: BootstrapOptions = { seed: 1, resamples: 1000, level: 0.95 };

/** A 32-bit FNV-1a hash of a figure's key, mixed with the seed: the figure's own stream. */
function streamFor(seed: number, key: string): Rng {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return new Rng(seedState((seedState(seed) ^ h) >>> 0));
}

/**
 * Rows of values to average column by column, stored sparsely (zeros left out): row r's
 * entries are start[r] … start[r + 1] − 1, each a column and a value. Columns from
 * `cumulativeFrom` on hold changes, and their means are running sums over those columns (a
 * curve stored by its steps), so resampling costs one addition per change, not one per point.
 */
export interface Stratum {
  rows: number;
  cols: number;
  start: Int32Array;
  col: Int32Array;
  val: Float64Array;
  /** The first cumulative column (cols when none is). */
  cumulativeFrom: number;
  /** Every value is finite (so a row drawn 0 times adds 0 · value = ±0: see columnMeans). */
  finite: boolean;
}

const allFinite = (val: Float64Array) => val.every(Number.isFinite);

/** A one-column stratum. */
export function column(values: readonly number[]): Stratum {
  const rows = values.length;
  return { rows, cols: 1, start: Int32Array.from({ length: rows + 1 }, (_, i) => i), col: new Int32Array(rows), val: Float64Array.from(values), cumulativeFrom: 1, finite: values.every(Number.isFinite) };
}

/** A stratum from rows of [column, value] entries; `cumulativeFrom` as in Stratum. */
export function sparse(rows: readonly (readonly (readonly [number, number])[])[], cols: number, cumulativeFrom = cols): Stratum {
  const total = rows.reduce((a, r) => a + r.length, 0);
  const start = new Int32Array(rows.length + 1);
  const col = new Int32Array(total);
  const val = new Float64Array(total);
  let k = 0;
  rows.forEach((row, r) => {
    start[r] = k;
    for (const [c, v] of row) {
      col[k] = c;
      val[k++] = v;
    }
  });
  start[rows.length] = k;
  return { rows: rows.length, cols, start, col, val, cumulativeFrom, finite: allFinite(val) };
}

/** Running sums in place from column `from` on (a stratum's cumulative columns). */
function accumulate(out: Float64Array, from: number): void {
  for (let c = from + 1; c < out.length; c++) out[c] += out[c - 1];
}

/** Scratch space for columnMeans: how often each row was drawn. */
let drawCounts = new Int32Array(0);

/**
 * Column means of a stratum into `out` (NaN when it has no rows), resampling rows when `rng`
 * is given. The draws are Rng.below's, inlined (the state kept as an int32, which V8 keeps
 * unboxed): this loop is where the time goes.
 */
function columnMeans(s: Stratum, out: Float64Array, rng: Rng | null): void {
  const { rows, start, col, val } = s;
  if (rows === 0) {
    out.fill(NaN);
    return;
  }
  const oneEach = s.cols === 1 && val.length === rows;
  if (!rng) {
    if (oneEach) {
      let sum = 0;
      for (let i = 0; i < rows; i++) sum += val[i];
      out[0] = sum / rows;
      return;
    }
    out.fill(0);
    for (let k = 0; k < val.length; k++) out[col[k]] += val[k];
  } else {
    let state = rng.state;
    if (oneEach) {
      let sum = 0;
      for (let i = 0; i < rows; i++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = Math.imul(state ^ (state >>> 15), 1 | state);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        sum += val[((((t ^ (t >>> 14)) >>> 0) / 4294967296) * rows) | 0];
      }
      rng.state = state >>> 0;
      out[0] = sum / rows;
      return;
    }
    // Count how often each row is drawn, then add each drawn row once, times its count
    // (sequential passes: about twice as fast as adding rows in draw order).
    if (drawCounts.length < rows) drawCounts = new Int32Array(rows);
    const counts = drawCounts;
    counts.fill(0, 0, rows);
    for (let i = 0; i < rows; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      counts[((((t ^ (t >>> 14)) >>> 0) / 4294967296) * rows) | 0]++;
    }
    rng.state = state >>> 0;
    out.fill(0);
    if (s.finite) {
      // Every row's entries, an undrawn row's times 0 (adding ±0 changes no sum), with no
      // branch on the count to mispredict: the same sums, about 15% sooner.
      let k = 0;
      for (let r = 0; r < rows; r++) {
        const times = counts[r];
        const end = start[r + 1];
        for (; k < end; k++) out[col[k]] += times * val[k];
      }
    } else {
      for (let r = 0; r < rows; r++) {
        const times = counts[r];
        if (times === 0) continue;
        const end = start[r + 1];
        for (let k = start[r]; k < end; k++) out[col[k]] += times * val[k];
      }
    }
  }
  for (let c = 0; c < out.length; c++) out[c] /= rows;
  accumulate(out, s.cumulativeFrom);
}

/** A figure computed from the column means of every stratum; NaN where it is undefined. */
export type Statistic = (means: readonly Float64Array[]) => number;

/** A stratum's index in a bootstrap's strata, and its number of rows (its weight when pooled). */
export interface Part {
  k: number;
  w: number;
}

/**
 * The mean of column `c` over all the rows of the parts (their means weighed by size), times
 * `scale`; NaN without rows. Stratified figures are such pooled means.
 */
export function pooledMean(parts: readonly Part[], c: number, scale = 1): Statistic {
  const ks = Int32Array.from(parts, (p) => p.k);
  const ws = Int32Array.from(parts, (p) => p.w);
  const total = parts.reduce((a, p) => a + p.w, 0);
  if (total === 0) return () => NaN;
  return (m) => {
    let sum = 0;
    for (let i = 0; i < ks.length; i++) sum += m[ks[i]][c] * ws[i];
    return (sum / total) * scale;
  };
}

/**
 * Figures computed from the column means of `strata` by `stats`. Figures asked for together
 * come from the same resamples (a joint bootstrap). A stat returns NaN where it is undefined
 * (e.g. a division by zero, an empty stratum); such a figure's value is null, and NaN
 * replicates are left out of its interval. `n` of each estimate is the number of rows over
 * all strata unless `n` is given.
 */
export function bootstrapMeans(
  key: string,
  strata: readonly Stratum[],
  stats: readonly Statistic[],
  options: BootstrapOptions,
  n: number = strata.reduce((a, s) => a + s.rows, 0),
): Estimate[] {
  const means = strata.map((s) => new Float64Array(s.cols));
  strata.forEach((s, k) => columnMeans(s, means[k], null));
  const values = stats.map((f) => f(means));
  if (n === 0 || values.every((v) => !Number.isFinite(v))) return values.map(() => ({ value: null, n, ci: null }));
  if (options.resamples === 0) return values.map((value) => ({ value: Number.isFinite(value) ? value : null, n, ci: null }));
  const rng = streamFor(options.seed, key);
  const reps = stats.map(() => new Float64Array(options.resamples));
  const counts = new Int32Array(stats.length);
  for (let b = 0; b < options.resamples; b++) {
    for (let k = 0; k < strata.length; k++) columnMeans(strata[k], means[k], rng);
    for (let j = 0; j < stats.length; j++) {
      const v = stats[j](means);
      if (Number.isFinite(v)) reps[j][counts[j]++] = v;
    }
  }
  const accel = acceleration(strata, stats, values);
  return values.map((value, j) => {
    if (!Number.isFinite(value)) return { value: null, n, ci: null };
    const r = reps[j].subarray(0, counts[j]);
    return { value, n, ci: bcaInterval(r, value, accel[j], options.level) };
  });
}

/**
 * The BCa interval from sorted replicates: the percentiles shifted for the replicates' bias
 * (z0) and for how the figure's spread changes with its value (the acceleration a), which
 * keeps the coverage near its level for skewed data where plain percentiles fall short.
 */
function bcaInterval(reps: Float64Array, value: number, a: number, level: number): [number, number] {
  const B = reps.length;
  if (B === 0) return [value, value];
  let below = 0;
  let equal = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < B; i++) {
    const v = reps[i];
    if (v < value) below++;
    else if (v === value) equal++;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === hi) return [value, value];
  const p = (below + equal / 2) / B;
  const z0 = normalQuantile(Math.min(Math.max(p, 0.5 / B), 1 - 0.5 / B));
  const tail = (1 - level) / 2;
  const rank = (q: number) => {
    const z = normalQuantile(q);
    const den = 1 - a * (z0 + z);
    // A tiny sample can make the correction fold over: keep the plain percentile then.
    const adjusted = den > 0 ? normalCdf(z0 + (z0 + z) / den) : q;
    return Math.min(B - 1, Math.floor(adjusted * B)); // stats.ts's nearest-rank rule
  };
  const k1 = rank(tail);
  const k2 = Math.max(k1, rank(1 - tail));
  // Two order statistics by selection (cheaper than sorting every figure's replicates).
  select(reps, k1, 0, B - 1);
  select(reps, k2, k1, B - 1);
  return [reps[k1], reps[k2]];
}

/** Rearrange a[lo..hi] so a[k] holds the value it would hold sorted (Hoare's quickselect). */
function select(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    // Median of three as the pivot: sorted or constant runs stay linear.
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * The jackknife acceleration of each figure: recompute it with each row of each stratum left
 * out (a column mean without row i is (sum − row i) / (rows − 1)), then
 * a = Σ d³ / (6 (Σ d²)^1.5) with d = mean of the leave-one-out values − each of them.
 */
function acceleration(strata: readonly Stratum[], stats: readonly Statistic[], values: readonly number[]): number[] {
  const means = strata.map((s) => {
    const out = new Float64Array(s.cols);
    columnMeans(s, out, null);
    return out;
  });
  // Each figure's leave-one-out values in order (stratum by stratum, row by row).
  const rows = strata.reduce((a, s) => a + (s.rows < 2 ? 0 : s.rows), 0);
  const loo = stats.map(() => new Float64Array(rows));
  const count = new Int32Array(stats.length);
  const wanted = values.map((v) => Number.isFinite(v));
  for (let k = 0; k < strata.length; k++) {
    const s = strata[k];
    if (s.rows < 2) continue;
    // Column sums of the stored values (changes, in cumulative columns).
    const sums = new Float64Array(s.cols);
    for (let i = 0; i < s.val.length; i++) sums[s.col[i]] += s.val[i];
    const full = means[k];
    const reduced = new Float64Array(s.cols);
    means[k] = reduced;
    for (let r = 0; r < s.rows; r++) {
      reduced.set(sums);
      for (let i = s.start[r]; i < s.start[r + 1]; i++) reduced[s.col[i]] -= s.val[i];
      for (let c = 0; c < s.cols; c++) reduced[c] /= s.rows - 1;
      accumulate(reduced, s.cumulativeFrom);
      for (let j = 0; j < stats.length; j++) {
        if (!wanted[j]) continue;
        const v = stats[j](means);
        if (Number.isFinite(v)) loo[j][count[j]++] = v;
      }
    }
    means[k] = full;
  }
  return loo.map((all, j) => {
    const n = count[j];
    if (n < 2) return 0;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += all[i];
    const m = sum / n;
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const d = m - all[i];
      num += d * d * d;
      den += d * d;
    }
    return den === 0 ? 0 : num / (6 * den ** 1.5);
  });
}

/** The standard normal distribution function (Zelen and Severo's approximation, Abramowitz–Stegun 26.2.17; error < 7.5e-8). */
export function normalCdf(z: number): number {
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI) * poly;
  return z >= 0 ? 1 - tail : tail;
}

/** The standard normal quantile (P. J. Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}


/** The mean of one list of values with its interval, times `scale` (100 for percent). */
export function meanEstimate(key: string, values: readonly number[], options: BootstrapOptions, scale = 1): Estimate {
  return bootstrapMeans(key, [column(values)], [(m) => m[0][0] * scale], options)[0];
}
