/**
 * Subgoal scoring (runtime/annotation, envs/core/subgoals.ts) against AgentBoard itself:
 * - the progress AgentBoard's own match_style/update_reward compute on the recorded
 *   BabyAI ground-truth texts (agentboard_progress.jsonl.gz, made by
 *   upstream's own code, once, outside the repository: runtime/annotation/README.md), step by step;
 * - the progress the BabyAI and PDDL environments record while playing (credited steps,
 *   help and invalid actions, forced completion), re-derived from the observations;
 * - crediting rules, matcher kinds, the per-subgoal checks, and pattern proposals.
 */
import { babyaiBuiltinSet, babyaiBuiltinSets, pddlBuiltinSets } from '../support/builtinSets.ts';
import { describe, expect, it } from 'vitest';
import { readJsonl } from '../../envs/babyai/tools/ground-truth.ts';
import { babyai, type BabyAIState } from '../../envs/babyai/index.ts';
import { initProgress, updateProgress } from '../../envs/babyai/progress.ts';
import { pddl, goalStatus, TASKS as PDDL_TASKS, type PddlState } from '../../envs/pddl/index.ts';
import { matchStyle } from '../../envs/core/subgoals.ts';
import {
  agentboardCredited,
  compileSet,
  episodeFromRecords,
  matcherFiresOn,
  parseSubgoalSet,
  prepareEpisodes,
  proposePattern,
  rescore,
  scoreEpisode,
  type EpisodeText,
  type PredicateEvaluator,
  type SubgoalSet,
} from '../../runtime/annotation/index.ts';
import { replayStates, stateEvaluator } from '../../runtime/annotation/predicates.ts';
import { PDDL_PREDICATES } from '../../envs/pddl/annotation/predicates.ts';
import { BABYAI_PREDICATES } from '../../envs/babyai/annotation/predicates.ts';
import { resetSync, stepSync, testRandom } from './helpers.ts';

const COMPLETED = '\n The task is completed.';

function set(subgoals: SubgoalSet['subgoals'], crediting: 'subgoal' | 'match' = 'subgoal'): SubgoalSet {
  const r = parseSubgoalSet({
    format: 1,
    env: 'test',
    task: 'test-0',
    author: 'tester',
    version: 1,
    parentVersion: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    crediting,
    subgoals,
  });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

const pattern = (p: string) => ({ label: p, matcher: { kind: 'pattern' as const, pattern: p } });

function episode(id: string, observations: string[], success: boolean | null = null): EpisodeText {
  return { id, initial: observations[0], steps: observations.slice(1).map((o) => ({ observation: o })), success };
}

describe('AgentBoard BabyAI progress on the recorded ground truth', () => {
  const texts = readJsonl('agentboard_text.jsonl.gz');
  const runs = { trajectory: readJsonl('trajectories.jsonl'), solution: readJsonl('solutions.jsonl') };
  const expected = readJsonl('agentboard_progress.jsonl');
  const sets = babyaiBuiltinSets();

  it('builds 112 sets: ids, alternative lists as "any" matchers', () => {
    expect(sets.length).toBe(112);
    expect(sets.map((s) => s.task)).toEqual(Array.from({ length: 112 }, (_, k) => `babyai-${k}`));
    expect(sets.every((s) => s.version === 1 && s.parentVersion === null && s.author === 'agentboard')).toBe(true);
    expect(sets[52].subgoals.map((s) => s.matcher.kind)).toEqual(['any', 'any']);
    expect(sets.reduce((n, s) => n + s.subgoals.length, 0)).toBe(
      292 - 4, // 292 patterns in all; problems 52 and 54 hold 2 × 2 alternatives each
    );
  });

  for (const name of ['trajectory', 'solution'] as const) {
    it(`reproduces upstream's progress after every step of each ${name}`, () => {
      let steps = 0;
      let rises = 0;
      for (const row of texts) {
        const source = runs[name][row.id].steps;
        const observations = row[name].map((e: { text: string }, k: number) => e.text + (source[k].terminated ? COMPLETED : ''));
        const want: number[] = expected[row.id][name];
        const got = scoreEpisode(sets[row.id], { id: String(row.id), initial: row.initial.text, steps: observations.map((o: string) => ({ observation: o })) });
        expect(got.progress, `problem ${row.id} ${name}`).toEqual(want);
        // The environment's own bookkeeping (envs/babyai/progress.ts) agrees too.
        const data = babyaiBuiltinSet(row.id);
        const lists = data.subgoals[0]?.matcher.kind === 'any' ? data.subgoals[0].matcher.of.map((_, j) => data.subgoals.map((s) => (s.matcher as any).of[j].pattern)) : [data.subgoals.map((s) => (s.matcher as any).pattern)];
        let p = initProgress(lists, lists.length > 1);
        observations.forEach((o: string, k: number) => {
          p = updateProgress(p, o);
          expect(p.progress).toBe(want[k]);
        });
        steps += want.length;
        rises += got.changes.length;
      }
      expect(steps).toBe(name === 'trajectory' ? 4480 : 3287);
      expect(rises).toBeGreaterThan(50);
    });
  }
});

describe('re-deriving the progress the environments record', () => {
  it('BabyAI: oracle, help, invalid and random actions; progress equals the recorded one at every step', { timeout: 60_000 }, () => {
    const rand = testRandom(13);
    const sets = babyaiBuiltinSets();
    let compared = 0;
    // One seed of every level (the oracle plans, which takes time).
    for (const t of babyai.tasks().filter((x) => x.index % 4 === 0)) {
      const init = resetSync(babyai, t, 0);
      let state: BabyAIState = init.state;
      const header = { id: t.id, env: 'babyai', initialObservation: init.observation };
      const records: { t: number; action: string; valid: boolean; observation: string }[] = [];
      const recorded: number[] = [];
      for (let k = 0; k < 30 && !state.done; k++) {
        const r = rand();
        const valid = babyai.validActions(state);
        const action =
          r < 0.1 ? 'check available actions' : r < 0.2 ? 'fly away' : r < 0.4 ? valid[Math.floor(rand() * valid.length)] : (babyai.oracleAction!(state, t) ?? 'turn left');
        const s = stepSync(babyai, state, action);
        records.push({ t: k + 1, action, valid: s.valid, observation: s.observation });
        recorded.push(s.progress!);
        state = s.state;
      }
      const ep = episodeFromRecords(header as any, records as any);
      const got = scoreEpisode(sets[t.index], ep);
      expect(got.progress, t.id).toEqual(recorded);
      compared += recorded.length;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('PDDL: goal literals as a state predicate with match crediting equal the recorded progress', { timeout: 60_000 }, () => {
    const sets = pddlBuiltinSets();
    expect(sets.length).toBe(60);
    expect(sets.every((s) => s.crediting === 'match' && s.subgoals.every((g) => g.matcher.kind === 'predicate'))).toBe(true);
    const rand = testRandom(7);
    // Every fifth problem: all four domains (the oracle plans, which takes time).
    for (const t of PDDL_TASKS.filter((x) => x.index % 5 === 0)) {
      const init = resetSync(pddl, t, 0);
      let state: PddlState = init.state;
      const states: PddlState[] = [];
      const records: { t: number; action: string; valid: boolean; observation: string }[] = [];
      const recorded: number[] = [];
      for (let k = 0; k < 30; k++) {
        const r = rand();
        const action = r < 0.15 ? 'check valid actions' : r < 0.25 ? 'look around' : r < 0.35 ? 'dance' : (pddl.oracleAction!(state, t) ?? 'check');
        const s = stepSync(pddl, state, action);
        records.push({ t: k + 1, action, valid: s.valid, observation: s.observation });
        recorded.push(s.progress!);
        states.push(s.state);
        state = s.state;
        if (s.terminated) break;
      }
      // The environment answers the predicate from the state after the step (a replay would do the same).
      const evaluate: PredicateEvaluator = (m, at) => {
        if (m.name !== 'goal-literal') return null;
        const status = goalStatus(t, states[at.step - 1]).find((g) => g.text.trim() === String(m.params.text).trim());
        if (!status) throw new Error(`${t.id}: no goal literal "${m.params.text}"`);
        return status.met;
      };
      const ep = episodeFromRecords({ id: t.id, env: 'pddl', initialObservation: init.observation } as any, records as any);
      const got = scoreEpisode(sets[t.index], ep, evaluate);
      expect(got.progress, t.id).toEqual(recorded);
    }
  });
});

describe('crediting rules', () => {
  const obs = ['start', 'There is a red ball 1 right in front of you 1 steps away', 'You are carrying a red ball', 'nothing here'];

  it('at most one subgoal per step, the first remaining in order; uncredited steps are skipped', () => {
    const s = set([pattern('You are carrying a red ball'), pattern('red ball **'), pattern('1 steps away')]);
    const r = scoreEpisode(s, episode('e', obs));
    // Step 1 fires subgoals 2 and 3: only "red ball **" (first in order) is credited.
    expect(r.fired).toEqual([2, 1, null]);
    expect(r.progress).toEqual([1 / 3, 2 / 3, 2 / 3]);
    expect(r.changes).toEqual([
      [1, 1 / 3],
      [2, 2 / 3],
    ]);
    const skipped = scoreEpisode(s, { id: 'e', initial: 'start', steps: [{ observation: obs[1], credited: false }, { observation: obs[2] }] });
    expect(skipped.fired).toEqual([2, null, null]);
    expect(skipped.progress).toEqual([0, 1 / 3]);
  });

  it('the initial observation is never matched', () => {
    const r = scoreEpisode(set([pattern('start')]), episode('e', obs));
    expect(r.fired).toEqual([null]);
    expect(r.final).toBe(0);
  });

  it('"any" fires when an alternative does (AgentBoard\'s alternative lists)', () => {
    const s = set([{ label: 'a door', matcher: { kind: 'any', of: [{ kind: 'pattern', pattern: 'red door' }, { kind: 'regex', source: 'blue\\s+door' }] } }]);
    expect(scoreEpisode(s, episode('e', ['x', 'a blue  door'])).fired).toEqual([1]);
  });

  it('match crediting: fraction holding now, running max; fired = first step held', () => {
    const s = set([pattern('A on'), pattern('B on')], 'match');
    const r = scoreEpisode(s, episode('e', ['x', 'A on', 'B on', 'A on. B on', 'nothing']));
    expect(r.progress).toEqual([0.5, 0.5, 1, 1]);
    expect(r.fired).toEqual([1, 2]);
  });

  it('regex and predicate matchers; a predicate nobody answers never fires and is reported', () => {
    const s = set([
      { label: 'r', matcher: { kind: 'regex', source: '^you', flags: 'i' } },
      { label: 'p', matcher: { kind: 'predicate', name: 'carrying', params: { color: 'red' } } },
    ]);
    const eps = prepareEpisodes([episode('e', ['x', 'nope', 'You win'])]);
    const none = rescore(s, eps);
    expect(none.episodes[0].fired).toEqual([2, null]);
    expect(none.unevaluated).toEqual(['carrying']);
    const withEval = rescore(s, eps, (m, at) => (m.name === 'carrying' ? at.step === 1 : null));
    expect(withEval.episodes[0].fired).toEqual([2, 1]);
    expect(withEval.unevaluated).toEqual([]);
    expect(matcherFiresOn({ kind: 'regex', source: 'b+' }, 'abbb')).toBe(true);
  });

  it('agentboardCredited: help, look around and invalid actions do not update progress', () => {
    expect(agentboardCredited('turn left', true)).toBe(true);
    expect(agentboardCredited('Check valid actions', true)).toBe(false);
    expect(agentboardCredited('look around', true)).toBe(false);
    expect(agentboardCredited('turn left', false)).toBe(false);
  });
});

describe('rescore: the per-subgoal checks', () => {
  const s = set([pattern('got key'), pattern('door open'), pattern('at goal')]);
  const eps = prepareEpisodes([
    episode('in-order', ['x', 'got key', 'door open', 'at goal'], true),
    episode('out-of-order', ['x', 'door open', 'got key'], false),
    episode('missing', ['x', 'got key', 'at goal'], true),
    episode('unknown', ['x', 'at goal'], null),
  ]);
  const r = rescore(s, eps);

  it('where each subgoal fires, out-of-order firings, successes without it, failures with it', () => {
    expect(r.subgoals[0].firedIn).toEqual([
      { episode: 'in-order', step: 1 },
      { episode: 'out-of-order', step: 2 },
      { episode: 'missing', step: 1 },
    ]);
    expect(r.subgoals[1].outOfOrder).toEqual([{ episode: 'out-of-order', step: 1, previousStep: 2 }]);
    expect(r.subgoals[1].succeededWithout).toEqual(['missing']);
    expect(r.subgoals[2].outOfOrder).toEqual([
      { episode: 'missing', step: 2, previousStep: null },
      { episode: 'unknown', step: 1, previousStep: null },
    ]);
    expect(r.subgoals[0].firedButFailed).toEqual([{ episode: 'out-of-order', step: 2 }]);
    expect(r.subgoals[0].succeededWithout).toEqual([]);
    expect(r.meanProgress).toBeCloseTo((1 + 2 / 3 + 2 / 3 + 1 / 3) / 4, 12);
    expect(r.fullProgress).toBe(0.25);
  });

  it('a changed set re-scores the same prepared episodes', () => {
    const edited = set([pattern('got key'), pattern('door'), pattern('goal')]);
    const again = rescore(edited, eps);
    expect(again.episodes.map((e) => e.final)).toEqual([1, 2 / 3, 2 / 3, 1 / 3]);
    expect(compileSet(edited).matchers.length).toBe(3);
  });
});

describe('proposePattern', () => {
  it('on every step of the recorded BabyAI trajectories: matches its observation and no earlier one', { timeout: 60_000 }, () => {
    const texts = readJsonl('agentboard_text.jsonl.gz');
    let proposed = 0;
    let none = 0;
    for (const row of texts.filter((r: { id: number }) => r.id % 4 === 0)) {
      const observations = [row.initial.text, ...row.trajectory.map((e: { text: string }) => e.text)];
      for (let i = 0; i < observations.length; i++) {
        const p = proposePattern(observations, i);
        if (p === null) {
          // Only when every sentence of it was seen inside an earlier sentence.
          const earlier = observations.slice(0, i).flatMap((o) => o.split('.'));
          expect(observations[i].split('.').every((s: string) => earlier.some((e) => e.includes(s.trim())))).toBe(true);
          none++;
          continue;
        }
        expect(matchStyle(observations[i], p), `${row.id}/${i}: ${p}`).toBe(true);
        for (let j = 0; j < i; j++) expect(matchStyle(observations[j], p), `${row.id}/${i} vs ${j}: ${p}`).toBe(false);
        proposed++;
      }
    }
    expect(proposed).toBeGreaterThan(200);
    expect(none).toBeGreaterThan(0);
  });

  it('is the smallest: fewest words first, one piece before two', () => {
    const obs = ['You are not carrying anything.', 'You are carrying a red ball.', 'You are carrying a red key.'];
    expect(proposePattern(obs, 0)).toBe('You');
    // "a" is inside "are", seen before: substring semantics, as AgentBoard matches.
    expect(proposePattern(obs, 1)).toBe('red');
    expect(proposePattern(obs, 2)).toBe('key');
    // A new run of two words (ties on size broken by position).
    expect(proposePattern(['red ball and blue key', 'blue ball and red key'], 1)).toBe('and red');
    // No word and no run of two words is new: two one-word pieces (2 words) beat the three-word run.
    const runs = ['x y. y z', 'x y z'];
    expect(proposePattern(runs, 1)).toBe('x ** z');
    expect(matchStyle(runs[1], 'x ** z')).toBe(true);
    expect(matchStyle(runs[0], 'x ** z')).toBe(false);
  });

  it('null when the observation was seen before; a bad index throws', () => {
    expect(proposePattern(['a b.', 'c.', 'a b.'], 2)).toBeNull();
    expect(() => proposePattern(['a'], 1)).toThrow(RangeError);
  });
});

describe('state predicates from replayed episodes', () => {
  it('PDDL goal-literal through replayStates + stateEvaluator equals the recorded progress', async () => {
    const sets = pddlBuiltinSets();
    for (const t of PDDL_TASKS.filter((x) => x.index % 10 === 3)) {
      const actions: string[] = [];
      let state = resetSync(pddl, t, 0).state;
      const recorded: number[] = [];
      for (let k = 0; k < 12; k++) {
        const a = k % 4 === 1 ? 'check valid actions' : (pddl.oracleAction!(state, t) ?? 'look around');
        const s = stepSync(pddl, state, a);
        actions.push(a);
        recorded.push(s.progress!);
        state = s.state;
        if (s.terminated) break;
      }
      const states = await replayStates(pddl, t, 0, actions);
      const evaluate = stateEvaluator((id) => (id === t.id ? states : undefined), PDDL_PREDICATES);
      const init = resetSync(pddl, t, 0);
      expect(states.at(-1)).toEqual(state);
      const ep: EpisodeText = {
        id: t.id,
        initial: init.observation,
        steps: actions.map((a) => ({ observation: '', credited: agentboardCredited(a, true) })),
      };
      const r = scoreEpisode(sets[t.index], ep, evaluate);
      expect(r.progress, t.id).toEqual(recorded);
      expect(rescore(sets[t.index], prepareEpisodes([ep]), evaluate).unevaluated).toEqual([]);
      // Another episode id has no states: reported, never fired.
      expect(rescore(sets[t.index], prepareEpisodes([{ ...ep, id: 'other' }]), evaluate).unevaluated).toEqual(['goal-literal']);
    }
  });

  it('BabyAI carrying / facing fire on the step the world shows it', async () => {
    const oracle = async (index: number) => {
      const t = babyai.tasks()[index];
      let state = resetSync(babyai, t, 0).state;
      const actions: string[] = [];
      while (!state.done && actions.length < 30) {
        const a = babyai.oracleAction!(state, t)!;
        actions.push(a);
        state = stepSync(babyai, state, a).state;
      }
      const states = await replayStates(babyai, t, 0, actions);
      return { states, ep: { id: t.id, initial: '', steps: actions.map(() => ({ observation: '' })) } as EpisodeText };
    };
    const predicate = (name: string, params: Record<string, string>) => ({ label: name, matcher: { kind: 'predicate' as const, name, params } });

    // Pickup (problem 64): carrying a yellow ball from the step the pickup happens.
    const pick = await oracle(64);
    const carried = pick.states.findIndex((x) => x.world.carrying !== null);
    expect(pick.states[carried].world.carrying).toMatchObject({ type: 'ball', color: 'yellow' });
    const carrySet = set([predicate('carrying', { type: 'ball', color: 'yellow' }), predicate('carrying', { type: 'key' })]);
    const r1 = scoreEpisode(carrySet, pick.ep, stateEvaluator(() => pick.states, BABYAI_PREDICATES));
    expect(r1.fired).toEqual([carried + 1, null]);

    // GoToRedBallGrey (problem 0): the episode ends facing the red ball, not before.
    const go = await oracle(0);
    const facing = set([predicate('facing', { type: 'ball', color: 'red' })]);
    const r2 = scoreEpisode(facing, go.ep, stateEvaluator(() => go.states, BABYAI_PREDICATES));
    expect(r2.fired).toEqual([go.states.length]);
  });
});
