/**
 * Issue 29 §1: proposals that can fire. Candidate patterns ranked by how well they tell a
 * moment apart across the stored episodes (no stop words or bare numbers); a proposal is
 * placed only where it is credited at its own step and is no duplicate; the per-subgoal
 * check names duplicates, same-moment twins, episodes where a subgoal can never fire and
 * those where another subgoal takes its steps.
 */
import { describe, expect, it } from 'vitest';
import {
  alignedDisagreements,
  alignSets,
  checkSubgoals,
  compareSets,
  hasContentWord,
  parseSubgoalSet,
  placeProposal,
  prepareEpisodes,
  proposePatterns,
  rescore,
  type EpisodeText,
  type SubgoalSet,
} from '../../runtime/annotation/index.ts';
import { matchStyle } from '../../envs/core/subgoals.ts';

function set(subgoals: SubgoalSet['subgoals']): SubgoalSet {
  const r = parseSubgoalSet({ format: 1, env: 'test', task: 'test-0', author: 't', version: 2, parentVersion: null, createdAt: '2026-01-01T00:00:00.000Z', subgoals });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}
const pattern = (p: string) => ({ label: p, matcher: { kind: 'pattern' as const, pattern: p } });
const episode = (id: string, observations: string[]): EpisodeText => ({ id, initial: observations[0], steps: observations.slice(1).map((o) => ({ observation: o })), success: null });

describe('proposePatterns', () => {
  it('drops stop words and bare numbers, and every candidate matches this step and no earlier one', () => {
    const obs = ['You see a wall 3 steps away.', 'You see the key 0 steps away. Door opens.'];
    const ranked = proposePatterns(obs, 1);
    expect(ranked.length).toBeGreaterThan(0);
    for (const p of ranked) {
      expect(hasContentWord(p), p).toBe(true);
      expect(matchStyle(obs[1], p)).toBe(true);
      expect(matchStyle(obs[0], p)).toBe(false);
    }
    expect(ranked).not.toContain('0');
    expect(ranked).not.toContain('the');
    expect(hasContentWord('0')).toBe(false);
    expect(hasContentWord('The')).toBe(false);
    expect(hasContentWord('to the')).toBe(false);
    expect(hasContentWord('red ball')).toBe(true);
  });

  it('ranks first what marks this moment across the stored episodes, not what is everywhere', () => {
    // "right" is new at step 2 here but shows on most observations of the other episodes; "ball" only where it is picked up.
    const here = ['You face a wall.', 'You turn left.', 'You turn right. You pick up the ball.'];
    const others = [
      ['You face a wall on the right.', 'You turn right.', 'You pick up the ball.'],
      ['A door on the right.', 'You turn right.', 'You go right.'],
    ];
    // Without stored episodes: smallest first, so the one-word "right" comes before every two-word pattern.
    const alone = proposePatterns(here, 2);
    expect(alone.indexOf('right')).toBeLessThan(alone.indexOf('pick up'));
    // With them: "right" is in both other episodes' first observation, so it goes behind every pattern that is not.
    const ranked = proposePatterns(here, 2, [here, ...others], 100);
    expect(ranked.indexOf('right')).toBeGreaterThan(ranked.indexOf('turn right'));
    expect(ranked.indexOf('right')).toBeGreaterThan(ranked.indexOf('pick up'));
    expect(ranked.slice(0, 2)).toEqual(['pick', 'ball']);
  });
});

describe('checkSubgoals and placeProposal', () => {
  const episodes = prepareEpisodes([
    episode('e1', ['start', 'red ball seen', 'red ball held', 'door open']),
    episode('e2', ['start', 'nothing', 'red ball seen', 'red ball held']),
  ]);

  it('names duplicates, same-moment twins, where a subgoal never holds and where another takes its step', () => {
    const s = set([pattern('red ball'), pattern('ball'), pattern('seen'), pattern('door')]);
    const checks = checkSubgoals(s, episodes, rescore(s, episodes));
    // "red ball" and "ball" hold on exactly the same steps everywhere.
    expect(checks[0].duplicateOf).toEqual([1]);
    expect(checks[1].duplicateOf).toEqual([0]);
    // "seen" first holds when "red ball" does (steps 1 and 2) but not on the same steps: a same-moment twin.
    expect(checks[2].sameMomentAs).toEqual([0, 1]);
    expect(checks[2].duplicateOf).toEqual([]);
    // "door" holds only in e1.
    expect(checks[3].neverHolds).toEqual(['e2']);
    // "seen" holds at e1 step 1 and e2 step 2, but "red ball" takes those steps (one subgoal a step): it is never credited.
    const fired = rescore(s, episodes).episodes.map((e) => e.fired);
    expect(fired).toEqual([
      [1, 2, null, 3],
      [2, 3, null, null],
    ]);
    expect(checks[2].crowdedOut).toEqual([
      { episode: 'e1', steps: [1] },
      { episode: 'e2', steps: [2] },
    ]);
    expect(checks[0].crowdedOut).toEqual([]);
  });

  it('places a proposal where it is credited at its own step, skipping duplicates and candidates that would not fire there', () => {
    const s = set([pattern('red ball')]);
    // Marking e1 step 2 ("held"): "ball" duplicates subgoal 1, "red" first holds with it; "held" is new.
    const r = placeProposal(s, ['ball', 'red', 'held'], episodes, 'e1', 2);
    expect(r.placed?.pattern).toBe('held');
    expect(r.placed?.at).toBe(1);
    expect(r.rejected.map((x) => x.pattern)).toEqual(['ball', 'red']);
    expect(r.rejected[0].why).toContain('same firings as subgoal 1');
    expect(rescore(r.placed!.set, episodes).episodes[0].fired).toEqual([1, 2]);

    // Marking e1 step 1, where subgoal 1 ("ball") is credited: the new one goes first and takes the step
    // (in e3 "ball" comes without "seen", so they are no twins).
    const more = [...episodes, ...prepareEpisodes([episode('e3', ['start', 'a ball', 'x'])])];
    const first = placeProposal(set([pattern('ball')]), ['seen'], more, 'e1', 1);
    expect(first.placed?.at).toBe(0);
    expect(rescore(first.placed!.set, more).episodes[0].fired).toEqual([1, 2]);

    // A candidate that holds at the step but is credited earlier (it held before) is refused with the reason.
    const late = placeProposal(set([]), ['red'], episodes, 'e1', 2);
    expect(late.placed).toBeNull();
    expect(late.rejected[0].why).toBe('would not be credited at step 2');
  });
});

describe('alignSets: agreement by what subgoals match', () => {
  // A = [red, blue], B = [blue, green]; four episodes (worked by hand below).
  const eps = prepareEpisodes([
    episode('e1', ['start', 'red', 'blue']),
    episode('e2', ['start', 'blue', 'red']),
    episode('e3', ['start', 'green', 'x']),
    episode('e4', ['start', 'x', 'y']),
  ]);
  const a = set([pattern('red'), pattern('blue')]);
  const b = set([pattern('blue'), pattern('green')]);

  it('pairs the subgoals that fire together, lists the rest, and gives κ and timing per pair and for the set', () => {
    const r = alignSets(rescore(a, eps), rescore(b, eps), 1);
    // A's blue (2nd) fires with B's blue (1st) in e1 (step 2) and e2 (step 1); A's red never fires with B's green.
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([[1, 0]]);
    expect(r.pairs[0].kappa.kappa).toBe(1);
    expect(r.pairs[0].timing).toEqual({ either: 2, sameStep: 2, withinK: 2 });
    expect([r.unmatchedA, r.unmatchedB]).toEqual([[0], [1]]);
    // Set κ over 12 (subgoal, episode) cells: reached A = TTFF TTFF FFFF, B = TTFF FFFF FFTF.
    // p_o = 9/12; p_e = (4/12)(3/12) + (8/12)(9/12) = 84/144; κ = (0.75 − 0.58333) / (1 − 0.58333) = 0.4.
    expect(r.kappa.observed).toBeCloseTo(0.75, 10);
    expect(r.kappa.kappa).toBeCloseTo(0.4, 10);
    expect(r.timing).toEqual({ either: 5, sameStep: 2, withinK: 2 });
  });

  it('is not fooled by position: red against blue agree on "reached at all" but are not aligned', () => {
    // By position (the old comparison) subgoal 1 is red vs blue: both reached in e1 and e2, κ = 1.
    expect(compareSets([a, b], eps).subgoals[0].kappa.kappa).toBe(1);
    // With ±0 steps red (e1 step 1, e2 step 2) and blue (e1 step 2, e2 step 1) never fire together.
    const r = alignSets(rescore(a, eps), rescore(b, eps), 0);
    expect(r.pairs.some((p) => p.a === 0)).toBe(false);
  });

  it('queues disagreements by the same pairing: aligned subgoals apart by more than ±k, and firings of unmatched ones', () => {
    const ra = rescore(a, eps);
    const rb = rescore(b, eps);
    // blue/blue agree in e1 and e2; A's red (unmatched) fires in e1 at 1 and e2 at 2; B's green (unmatched) in e3 at 1.
    expect(alignedDisagreements(ra, rb, alignSets(ra, rb, 1), 0, 1)).toEqual([
      { episode: 'e1', first: { set: 0, subgoal: 0, step: 1 }, other: { set: 1, subgoal: null, step: null } },
      { episode: 'e2', first: { set: 0, subgoal: 0, step: 2 }, other: { set: 1, subgoal: null, step: null } },
      { episode: 'e3', first: { set: 1, subgoal: 1, step: 1 }, other: { set: 0, subgoal: null, step: null } },
    ]);
    // By position the old queue contrasts red with blue in e1 and e2 instead.
    expect(compareSets([a, b], eps).queue.filter((q) => q.subgoal === 0)).toHaveLength(4);
  });

  it('an aligned pair fired further apart than ±k is one disagreement, opened at the earlier firing, with both sides', () => {
    const timing = prepareEpisodes([episode('e1', ['s', 'late start', 'x', 'x', 'red']), episode('e2', ['s', 'red late'])]);
    const ra = rescore(set([pattern('red')]), timing);
    const rb = rescore(set([pattern('late')]), timing);
    const r = alignSets(ra, rb, 1);
    expect(r.pairs.map((p) => [p.a, p.b])).toEqual([[0, 0]]);
    expect(alignedDisagreements(ra, rb, r, 2, 5)).toEqual([{ episode: 'e1', first: { set: 5, subgoal: 0, step: 1 }, other: { set: 2, subgoal: 0, step: 4 } }]);
    // Within ±3 they agree.
    expect(alignedDisagreements(ra, rb, alignSets(ra, rb, 3))).toEqual([]);
  });
});
