/**
 * The episode machine (envs/core/episode.ts) and the headless runner, with the
 * three SmartPlay games and small fake environments; plus determinism of every game.
 */
import { describe, expect, it } from 'vitest';
import type { EnvDefinition, Step, TaskInfo } from '../../envs/core/types.ts';
import { playActions, startEpisode, stopEpisode, whenIdle } from '../../envs/core/runner.ts';
import { hanoi, hanoiSolution, HANOI_ACTIONS } from '../../envs/hanoi/index.ts';
import { bandits } from '../../envs/bandits/index.ts';
import { rps } from '../../envs/rps/index.ts';
import { playEpisode, rollout, sleep, task, testRandom, whenDone, withoutMs } from './helpers.ts';

const ME = { kind: 'human' } as const;
const H3 = task(hanoi, 'hanoi-3');
const BANDIT = task(bandits, 'bandits-highlow');
const RPS = task(rps, 'rps-basic');

// ---------------------------------------------------------------------------
// A tiny asynchronous environment: each step resolves after `delay` ms.

interface CounterState {
  n: number;
}

const FAKE_TASK: TaskInfo = { id: 'fake-1', name: 'Fake-v0' };

function asyncEnv(options: { delay: number; failReset?: boolean; limit?: number; disposed?: CounterState[]; signals?: AbortSignal[] }): EnvDefinition<CounterState> {
  return {
    id: 'fake-async',
    title: 'Fake async env',
    suites: [{ suite: 'agentbench' }],
    summary: 'test double',
    conversation: () => ({}),
    limitKind: 'limit',
    tasks: () => [FAKE_TASK],
    manual: () => 'Say "inc" or "stop".',
    maxSteps: () => options.limit ?? 10,
    asyncStep: true,
    async reset() {
      await sleep(5);
      if (options.failReset) throw new Error('no container available');
      return { state: { n: 0 }, observation: 'ready', score: 0 };
    },
    step(state: CounterState, text: string, signal?: AbortSignal): Promise<Step<CounterState>> {
      if (signal) options.signals?.push(signal);
      return new Promise((resolve) =>
        setTimeout(() => {
          const n = state.n + (text === 'inc' ? 1 : 0);
          resolve({
            state: { n },
            observation: `n=${n}`,
            reward: 0,
            valid: text === 'inc' || text === 'stop',
            terminated: text === 'stop',
            truncated: false,
            score: n,
          });
        }, options.delay),
      );
    },
    validActions: () => ['inc', 'stop'],
    success: (state) => state.n >= 2,
    dispose: (state) => {
      options.disposed?.push(state);
    },
  } as EnvDefinition<CounterState>;
}

// ---------------------------------------------------------------------------

describe('episode machine: basics with Hanoi', () => {
  it('starts in awaitingAction with the reset observation', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 0 });
    const s = await whenIdle(actor);
    expect(s.matches('awaitingAction')).toBe(true);
    expect(s.context.observation).toBe('Current configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|');
    expect(s.context.initialObservation).toBe(s.context.observation);
    expect(s.context.history).toEqual([]);
    expect(s.context.maxSteps).toBe(30);
    actor.stop();
  });

  it('CHECK_VALID_ACTIONS fills context.validActions with the action list; a step clears it', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 0 });
    await whenIdle(actor);
    expect(actor.getSnapshot().context.validActions).toBeNull();
    actor.send({ type: 'CHECK_VALID_ACTIONS' });
    expect(actor.getSnapshot().context.validActions).toEqual([
      'Move the top disk of rod A to the top of rod B',
      'Move the top disk of rod A to the top of rod C',
      'Move the top disk of rod B to the top of rod A',
      'Move the top disk of rod B to the top of rod C',
      'Move the top disk of rod C to the top of rod A',
      'Move the top disk of rod C to the top of rod B',
    ]);
    actor.send({ type: 'ACT', text: 'Move the top disk of rod A to the top of rod C', actor: ME });
    await whenIdle(actor);
    expect(actor.getSnapshot().context.validActions).toBeNull();
    actor.stop();
  });

  it('each ACT appends a history entry with t, action, observation, reward, score, who acted and the view', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 0 });
    await whenIdle(actor);
    actor.send({ type: 'ACT', text: 'Move the top disk of rod B to the top of rod A', actor: { kind: 'human' }, view: 'text' });
    const s = await whenIdle(actor);
    expect(s.context.history).toHaveLength(1);
    const h = s.context.history[0];
    expect(h).toMatchObject({
      t: 1,
      action: 'Move the top disk of rod B to the top of rod A',
      observation: 'You tried to move the top disk of rod b to the top of rod a. Current configuration:\n- A: |bottom, [2, 1, 0], top|\n- B: |bottom, [], top|\n- C: |bottom, [], top|',
      reward: -1,
      valid: false,
      terminated: false,
      truncated: false,
      score: 0,
      actor: { kind: 'human' },
      view: 'text',
    });
    expect(typeof h.ms).toBe('number');
    expect(s.context.observation).toBe(h.observation);
    actor.stop();
  });

  it('GIVE_UP ends the episode with Given Up and the output reports the score so far', async () => {
    const actor = startEpisode(hanoi, H3, { seed: 0 });
    await playActions(actor, ['Move the top disk of rod A to the top of rod C']);
    actor.send({ type: 'GIVE_UP' });
    const s = actor.getSnapshot();
    expect(s.status).toBe('done');
    expect(s.context.finishReason).toBe('Given Up');
    expect(s.output).toEqual({ score: 1, success: false, steps: 1, finishReason: 'Given Up' });
  });

  it('ACT after the episode is done is ignored', async () => {
    const plan = hanoiSolution(3).map((i) => HANOI_ACTIONS[i]);
    const { actor, snapshot } = await playEpisode(hanoi, H3, plan, { seed: 0 });
    expect(snapshot.status).toBe('done');
    actor.send({ type: 'ACT', text: 'Move the top disk of rod C to the top of rod A', actor: ME });
    const after = actor.getSnapshot();
    expect(after.status).toBe('done');
    expect(after.context.history).toHaveLength(7);
    expect(after.output).toEqual({ score: 3, success: true, steps: 7, finishReason: 'Complete' });
  });

  it('playActions stops sending once the episode is over', async () => {
    const plan = [...hanoiSolution(3).map((i) => HANOI_ACTIONS[i]), 'Move the top disk of rod C to the top of rod A'];
    const seen: number[] = [];
    const actor = startEpisode(hanoi, H3, { seed: 0 });
    await playActions(actor, plan, (entry) => seen.push(entry.t));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('the maxSteps option overrides the environment limit (shorter)', async () => {
    const plan = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? HANOI_ACTIONS[0] : HANOI_ACTIONS[2]));
    const { output, context } = await playEpisode(hanoi, H3, plan, { seed: 0, maxSteps: 3 });
    expect(context.maxSteps).toBe(3);
    expect(output).toEqual({ score: 0, success: false, steps: 3, finishReason: 'Task Limit Exceeded' });
    expect(context.history[2].truncated).toBe(true);
  });

  it('the maxSteps option overrides the environment limit (longer)', async () => {
    const plan = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? HANOI_ACTIONS[0] : HANOI_ACTIONS[2]));
    const { output } = await playEpisode(hanoi, H3, plan, { seed: 0, maxSteps: 40 });
    expect(output).toEqual({ score: 0, success: false, steps: 40, finishReason: 'Task Limit Exceeded' });
  });

  it('a horizon game with a maxSteps option completes at that horizon', async () => {
    const { output } = await playEpisode(bandits, BANDIT, Array(20).fill('Pull slot machine 1.'), { seed: 0, maxSteps: 5 });
    expect(output?.finishReason).toBe('Complete');
    expect(output?.steps).toBe(5);
    expect(output?.success).toBeNull();
  });
});

describe('episode machine: asynchronous environments', () => {
  it('an async step goes through "stepping" and is recorded when it resolves', async () => {
    const env = asyncEnv({ delay: 20 });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await whenIdle(actor);
    actor.send({ type: 'ACT', text: 'inc', actor: { kind: 'model', name: 'test-model' } });
    const during = actor.getSnapshot();
    expect(during.matches('stepping')).toBe(true);
    expect(during.context.pending?.text).toBe('inc');
    expect(during.context.history).toHaveLength(0);
    const s = await whenIdle(actor);
    expect(s.matches('awaitingAction')).toBe(true);
    expect(s.context.history).toHaveLength(1);
    expect(s.context.history[0]).toMatchObject({ t: 1, action: 'inc', observation: 'n=1', score: 1, valid: true, actor: { kind: 'model', name: 'test-model' } });
    expect(s.context.history[0].ms).toBeGreaterThanOrEqual(10);
    expect(s.context.pending).toBeNull();
    actor.stop();
  });

  it('CANCEL during stepping returns to awaitingAction with no step recorded and an error message', async () => {
    const signals: AbortSignal[] = [];
    const env = asyncEnv({ delay: 40, signals });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await whenIdle(actor);
    actor.send({ type: 'ACT', text: 'inc', actor: ME });
    expect(actor.getSnapshot().matches('stepping')).toBe(true);
    actor.send({ type: 'CANCEL' });
    let s = actor.getSnapshot();
    expect(s.matches('awaitingAction')).toBe(true);
    expect(s.context.history).toHaveLength(0);
    expect(s.context.pending).toBeNull();
    expect(s.context.error).toBe('The step was cancelled.');
    // The abandoned promise resolving later changes nothing.
    await sleep(80);
    s = actor.getSnapshot();
    expect(s.matches('awaitingAction')).toBe(true);
    expect(s.context.history).toHaveLength(0);
    expect(s.context.score).toBe(0);
    // The step was handed an abort signal, and cancelling aborted it.
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(true);
    // The episode goes on normally afterwards, and a good step clears the error.
    actor.send({ type: 'ACT', text: 'inc', actor: ME });
    s = await whenIdle(actor);
    expect(s.context.history).toHaveLength(1);
    expect(s.context.history[0].observation).toBe('n=1');
    expect(s.context.error).toBeNull();
    actor.stop();
  });

  it('GIVE_UP during stepping ends with Given Up and no step recorded', async () => {
    const disposed: CounterState[] = [];
    const env = asyncEnv({ delay: 40, disposed });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await whenIdle(actor);
    actor.send({ type: 'ACT', text: 'inc', actor: ME });
    actor.send({ type: 'GIVE_UP' });
    const s = actor.getSnapshot();
    expect(s.status).toBe('done');
    expect(s.output).toEqual({ score: 0, success: false, steps: 0, finishReason: 'Given Up' });
    expect(disposed).toEqual([{ n: 0 }]);
    await sleep(60);
    expect(actor.getSnapshot().context.history).toHaveLength(0);
  });

  it('a terminating async step completes the episode; the output is {score, success, steps, finishReason}; dispose runs once', async () => {
    const disposed: CounterState[] = [];
    const env = asyncEnv({ delay: 5, disposed });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await playActions(actor, ['inc', 'inc', 'stop', 'inc']);
    const s = await whenDone(actor);
    expect(s.output).toEqual({ score: 2, success: true, steps: 3, finishReason: 'Complete' });
    expect(disposed).toEqual([{ n: 2 }]);
  });

  it('stopEpisode releases an unfinished episode\'s state once, and leaves a finished one to its own release', async () => {
    const disposed: CounterState[] = [];
    const env = asyncEnv({ delay: 5, disposed });
    const left = startEpisode(env, FAKE_TASK, { seed: 0 });
    await playActions(left, ['inc']);
    stopEpisode(left); // a person left the page mid-episode
    expect(disposed).toEqual([{ n: 1 }]);
    const finished = startEpisode(env, FAKE_TASK, { seed: 0 });
    await playActions(finished, ['stop']);
    await whenDone(finished);
    stopEpisode(finished);
    expect(disposed).toEqual([{ n: 1 }, { n: 0 }]);
  });

  it('an async env reaching its limit ends with Task Limit Exceeded', async () => {
    const env = asyncEnv({ delay: 1, limit: 2 });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await playActions(actor, ['inc', 'oops', 'inc']);
    const s = await whenDone(actor);
    expect(s.output).toEqual({ score: 1, success: false, steps: 2, finishReason: 'Task Limit Exceeded' });
    expect(s.context.history[1]).toMatchObject({ valid: false, truncated: true });
  });

  it('an environment whose reset rejects ends with Task Error', async () => {
    const disposed: CounterState[] = [];
    const env = asyncEnv({ delay: 1, failReset: true, disposed });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    const s = await whenDone(actor);
    expect(s.output).toEqual({ score: 0, success: null, steps: 0, finishReason: 'Task Error' });
    expect(s.context.error).toBe('The task could not start: no container available');
    expect(disposed).toEqual([]);
  });

  it('GIVE_UP while loading ends with Given Up', async () => {
    const env = asyncEnv({ delay: 1 });
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    actor.send({ type: 'GIVE_UP' });
    expect(actor.getSnapshot().output).toEqual({ score: 0, success: null, steps: 0, finishReason: 'Given Up' });
  });
});

describe('episode machine: a synchronous step that throws', () => {
  it('keeps the episode alive, records nothing and reports the error', async () => {
    const env: EnvDefinition<CounterState> = {
      ...asyncEnv({ delay: 0 }),
      asyncStep: false,
      reset: () => ({ state: { n: 0 }, observation: 'ready', score: 0 }),
      step: () => {
        throw new Error('boom');
      },
    };
    const actor = startEpisode(env, FAKE_TASK, { seed: 0 });
    await whenIdle(actor);
    actor.send({ type: 'ACT', text: 'inc', actor: ME });
    const s = actor.getSnapshot();
    expect(s.status).toBe('active');
    expect(s.context.history).toHaveLength(0);
    expect(s.context.error).toBe('The environment failed on this action: boom');
    actor.stop();
  });
});

// ---------------------------------------------------------------------------

const GAMES = [
  { env: hanoi, task: H3, actions: HANOI_ACTIONS as readonly string[], steps: 30 },
  { env: bandits, task: BANDIT, actions: ['Pull slot machine 1.', 'Pull slot machine 2.'], steps: 50 },
  { env: rps, task: RPS, actions: ['Rock', 'Paper', 'Scissor'], steps: 50 },
] as const;

function randomPlan(actions: readonly string[], n: number, seed: number): string[] {
  const rand = testRandom(seed);
  return Array.from({ length: n }, () => (rand() < 0.1 ? 'gibberish' : actions[Math.floor(rand() * actions.length)]));
}

describe('determinism', () => {
  for (const g of GAMES) {
    describe(g.env.id, () => {
      it('same seed + same actions ⇒ identical trajectory (direct env calls)', () => {
        const plan = randomPlan(g.actions, g.steps, 5);
        for (const seed of [0, 1, 123456]) {
          const a = rollout(g.env as EnvDefinition, g.task, seed, plan);
          const b = rollout(g.env as EnvDefinition, g.task, seed, plan);
          expect(b.init).toEqual(a.init);
          expect(b.steps).toEqual(a.steps);
        }
      });

      it('same seed + same actions ⇒ identical history through the episode machine', async () => {
        const plan = randomPlan(g.actions, g.steps + 5, 9);
        const a = await playEpisode(g.env as EnvDefinition, g.task, plan, { seed: 77 });
        const b = await playEpisode(g.env as EnvDefinition, g.task, plan, { seed: 77 });
        expect(a.context.history.length).toBeGreaterThan(0);
        expect(withoutMs(b.context.history)).toEqual(withoutMs(a.context.history));
        expect(b.output).toEqual(a.output);
        // The machine's history is the env's own trajectory.
        const direct = rollout(g.env as EnvDefinition, g.task, 77, plan.slice(0, a.context.history.length));
        expect(a.context.history.map((h) => h.observation)).toEqual(direct.steps.map((s) => s.observation));
        expect(a.context.history.map((h) => h.score)).toEqual(direct.steps.map((s) => s.score));
      });
    });
  }

  for (const g of [GAMES[1], GAMES[2]]) {
    it(`${g.env.id}: different seeds give different trajectories`, () => {
      const plan = randomPlan(g.actions, 50, 3);
      const observations = (seed: number) => rollout(g.env as EnvDefinition, g.task, seed, plan).steps.map((s) => s.observation);
      const base = observations(1);
      for (const seed of [2, 3, 4, 1000]) expect(observations(seed)).not.toEqual(base);
    });
  }

  it('hanoi does not depend on the seed', () => {
    const plan = randomPlan(HANOI_ACTIONS, 30, 4);
    expect(rollout(hanoi, H3, 1, plan).steps).toEqual(rollout(hanoi, H3, 99, plan).steps);
  });
});

describe('END event', () => {
  it('ends the episode with the reason a driver gives, keeping the steps so far', async () => {
    const { hanoi: env } = await import('../../envs/hanoi/index.ts');
    const { startEpisode: start, playActions: play } = await import('../../envs/core/runner.ts');
    const actor = start(env, env.tasks()[0], { seed: 1 });
    await play(actor, ['Move the top disk of rod A to the top of rod C']);
    actor.send({ type: 'END', reason: 'Context Limit Exceeded', message: 'The model reported its context was exceeded.' });
    const snap = actor.getSnapshot();
    expect(snap.status).toBe('done');
    expect(snap.output).toMatchObject({ steps: 1, finishReason: 'Context Limit Exceeded' });
    expect(snap.context.error).toBe('The model reported its context was exceeded.');
  });
});
