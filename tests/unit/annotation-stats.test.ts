/**
 * Agreement statistics (runtime/annotation/stats.ts, agreement.ts, rating.ts) against
 * textbook examples and hand-computed cases.
 */
import { describe, expect, it } from 'vitest';
import {
  cohensKappa,
  compareSets,
  fleissKappa,
  fleissKappaOfLabels,
  parseSubgoalSet,
  pearson,
  prepareEpisodes,
  sampleForStudy,
  studyResult,
  withinK,
  type Rating,
  type SubgoalSet,
} from '../../runtime/annotation/index.ts';
import { fig, kappaWords } from '../../src/lib/annotation.ts';

describe("Cohen's κ", () => {
  it('textbook 2×2 example: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → κ = 0.4', () => {
    // Wikipedia "Cohen's kappa", simple example: p_o = 0.7, p_e = 0.5.
    const a = [...Array(20).fill('yes'), ...Array(5).fill('yes'), ...Array(10).fill('no'), ...Array(15).fill('no')];
    const b = [...Array(20).fill('yes'), ...Array(5).fill('no'), ...Array(10).fill('yes'), ...Array(15).fill('no')];
    const r = cohensKappa(a, b);
    expect(r.observed).toBeCloseTo(0.7, 12);
    expect(r.expected).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
  });

  it('perfect agreement is 1; one category only is undefined (NaN); no data is NaN', () => {
    expect(cohensKappa([1, 2, 3, 1], [1, 2, 3, 1]).kappa).toBe(1);
    const one = cohensKappa(['x', 'x', 'x'], ['x', 'x', 'x']);
    expect(one.observed).toBe(1);
    expect(one.expected).toBe(1);
    expect(one.kappa).toBeNaN();
    expect(cohensKappa([], []).kappa).toBeNaN();
    expect(() => cohensKappa([1], [1, 2])).toThrow(RangeError);
  });

  it('κ not defined is said in words with the plain agreement, never "undefined" or "NaN"', () => {
    expect(kappaWords(cohensKappa([true, true, true], [true, true, true]))).toBe('not defined: both reached it in every episode (100% agreement)');
    expect(kappaWords(cohensKappa([false, false], [false, false]))).toBe('not defined: both reached it in no episode (100% agreement)');
    expect(kappaWords(fleissKappaOfLabels([[true, true, true], [true, true, true]], [true, false]), 'all 3')).toBe('not defined: all 3 reached it in every episode (100% agreement)');
    expect(kappaWords(cohensKappa([], []))).toBe('not defined: no episodes');
    expect(kappaWords(cohensKappa([true, false, true, false], [true, false, false, false]))).toBe('0.500');
    expect(fig(Number.NaN)).toBe('not defined (no variation)');
  });

  it('systematic disagreement is negative', () => {
    expect(cohensKappa([true, false, true, false], [false, true, false, true]).kappa).toBe(-1);
  });
});

describe("Fleiss' κ", () => {
  // Fleiss (1971) as given on Wikipedia "Fleiss' kappa": 10 subjects, 14 raters, 5 categories.
  const table = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('textbook example: P̄ = 0.378, P̄e = 0.213, κ ≈ 0.210', () => {
    const r = fleissKappa(table);
    expect(r.observed).toBeCloseTo(0.378, 3);
    expect(r.expected).toBeCloseTo(0.213, 3);
    expect(r.kappa).toBeCloseTo(0.21, 3);
    expect(r.n).toBe(10);
  });

  it('from raw labels gives the same figure', () => {
    const labels = table.map((row) => row.flatMap((count, j) => Array(count).fill(j + 1)));
    expect(fleissKappaOfLabels(labels, [1, 2, 3, 4, 5]).kappa).toBeCloseTo(fleissKappa(table).kappa, 12);
  });

  it('perfect agreement is 1; one category only is NaN; unequal rater counts throw', () => {
    expect(fleissKappa([[3, 0], [0, 3], [3, 0]]).kappa).toBe(1);
    expect(fleissKappa([[3], [3]]).kappa).toBeNaN();
    expect(fleissKappaOfLabels([['a', 'a'], ['a', 'a']]).kappa).toBeNaN();
    expect(() => fleissKappa([[2, 1], [1, 1]])).toThrow(RangeError);
  });

  it('two raters: close to Cohen on balanced data (Scott\'s π = Fleiss with two raters)', () => {
    const a = ['y', 'y', 'n', 'n', 'y', 'n'];
    const b = ['y', 'n', 'n', 'n', 'y', 'y'];
    // Scott's π: p_o = 4/6, pooled p(y) = 6/12 → p_e = 0.5, π = 1/3.
    expect(fleissKappaOfLabels(a.map((x, i) => [x, b[i]])).kappa).toBeCloseTo(1 / 3, 12);
  });
});

describe("Pearson's r", () => {
  it("Anscombe's quartet, set I: r ≈ 0.816", () => {
    const x = [10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5];
    const y = [8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68];
    expect(pearson(x, y)).toBeCloseTo(0.81642, 5);
  });

  it('small exact case, perfect lines, and undefined cases', () => {
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(6 / Math.sqrt(60), 12);
    expect(pearson([1, 2, 3], [10, 20, 30])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(pearson([1], [2])).toBeNaN();
  });
});

function set(author: string, patterns: string[]): SubgoalSet {
  const r = parseSubgoalSet({
    format: 1,
    env: 'hanoi',
    task: 'hanoi-3',
    author,
    version: author === 'a' ? 2 : 3,
    parentVersion: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    subgoals: patterns.map((p) => ({ label: p, matcher: { kind: 'pattern', pattern: p } })),
  });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

describe('agreement between sets', () => {
  const episodes = prepareEpisodes([
    { id: 'e1', initial: '', steps: ['disk 0 on C', 'disk 1 on C', 'disk 2 on C'].map((observation) => ({ observation })) },
    { id: 'e2', initial: '', steps: ['disk 1 on B', 'disk 0 on C', 'nothing'].map((observation) => ({ observation })) },
    { id: 'e3', initial: '', steps: ['nothing', 'nothing'].map((observation) => ({ observation })) },
  ]);
  const a = set('a', ['0 on C', '1 on C']);
  const b = set('b', ['on C', '1 on']);

  it('per subgoal: κ on reached, agreement within ±k steps; the queue lists each contested step', () => {
    const r = compareSets([a, b], episodes, { k: 0 });
    expect(r.sets).toEqual(['hanoi/hanoi-3/v2', 'hanoi/hanoi-3/v3']);
    // Subgoal 0: a fires at e1:1, e2:2; b fires at e1:1, e2:2 → full agreement on reached and when.
    expect(r.scores[0].episodes.map((e) => e.fired)).toEqual([[1, 2], [2, null], [null, null]]);
    expect(r.scores[1].episodes.map((e) => e.fired)).toEqual([[1, 2], [2, 1], [null, null]]);
    expect(r.subgoals[0].kappa.kappa).toBe(1);
    expect(r.subgoals[0].withinK).toEqual({ k: 0, agree: 3, total: 3, rate: 1, allReached: 2, allReachedWithinK: 2 });
    // Subgoal 1: reached [yes, no, no] vs [yes, yes, no] → p_o = 2/3, p_e = 1/3·2/3 + 2/3·1/3 = 4/9, κ = 0.4.
    expect(r.subgoals[1].kappa.kappa).toBeCloseTo(0.4, 12);
    expect(r.subgoals[1].withinK.agree).toBe(2);
    expect(r.subgoals[1].labels).toEqual(['1 on C', '1 on']);
    expect(r.queue).toEqual([{ episode: 'e2', step: 1, subgoal: 1, firedBy: [1], notFiredBy: [0] }]);
    expect(r.curves).toHaveLength(1);
    expect(r.curves[0].perEpisode.map((p) => p.episode)).toEqual(['e1', 'e2', 'e3']);
    expect(r.curves[0].perEpisode[0].r).toBeCloseTo(1, 12);
    expect(r.curves[0].perEpisode[2].r).toBeNaN();
  });

  it('±k: steps apart by up to k agree', () => {
    expect(withinK([[3, null, 5], [4, null, 9]], 1)).toEqual({ k: 1, agree: 2, total: 3, rate: 2 / 3, allReached: 2, allReachedWithinK: 1 });
  });

  it("three sets use Fleiss' κ; a set with fewer subgoals never reaches the missing ones", () => {
    const c = set('c', ['0 on C']);
    const r = compareSets([a, b, c], episodes);
    expect(r.subgoals).toHaveLength(2);
    expect(r.subgoals[1].labels).toEqual(['1 on C', '1 on', null]);
    expect(r.curves.map((x) => [x.a, x.b])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    // Subgoal 1 reached: e1 [y, y, n], e2 [n, y, n], e3 [n, n, n].
    const expected = fleissKappaOfLabels(
      [
        [true, true, false],
        [false, true, false],
        [false, false, false],
      ],
      [true, false],
    ).kappa;
    expect(r.subgoals[1].kappa.kappa).toBeCloseTo(expected, 12);
    expect(r.queue.filter((q) => q.subgoal === 1)).toEqual([
      { episode: 'e1', step: 2, subgoal: 1, firedBy: [0, 1], notFiredBy: [2] },
      { episode: 'e2', step: 1, subgoal: 1, firedBy: [1], notFiredBy: [0, 2] },
    ]);
  });
});

describe('progress-rating study', () => {
  const ratings: Rating[] = [
    { trajectory: 't1', rater: 'r1', value: 0 },
    { trajectory: 't1', rater: 'r2', value: 25 },
    { trajectory: 't2', rater: 'r1', value: 50 },
    { trajectory: 't2', rater: 'r2', value: 50 },
    { trajectory: 't3', rater: 'r1', value: 100 },
    { trajectory: 't3', rater: 'r2', value: 100 },
  ];

  it("two raters over three trajectories: Fleiss' κ and Pearson with each set's progress", () => {
    const r = studyResult(ratings, [
      { set: 'good', progress: new Map([['t1', 0.1], ['t2', 0.5], ['t3', 1]]) },
      { set: 'flat', progress: new Map([['t1', 0.5], ['t2', 0.5], ['t3', 0.5]]) },
    ]);
    expect(r.raters).toEqual(['r1', 'r2']);
    expect(r.trajectories).toEqual(['t1', 't2', 't3']);
    expect(r.meanRating).toEqual([12.5, 50, 100]);
    // Six ratings: categories 0:1, 25:1, 50:2, 100:2 → P̄e = (1+1+4+4)/36; P̄ = (0+1+1)/3.
    const pe = 10 / 36;
    expect(r.fleiss.kappa).toBeCloseTo((2 / 3 - pe) / (1 - pe), 12);
    expect(r.correlations[0].set).toBe('good');
    expect(r.correlations[0].pearson).toBeCloseTo(pearson([12.5, 50, 100], [0.1, 0.5, 1]), 12);
    expect(r.correlations[0].pearson).toBeGreaterThan(0.99);
    expect(r.correlations[1].pearson).toBeNaN();
  });

  it('a re-rating replaces the earlier one; trajectories missing a rater are left out; bad levels throw', () => {
    const r = studyResult([...ratings, { trajectory: 't1', rater: 'r1', value: 25 }, { trajectory: 't4', rater: 'r1', value: 75 }]);
    expect(r.incomplete).toEqual(['t4']);
    expect(r.meanRating[0]).toBe(25);
    expect(() => studyResult([{ trajectory: 't', rater: 'r', value: 30 as never }])).toThrow(RangeError);
  });

  it('sampling spreads across groups and is deterministic', () => {
    const items = [
      ...Array.from({ length: 10 }, (_, i) => ({ id: `h${i}`, group: 'human' })),
      ...Array.from({ length: 2 }, (_, i) => ({ id: `m${i}`, group: 'model:x' })),
      ...Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, group: 'random' })),
    ];
    const s = sampleForStudy(items, 7, 1);
    expect(s).toHaveLength(7);
    expect(s.filter((x) => x.group === 'model:x')).toHaveLength(2);
    expect(s.filter((x) => x.group === 'random').length).toBeGreaterThanOrEqual(2);
    expect(new Set(s.map((x) => x.id)).size).toBe(7);
    expect(sampleForStudy(items, 7, 1)).toEqual(s);
    expect(sampleForStudy(items, 100, 1)).toHaveLength(17);
  });
});
