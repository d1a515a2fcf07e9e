/**
 * SmartPlay's shared machinery (envs/core/README.md, "SmartPlay"): action list text, the driver's
 * action matching, the HistoryTracker window and the prompt's system messages.
 */
import { describe, expect, it } from 'vitest';
import { describeActions, describeHistory, matchAction, smartplayContext, SMARTPLAY_PLAYER_LINE } from '../../envs/core/smartplay.ts';
import { hanoi } from '../../envs/hanoi/index.ts';
import { bandits } from '../../envs/bandits/index.ts';
import { rps } from '../../envs/rps/index.ts';
import { loadAll } from '../../envs/index.ts';
import { resetSync, rollout, stepSync, task, testRandom } from './helpers.ts';

const RPS_LOWER = ['rock', 'paper', 'scissor'];

describe('describeActions (describe_act)', () => {
  it('numbers the actions from 1 under "List of all actions:"', () => {
    expect(describeActions(['Rock', 'Paper', 'Scissor'])).toBe('List of all actions:\n1. Rock\n2. Paper\n3. Scissor');
    expect(describeActions(['Pull slot machine 1.', 'Pull slot machine 2.'])).toBe('List of all actions:\n1. Pull slot machine 1.\n2. Pull slot machine 2.');
  });

  it('an empty list is just the header (Python "\\n".join([]) is "")', () => {
    expect(describeActions([])).toBe('List of all actions:\n');
  });

  it('every manual ends with the env\'s own action list (Crafter\'s is its context text alone, as upstream: crafter-text.test.ts)', async () => {
    for (const env of (await loadAll()).filter((e) => e.suites.some((m) => m.suite === 'smartplay') && e.id !== 'crafter')) {
      for (const t of env.tasks()) {
        const actions = env.validActions(resetSync(env, t, 0).state);
        expect(env.manual(t).endsWith(`\n\n${describeActions(actions)}`), `${env.id}/${t.id}`).toBe(true);
      }
    }
  });
});

describe('matchAction (match_act)', () => {
  it('the earliest occurrence wins', () => {
    expect(matchAction('I choose paper, not rock', RPS_LOWER)).toEqual({ index: 1, matched: true });
    expect(matchAction('rock beats scissor, so paper', RPS_LOWER)).toEqual({ index: 0, matched: true });
    expect(matchAction('Scissor? or Rock?', RPS_LOWER)).toEqual({ index: 2, matched: true });
  });

  it('lowercases the reply', () => {
    expect(matchAction('ROCK', RPS_LOWER)).toEqual({ index: 0, matched: true });
    expect(matchAction('PaPeR', RPS_LOWER)).toEqual({ index: 1, matched: true });
  });

  it('matches substrings: "scissors" contains "scissor"', () => {
    expect(matchAction('scissors', RPS_LOWER)).toEqual({ index: 2, matched: true });
    expect(matchAction('paperclip', RPS_LOWER)).toEqual({ index: 1, matched: true });
  });

  it('no occurrence: index 0, not matched', () => {
    expect(matchAction('lizard spock', RPS_LOWER)).toEqual({ index: 0, matched: false });
    expect(matchAction('', RPS_LOWER)).toEqual({ index: 0, matched: false });
    expect(matchAction('roc k', RPS_LOWER)).toEqual({ index: 0, matched: false });
  });

  it('on a tie of first occurrence the lower action index wins (Python sorted is stable)', () => {
    expect(matchAction('move left now', ['move left now', 'move left'])).toEqual({ index: 0, matched: true });
    expect(matchAction('move left now', ['move left', 'move left now'])).toEqual({ index: 0, matched: true });
  });

  it('the first occurrence of each action counts, not a later one', () => {
    // "rock" first occurs at 0; "paper" at 5; a later "rock" does not matter.
    expect(matchAction('rock paper rock', RPS_LOWER)).toEqual({ index: 0, matched: true });
    expect(matchAction('xx paper rock paper', RPS_LOWER)).toEqual({ index: 1, matched: true });
  });

  it('Unicode lowercases as Python does: İ gives "i" and a combining dot, the Kelvin sign "k"', () => {
    expect(matchAction('ROCK\u212a', ['rockk'])).toEqual({ index: 0, matched: true });
    expect(matchAction('PAPİ', ['papi'])).toEqual({ index: 0, matched: true });
    expect(matchAction('PAPİER', ['papier'])).toEqual({ index: 0, matched: false }); // "papi̇er"
    expect(matchAction('ßcissor Σ paper', RPS_LOWER)).toEqual({ index: 1, matched: true });
  });

  it('agrees with lowercasing the whole reply on 20,000 random replies', () => {
    const rand = testRandom(16);
    const pieces = ['rock', 'Paper', 'SCISSOR', 'pap', 'er', 'İ', '\u212a', 'Σ', 'ß', '\u0301', '\ud800', '😀', ' ', 'k', 'i', '\u0307', 'ﬃ', 'Å'];
    const actions = ['rock', 'paper', 'scissor', 'ik', 'kk', 'i'];
    for (let k = 0; k < 20_000; k++) {
      const reply = Array.from({ length: Math.floor(rand() * 12) }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
      const lowered = reply.toLowerCase();
      let best = -1;
      actions.forEach((a, i) => {
        const at = lowered.indexOf(a);
        if (at !== -1 && (best === -1 || at < lowered.indexOf(actions[best]))) best = i;
      });
      expect(matchAction(reply, actions), JSON.stringify(reply)).toEqual(best === -1 ? { index: 0, matched: false } : { index: best, matched: true });
    }
  });

  it('a 1 MB reply of exotic Unicode is matched (without lowercasing it whole: npm run fuzz times it)', () => {
    expect(matchAction('İßΣ\u200b😀\u0301'.repeat(150_000) + 'PAPER', RPS_LOWER)).toEqual({ index: 1, matched: true });
    expect(matchAction('x\u212aİ'.repeat(300_000), ['xk', 'i'])).toEqual({ index: 0, matched: true });
  });

  it('Hanoi: the full action sentence must appear', () => {
    const lowered = hanoi.validActions(resetSync(hanoi, task(hanoi, 'hanoi-3'), 0).state).map((a) => a.toLowerCase());
    expect(matchAction('Move the top disk of rod B to the top of rod C', lowered)).toEqual({ index: 3, matched: true });
    expect(matchAction('move disk from A to C', lowered)).toEqual({ index: 0, matched: false });
  });
});

describe('unmatched text through the environments plays action 0 with valid false', () => {
  it('Hanoi', () => {
    const s = stepSync(hanoi, resetSync(hanoi, task(hanoi, 'hanoi-3'), 0).state, 'blah');
    expect(s.observation.startsWith('You tried to move the top disk of rod a to the top of rod b. ')).toBe(true);
    expect(s.valid).toBe(false);
  });

  it('Bandits', () => {
    const s = stepSync(bandits, resetSync(bandits, task(bandits, 'bandits-highlow'), 0).state, 'blah');
    expect(s.observation.startsWith('You pulled slot machine 1, ')).toBe(true);
    expect(s.valid).toBe(false);
  });

  it('RPS', () => {
    const s = stepSync(rps, resetSync(rps, task(rps, 'rps-basic'), 0).state, 'blah');
    expect(s.observation.startsWith('You chose Rock, ')).toBe(true);
    expect(s.valid).toBe(false);
  });
});

describe('describeHistory (HistoryTracker.describe)', () => {
  it('is "" when there is no previous observation (right after reset)', () => {
    expect(describeHistory([], 5)).toBe('');
    expect(describeHistory(['Current configuration: ...'], 5)).toBe('');
  });

  it('after one step shows the reset observation as Step 0 ("1 steps", as upstream)', () => {
    expect(describeHistory(['A new round begins.', 'You pulled slot machine 2, you received reward -1.'], 50)).toBe(
      "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\nA new round begins.",
    );
  });

  it('lists previous observations in order, stripped', () => {
    expect(describeHistory(['o0', 'o1', 'o2'], 5)).toBe(
      "Most recent 2 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\no0\n\nPlayer Observation Step 1:\no1",
    );
  });

  it('window 5 after 7 steps labels Steps 2..6 and excludes the current observation', () => {
    const obs = ['o0', 'o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7'];
    expect(describeHistory(obs, 5)).toBe(
      "Most recent 5 steps of the player's in-game observation:\n\n" +
        'Player Observation Step 2:\no2\n\n' +
        'Player Observation Step 3:\no3\n\n' +
        'Player Observation Step 4:\no4\n\n' +
        'Player Observation Step 5:\no5\n\n' +
        'Player Observation Step 6:\no6',
    );
  });

  it('with a real Hanoi trajectory of 7 steps and the env\'s window', () => {
    const t = task(hanoi, 'hanoi-3');
    const plan = [
      'Move the top disk of rod A to the top of rod C',
      'Move the top disk of rod A to the top of rod B',
      'Move the top disk of rod C to the top of rod B',
      'Move the top disk of rod A to the top of rod C',
      'Move the top disk of rod B to the top of rod A',
      'Move the top disk of rod B to the top of rod C',
      'Move the top disk of rod B to the top of rod C', // illegal (rod B is empty): still recorded
    ];
    const { init, steps } = rollout(hanoi, t, 0, plan);
    const obs = [init.observation, ...steps.map((s) => s.observation)];
    expect(hanoi.conversation('smartplay', t)).toEqual({ smartplay: { historyWindow: 5 } });
    const h = describeHistory(obs, 5);
    expect(h.startsWith("Most recent 5 steps of the player's in-game observation:\n\nPlayer Observation Step 2:\nYou tried to move the top disk of rod a to the top of rod b. Current configuration:\n")).toBe(true);
    expect(h).toContain('Player Observation Step 6:\nYou tried to move the top disk of rod b to the top of rod c. Current configuration:\n- A: |bottom, [0], top|\n- B: |bottom, [], top|\n- C: |bottom, [2, 1], top|');
    expect(h.endsWith('- C: |bottom, [2, 1], top|')).toBe(true);
    expect(h).not.toContain('Step 0:');
    expect(h).not.toContain('Step 1:');
    expect(h).not.toContain('Step 7:');
    expect(h.match(/Player Observation Step \d+:/g)).toEqual([2, 3, 4, 5, 6].map((k) => `Player Observation Step ${k}:`));
  });
});

describe('smartplayContext (compose_ingame_prompt system messages)', () => {
  it('right after reset: player line, manual, current observation (no empty history message)', () => {
    const msgs = smartplayContext('MANUAL', ['New round begins.'], 50);
    expect(msgs).toEqual([
      { role: 'system', content: 'You’re a player trying to play the game.' },
      { role: 'system', content: 'MANUAL' },
      { role: 'system', content: 'current step observation: New round begins.' },
    ]);
    expect(SMARTPLAY_PLAYER_LINE).toBe('You\u2019re a player trying to play the game.');
  });

  it('later: the history message sits between the manual and the current observation', () => {
    const msgs = smartplayContext('M', ['o0', 'o1'], 5);
    expect(msgs.map((m) => m.content)).toEqual([
      'You’re a player trying to play the game.',
      'M',
      "Most recent 1 steps of the player's in-game observation:\n\nPlayer Observation Step 0:\no0",
      'current step observation: o1',
    ]);
    expect(msgs.every((m) => m.role === 'system')).toBe(true);
  });

  it('an empty manual is left out', () => {
    expect(smartplayContext('', ['x'], 5).map((m) => m.content)).toEqual(['You’re a player trying to play the game.', 'current step observation: x']);
  });
});
