/**
 * Conformance of the Rock Paper Scissors port with SmartPlay's RockPaperScissorBasic-v0
 * (envs/core/README.md "SmartPlay", envs/rps/README.md "Upstream"). Expected texts are written out
 * literally from upstream's source, not computed by the port.
 */
import { describe, expect, it } from 'vitest';
import { rps, rpsManual, type RpsState, type RpsTask } from '../../envs/rps/index.ts';
import { loadEnv, getTask } from '../../envs/index.ts';
import { playEpisode, resetSync, rollout, stepSync, task, testRandom } from './helpers.ts';

const T: RpsTask = task(rps, 'rps-basic');
const MOVES = ['Rock', 'Paper', 'Scissor'] as const;
type Move = (typeof MOVES)[number];

const MANUAL = `For the game Rock Paper Scissors, you and the opponent choose one of three options: rock, paper, or scissors.
After both players have chosen, the winner is determined as follows:
Rock crushes scissors (Rock wins, score 1)
Scissors cut paper (Scissors win, score 1)
Paper covers rock (Paper wins, score 1)
If you lose, your score is the negative of the winner's score.
If both players choose the same option, it's a draw (score 0).
Your goal is to maximize your score.

List of all actions:
1. Rock
2. Paper
3. Scissor`;

/** The full outcome table, "agent|opponent" → exact observation (envs/rps/README.md, Upstream; all scores 1). */
const OUTCOMES: Record<string, { obs: string; reward: number }> = {
  'Rock|Rock': { obs: 'You chose Rock, and the opponent chose Rock. You tied and received score 0.\nNew round begins.', reward: 0 },
  'Rock|Paper': { obs: 'You chose Rock, and the opponent chose Paper. You lost and received score -1.\nNew round begins.', reward: -1 },
  'Rock|Scissor': { obs: 'You chose Rock, and the opponent chose Scissor. You won and received score 1.\nNew round begins.', reward: 1 },
  'Paper|Rock': { obs: 'You chose Paper, and the opponent chose Rock. You won and received score 1.\nNew round begins.', reward: 1 },
  'Paper|Paper': { obs: 'You chose Paper, and the opponent chose Paper. You tied and received score 0.\nNew round begins.', reward: 0 },
  'Paper|Scissor': { obs: 'You chose Paper, and the opponent chose Scissor. You lost and received score -1.\nNew round begins.', reward: -1 },
  'Scissor|Rock': { obs: 'You chose Scissor, and the opponent chose Rock. You lost and received score -1.\nNew round begins.', reward: -1 },
  'Scissor|Paper': { obs: 'You chose Scissor, and the opponent chose Paper. You won and received score 1.\nNew round begins.', reward: 1 },
  'Scissor|Scissor': { obs: 'You chose Scissor, and the opponent chose Scissor. You tied and received score 0.\nNew round begins.', reward: 0 },
};

/** The move that beats each move: Paper covers Rock, Scissor cuts Paper, Rock crushes Scissor. */
const BEATS: Record<Move, Move> = { Rock: 'Paper', Paper: 'Scissor', Scissor: 'Rock' };

/** Parse a step observation into (agent, opponent) moves, failing on any other shape. */
function parseRound(obs: string): { agent: Move; opponent: Move } {
  const m = /^You chose (Rock|Paper|Scissor), and the opponent chose (Rock|Paper|Scissor)\. You (won|lost|tied) and received score (-?\d+)\.\nNew round begins\.$/.exec(obs);
  expect(m, `unexpected observation ${JSON.stringify(obs)}`).not.toBeNull();
  return { agent: m![1] as Move, opponent: m![2] as Move };
}

/** Opponent move counts over n rounds from a state (the env is pure: the state carries the generator). */
function opponentCounts(start: RpsState, n: number, play: string = 'Rock'): Record<Move, number> {
  const counts: Record<Move, number> = { Rock: 0, Paper: 0, Scissor: 0 };
  let state = start;
  for (let i = 0; i < n; i++) {
    const s = stepSync(rps, state, play);
    counts[parseRound(s.observation).opponent]++;
    state = s.state;
  }
  return counts;
}

const favouredOf = (state: RpsState): Move => MOVES[state.probs.indexOf(0.6)];

describe('RPS: registration and settings', () => {
  it('is registered with the upstream task', async () => {
    expect(await loadEnv('rps')).toBe(rps);
    expect(getTask(rps, 'RockPaperScissorBasic-v0').id).toBe('rps-basic');
    expect(rps.suites).toEqual([{ suite: 'smartplay' }]);
  });

  it('has a 50-step horizon and a 50-step history window', () => {
    expect(rps.maxSteps(T)).toBe(50);
    expect(rps.limitKind).toBe('horizon');
    expect(rps.conversation('smartplay', rps.tasks()[0])).toEqual({ smartplay: { historyWindow: 50 } });
  });

  it('offers Rock, Paper, Scissor', () => {
    expect(rps.validActions(resetSync(rps, T, 0).state)).toEqual(['Rock', 'Paper', 'Scissor']);
  });

  it('the manual is exact', () => {
    expect(rps.manual(T)).toBe(MANUAL);
  });

  it('success is null', () => {
    expect(rps.success(rollout(rps, T, 1, ['Rock']).state)).toBeNull();
  });
});

describe('RPS: observations and outcomes', () => {
  it('reset observation is "New round begins." with score 0', () => {
    const init = resetSync(rps, T, 0);
    expect(init.observation).toBe('New round begins.');
    expect(init.score).toBe(0);
  });

  it('all 9 (agent, opponent) pairs give the upstream outcome, text and reward', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      for (const agent of MOVES) {
        const { steps } = rollout(rps, T, seed, Array(20).fill(agent));
        for (const s of steps) {
          const { opponent } = parseRound(s.observation);
          const key = `${agent}|${opponent}`;
          expect(s.observation).toBe(OUTCOMES[key].obs);
          expect(s.reward).toBe(OUTCOMES[key].reward);
          expect(s.valid).toBe(true);
          expect(s.terminated).toBe(false);
          expect(s.truncated).toBe(false);
          seen.add(key);
        }
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(OUTCOMES).sort());
  });

  it('the step info agrees with the observation', () => {
    const { steps } = rollout(rps, T, 3, ['Rock', 'Paper', 'Scissor', 'Rock', 'Paper', 'Scissor']);
    for (const s of steps) {
      const { agent, opponent } = parseRound(s.observation);
      expect(s.info?.action).toBe(MOVES.indexOf(agent));
      expect(s.info?.opponent).toBe(MOVES.indexOf(opponent));
      expect(s.info?.result).toMatch(/^(won|lost|tied)$/);
      expect(s.observation).toContain(`You ${s.info?.result as string} and`);
    }
  });

  it('matches actions in free text; "scissors" plays Scissor; unmatched text plays Rock and is invalid', () => {
    const init = resetSync(rps, T, 8);
    const cases: [string, Move, boolean][] = [
      ['I choose paper, not rock', 'Paper', true],
      ['ROCK', 'Rock', true],
      ['scissors', 'Scissor', true],
      ['Rock or Scissor? Scissor!', 'Rock', true],
      ['', 'Rock', false],
      ['lizard', 'Rock', false],
    ];
    for (const [text, move, valid] of cases) {
      const s = stepSync(rps, init.state, text);
      expect(parseRound(s.observation).agent, text).toBe(move);
      expect(s.valid, text).toBe(valid);
    }
  });
});

describe('RPS: biased opponent and best response', () => {
  it('the favoured move (p = 0.6) changes across seeds: all three occur', () => {
    const counts: Record<Move, number> = { Rock: 0, Paper: 0, Scissor: 0 };
    for (let seed = 0; seed < 300; seed++) {
      const { state } = resetSync(rps, T, seed);
      expect([...state.probs].sort()).toEqual([0.2, 0.2, 0.6]);
      expect(state.rewards).toEqual([1, 1, 1]);
      counts[favouredOf(state)]++;
    }
    for (const m of MOVES) expect(counts[m], m).toBeGreaterThan(60);
  });

  it('the optimal action is the move that beats the favoured one', () => {
    for (let seed = 0; seed < 60; seed++) {
      const { state } = resetSync(rps, T, seed);
      expect(MOVES[state.optimal]).toBe(BEATS[favouredOf(state)]);
    }
  });

  it('the opponent plays its favoured move ~60% of the time and each other ~20%', () => {
    const totals = { favoured: 0, other: 0, rounds: 0 };
    for (let seed = 200; seed < 230; seed++) {
      const { state } = resetSync(rps, T, seed);
      const fav = favouredOf(state);
      const counts = opponentCounts(state, 400, MOVES[seed % 3]);
      // The empirically most frequent move is the favoured one.
      const top = MOVES.reduce((a, b) => (counts[b] > counts[a] ? b : a));
      expect(top).toBe(fav);
      totals.favoured += counts[fav];
      totals.other += 400 - counts[fav];
      totals.rounds += 400;
    }
    expect(totals.favoured / totals.rounds).toBeGreaterThan(0.57);
    expect(totals.favoured / totals.rounds).toBeLessThan(0.63);
    expect(totals.other / 2 / totals.rounds).toBeGreaterThan(0.17);
    expect(totals.other / 2 / totals.rounds).toBeLessThan(0.23);
  });

  it('score counts plays of the best response to the empirically favoured move', () => {
    const rand = testRandom(77);
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const init = resetSync(rps, T, seed);
      // Learn the favoured move by observation only (1000 rounds from the reset state).
      const counts = opponentCounts(init.state, 1000);
      const favoured = MOVES.reduce((a, b) => (counts[b] > counts[a] ? b : a));
      const best = BEATS[favoured];
      let state = init.state;
      let expected = 0;
      for (let i = 0; i < 50; i++) {
        const move = MOVES[Math.floor(rand() * 3)];
        const s = stepSync(rps, state, move);
        if (move === best) expected++;
        expect(s.score).toBe(expected);
        state = s.state;
      }
    }
  });

  it('the best response wins more than it loses in the long run; the worst response loses more', () => {
    const { state } = resetSync(rps, T, 42);
    const fav = favouredOf(state);
    const best = BEATS[fav];
    // The worst response is the move the favoured one beats.
    const worst = MOVES.find((m) => BEATS[m] === fav)!;
    const total = (move: Move) => rollout(rps, T, 42, Array(500).fill(move)).steps.reduce((acc, s) => acc + s.reward, 0);
    // E[best] = 0.6 - 0.2 = 0.4 per round; E[worst] = 0.2 - 0.6 = -0.4.
    expect(total(best)).toBeGreaterThan(120);
    expect(total(worst)).toBeLessThan(-120);
  });
});

describe('RPS: through the episode machine', () => {
  it('the 50-step horizon ends with Complete after exactly 50 steps; success is null', async () => {
    const { state } = resetSync(rps, T, 6);
    const best = MOVES[state.optimal];
    const { snapshot, output, context } = await playEpisode(rps, T, Array(60).fill(best), { seed: 6 });
    expect(snapshot.status).toBe('done');
    expect(output).toEqual({ score: 50, success: null, steps: 50, finishReason: 'Complete' });
    expect(context.history[49].truncated).toBe(true);
    expect(context.initialObservation).toBe('New round begins.');
  });
});

describe('RPS: RockPaperScissorDifferentScore-v0 (the variant upstream cannot build)', () => {
  const D: RpsTask = task(rps, 'rps-differentscore');

  it('is registered with its upstream name, says upstream cannot run it, and is not in benchmark v0', () => {
    expect(D.name).toBe('RockPaperScissorDifferentScore-v0');
    expect(D.description).toMatch(/cannot run/);
    expect(D.benchmarkV0).toBe(false);
    expect(T.benchmarkV0).toBe(true);
    expect(rps.maxSteps(D)).toBe(50);
  });

  it('shuffles probabilities [0.3, 0.3, 0.4] together with scores [1, 2, 1]; every pairing occurs', () => {
    const pairings = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      const { state } = resetSync(rps, D, seed);
      const pairs = state.probs.map((p, i) => `${p}:${state.rewards[i]}`);
      expect([...pairs].sort()).toEqual(['0.3:1', '0.3:2', '0.4:1']);
      pairings.add(pairs.join(' '));
    }
    expect(pairings.size).toBe(6);
  });

  it('the opponent plays its 0.4 move about 40% of the time', () => {
    let fav = 0;
    const N = 6000;
    for (let seed = 0; seed < 30; seed++) {
      const { state } = resetSync(rps, D, seed);
      const counts = opponentCounts(state, N / 30);
      fav += counts[MOVES[state.probs.indexOf(0.4)]];
    }
    expect(Math.abs(fav / N - 0.4)).toBeLessThan(0.03);
  });

  it('a win scores the winning move\'s score, a loss minus the opponent\'s, a tie 0', () => {
    for (let seed = 0; seed < 20; seed++) {
      const { state } = resetSync(rps, D, seed);
      let s = state;
      for (let i = 0; i < 30; i++) {
        const move = MOVES[i % 3];
        const step = stepSync(rps, s, move);
        const { agent, opponent } = parseRound(step.observation);
        const a = MOVES.indexOf(agent);
        const o = MOVES.indexOf(opponent);
        const expected = a === o ? 0 : BEATS[opponent] === agent ? state.rewards[a] : -state.rewards[o];
        expect(step.reward).toBe(expected);
        expect(step.observation).toContain(`received score ${expected}.`);
        s = step.state;
      }
    }
  });

  it('the best response maximises upstream\'s expected score (checked by brute force)', () => {
    for (let seed = 0; seed < 60; seed++) {
      const { state } = resetSync(rps, D, seed);
      const ev = MOVES.map((_, a) =>
        MOVES.reduce((acc, _o, o) => acc + state.probs[o] * (a === o ? 0 : BEATS[MOVES[o]] === MOVES[a] ? state.rewards[a] : -state.rewards[o]), 0),
      );
      expect(ev[state.optimal]).toBeCloseTo(Math.max(...ev), 12);
    }
  });

  it('the manual is rebuilt from the episode\'s shuffled scores, each line showing its own move\'s score', () => {
    const lines = (seed: number) => rpsManual(D, seed).split('\n').slice(2, 5);
    for (let seed = 0; seed < 30; seed++) {
      const { state } = resetSync(rps, D, seed);
      expect(lines(seed)).toEqual([
        `Rock crushes scissors (Rock wins, score ${state.rewards[0]})`,
        `Scissors cut paper (Scissors win, score ${state.rewards[2]})`,
        `Paper covers rock (Paper wins, score ${state.rewards[1]})`,
      ]);
    }
    expect(new Set(Array.from({ length: 30 }, (_, seed) => lines(seed).join('|'))).size).toBe(3);
    // Without a seed the scores are not yet drawn; Basic's manual is the same for every seed.
    expect(rps.manual(D)).toContain('(Rock wins, score (drawn per episode))');
    expect(rpsManual(T, 7)).toBe(MANUAL);
    expect(rps.manual(T)).toBe(MANUAL);
  });
});
