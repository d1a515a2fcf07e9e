/** The seeded bootstrap behind every interval: reproducible, and honest about its level. */
import { describe, expect, it } from 'vitest';
import { bootstrapMeans, column, meanEstimate, pooledMean, sparse, DEFAULT_BOOTSTRAP } from '../../runtime/scores/bootstrap.ts';
import { Rng } from '../../envs/core/rng.ts';

const boot = DEFAULT_BOOTSTRAP;

describe('bootstrap intervals', () => {
  const values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];

  it('is deterministic for a seed and a figure, and differs with the seed', () => {
    const a = meanEstimate('fig', values, boot);
    expect(meanEstimate('fig', values, boot)).toEqual(a);
    expect(meanEstimate('fig', values, { ...boot, seed: 2 }).ci).not.toEqual(a.ci);
    expect(a.value).toBeCloseTo(44 / 11, 12);
    expect(a.n).toBe(11);
    expect(a.ci![0]).toBeLessThan(a.value!);
    expect(a.ci![1]).toBeGreaterThan(a.value!);
  });

  it('gives a figure the same interval whatever is computed alongside it', () => {
    const alone = meanEstimate('fig', values, boot);
    meanEstimate('other', [1, 2, 3], boot);
    expect(meanEstimate('fig', values, boot)).toEqual(alone);
  });

  it('has no value or interval without data, and no spread for constant data', () => {
    expect(meanEstimate('x', [], boot)).toEqual({ value: null, n: 0, ci: null });
    expect(meanEstimate('x', [2, 2, 2], boot)).toEqual({ value: 2, n: 3, ci: [2, 2] });
  });

  it('sums a sparse stratum the same with and without skipping undrawn rows (the fast path for finite values)', () => {
    const rng = Rng.fromSeed(7);
    // Rows of a success flag and a curve's changes (cumulative columns from 2), some negative, some rows empty.
    const rows = Array.from({ length: 57 }, () =>
      Array.from({ length: rng.below(4) }, (_, i) => [i === 0 ? 0 : 1 + i, rng.uniform() < 0.5 ? -rng.uniform() : rng.uniform()] as [number, number]),
    );
    const fast = sparse(rows, 5, 2);
    expect(fast.finite).toBe(true);
    const slow = { ...fast, finite: false };
    const stats = [0, 2, 3, 4].map((c) => pooledMean([{ k: 0, w: fast.rows }], c));
    const a = bootstrapMeans('same', [fast], stats, boot);
    expect(bootstrapMeans('same', [slow], stats, boot)).toStrictEqual(a);
    expect(a.every((e) => e.ci !== null && e.ci[0] < e.ci[1])).toBe(true);
  });

  it('resamples strata independently and leaves undefined replicates out', () => {
    // Ratio of two means; the second stratum can resample to all zeros (undefined ratio).
    const [ratio] = bootstrapMeans('ratio', [column([1, 2, 3]), column([0, 1])], [(m) => m[0][0] / m[1][0]], boot);
    expect(ratio.value).toBe(4);
    expect(ratio.n).toBe(5);
    expect(Number.isFinite(ratio.ci![1])).toBe(true);
  });

  it('covers the true mean of a known distribution at its nominal 95% within 2 points over 1,000 simulated sets', () => {
    // Normal(10, 2) data, 100 values per set (Box–Muller from a seeded stream): true mean 10.
    const rng = Rng.fromSeed(2024);
    const normal = () => 10 + 2 * Math.sqrt(-2 * Math.log(1 - rng.uniform())) * Math.cos(2 * Math.PI * rng.uniform());
    const sets = 1000;
    let covered = 0;
    for (let s = 0; s < sets; s++) {
      const e = meanEstimate(`set ${s}`, Array.from({ length: 100 }, normal), boot);
      if (e.ci![0] <= 10 && 10 <= e.ci![1]) covered++;
    }
    const rate = (covered / sets) * 100;
    expect(rate).toBeGreaterThanOrEqual(93);
    expect(rate).toBeLessThanOrEqual(97);
  }, 120_000); // 10⁸ draws: seconds, more on a busy machine
});
