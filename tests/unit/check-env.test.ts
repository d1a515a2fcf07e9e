/**
 * The environment contract (envs/core/check.ts) over EVERY environment in the catalogue,
 * with the hostile corpus and a seeded fuzz stream (envs/core/fuzz-inputs.ts): no exception,
 * well-formed steps, deterministic resets, offered actions accepted, dispose releasing what
 * reset took, no step slower than the bound. A new environment is checked by being in the
 * catalogue. `npm run fuzz` runs the same check long and prints its figures.
 *
 * Also here: checkEnv catches a broken environment (so these tests can fail), and the
 * reply-length fixes keep their meaning (PDDL's read limit, AgentBoard's prompt fitting and
 * open-model parser).
 */
import { describe, expect, it } from 'vitest';
import { loadAll } from '../../envs/index.ts';
import { checkEnv, describeInput } from '../../envs/core/check.ts';
import { FuzzStream, hostileCorpus, MEGABYTE } from '../../envs/core/fuzz-inputs.ts';
import type { EnvDefinition, EnvMeta, Harness, Init, Oracle, Step, SyncGame, TaskInfo, Tasks } from '../../envs/core/types.ts';
import { ACTION_READ_LIMIT, pddl, TASKS as PDDL_TASKS } from '../../envs/pddl/index.ts';
import { normalizeAction } from '../../envs/babyai/session.ts';
import { agentboardPrompt, estimateMessageTokens, parseOpenModelAction } from '../../envs/core/prompts/index.ts';
import { resetSync, stepSync, testRandom } from './helpers.ts';

const ENVS = await loadAll();

/**
 * The step time bounds asserted here. The targets are 100 ms for any reply up to 1 MB and the
 * engines' 2 s deadline for shell and database steps (issue 16; `npm run fuzz` reports against
 * them); the test allows about twice to ten times that, so a busy 2-core machine does not fail
 * it, which still catches any quadratic parse (those take seconds to hours on 1 MB).
 */
const BOUNDS = { maxStepMs: 1000, maxAsyncStepMs: 5000 };

/** Inputs per environment: synchronous games are cheap; shells and databases cost a reset per ended episode. */
const inputsFor = (env: EnvDefinition) => (env.asyncStep ? 30 : 2500);

/**
 * KNOWN FAILURES, to be emptied at merge: what checkEnv finds today in folders other engineers
 * are fixing in parallel (envs/os, envs/db). `problems`: patterns of problem texts reported but
 * not failed on; `maxLength`: inputs cut to this many characters, because a 1 MB input would
 * take hours in a known quadratic parse. Remove an entry when its fix lands (the test then
 * holds that environment to the full contract).
 */
const KNOWN_FAILING: Readonly<Record<string, { problems: readonly RegExp[]; maxLength?: number }>> = {
};

describe('checkEnv over the whole catalogue', () => {
  it('the catalogue is loaded (every entry, none hand-listed)', () => {
    expect(ENVS.length).toBeGreaterThanOrEqual(7);
    expect(new Set(ENVS.map((e) => e.id)).size).toBe(ENVS.length);
  });

  for (const env of ENVS) {
    it(`${env.id} keeps the contract under hostile input`, async () => {
      const inputs = inputsFor(env);
      const known = KNOWN_FAILING[env.id]?.problems ?? [];
      const report = await checkEnv(env, { inputs, seed: 1, ...BOUNDS, maxLength: KNOWN_FAILING[env.id]?.maxLength });
      const open = report.problems.filter((p) => !known.some((re) => re.test(p)));
      const tolerated = report.problems.filter((p) => known.some((re) => re.test(p)));
      console.log(`${env.id}: ${report.inputs} inputs, ${report.exceptions} exceptions, slowest step ${report.slowest.ms.toFixed(1)} ms (bound ${env.asyncStep ? BOUNDS.maxAsyncStepMs : BOUNDS.maxStepMs} ms) on ${report.slowest.kind} ${report.slowest.input}`);
      if (tolerated.length > 0) console.warn(`${env.id}: known failures (KNOWN_FAILING):\n  ${tolerated.join('\n  ')}`);
      expect(open, `${env.id} slowest ${report.slowest.ms.toFixed(0)} ms on ${report.slowest.input}`).toEqual([]);
      expect(report.exceptions).toBe(0);
      // The whole budget was tried, over several episodes, reaching both accepted and refused steps.
      expect(report.inputs).toBe(inputs);
      expect(report.episodes).toBeGreaterThan(1);
      expect(report.validSteps).toBeGreaterThan(0);
      expect(report.validSteps).toBeLessThan(report.inputs);
    }, 60_000);
  }
});

// -- the checker itself ------------------------------------------------------

/** The toy is synchronous: its overrides are typed as a synchronous game's. */
type ToyEnv = EnvMeta & SyncGame<ToyState, TaskInfo> & Tasks<TaskInfo> & Harness<TaskInfo> & Oracle<ToyState, TaskInfo>;

interface ToyState {
  n: number;
  handle?: { close(): void };
}

/** A tiny well-behaved game: "up" adds one, anything else is refused; ends at 3. */
function toy(overrides: Partial<ToyEnv> = {}): ToyEnv {
  return {
    id: 'toy',
    title: 'Toy',
    suites: [{ suite: 'agentboard' }],
    summary: 'test',
    conversation: () => ({}),
    limitKind: 'limit',
    tasks: () => [{ id: 'toy-0', name: 'toy' }],
    manual: () => 'Say up.',
    maxSteps: () => 10,
    reset: (): Init<ToyState> => ({ state: { n: 0 }, observation: 'n=0', score: 0 }),
    step: (state, text): Step<ToyState> => {
      const ok = text === 'up';
      const n = ok ? state.n + 1 : state.n;
      return { state: { n }, observation: `n=${n}`, reward: ok ? 1 : 0, valid: ok, terminated: n >= 3, truncated: false, score: n };
    },
    validActions: () => ['up'],
    success: (s) => s.n >= 3,
    ...overrides,
  };
}

/**
 * Work for at least `ms` of this process's CPU time and of wall time, as a slow parse would. (CPU time
 * alone can pass faster than the wall clock: the process's other threads, e.g. the GC's, count too.)
 */
function busy(ms: number): void {
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const endCpu = cpu() + ms;
  const endWall = performance.now() + ms;
  while (cpu() < endCpu || performance.now() < endWall);
}

const quick = { inputs: 300, corpus: false, maxStepMs: 1000, validChecks: 5 } as const;

describe('checkEnv finds broken environments', () => {
  it('passes a well-behaved one', async () => {
    const r = await checkEnv(toy(), quick);
    expect(r.problems).toEqual([]);
    expect(r.exceptions).toBe(0);
    expect(r.inputs).toBe(300);
  });

  it('a step that throws on some text', async () => {
    const base = toy();
    const r = await checkEnv(toy({ step: (s, t) => (t.includes('[') ? (JSON.parse(t) as never) : base.step(s, t)) }), { ...quick, corpus: true });
    expect(r.exceptions).toBeGreaterThan(0);
    expect(r.problems.some((p) => p.startsWith('step threw'))).toBe(true);
  });

  it('a malformed step: non-finite score, both terminated and truncated, info not JSON-safe', async () => {
    const base = toy();
    const step = (s: ToyState, t: string) => ({ ...(base.step(s, t) as Step<ToyState>), score: NaN });
    expect((await checkEnv(toy({ step }), quick)).problems.join('\n')).toMatch(/score NaN is not a finite number/);
    const both = (s: ToyState, t: string) => ({ ...(base.step(s, t) as Step<ToyState>), terminated: true, truncated: true });
    expect((await checkEnv(toy({ step: both }), quick)).problems.join('\n')).toMatch(/both terminated and truncated/);
    const info = (s: ToyState, t: string) => ({ ...(base.step(s, t) as Step<ToyState>), info: { when: new Date(0) } });
    expect((await checkEnv(toy({ step: info }), quick)).problems.join('\n')).toMatch(/info is not JSON-safe \(when: a Date object\)/);
  });

  it('a score outside the range the environment declares', async () => {
    const env = Object.assign(toy(), { scoreRange: [0, 2] as const });
    expect((await checkEnv(env, quick)).problems.join('\n')).toMatch(/score 3 outside the declared range \[0, 2\]/);
  });

  it('a reset that is not deterministic', async () => {
    let calls = 0;
    const r = await checkEnv(toy({ reset: () => ({ state: { n: 0 }, observation: `n=0 #${calls++}`, score: 0 }) }), quick);
    expect(r.problems.join('\n')).toMatch(/twice gave different observations/);
  });

  it('an offered action that is refused', async () => {
    const r = await checkEnv(toy({ validActions: () => ['up', 'down'] }), quick);
    expect(r.problems.join('\n')).toMatch(/offered action refused \(valid: false\): "down"/);
  });

  it('a resource held by the state with no dispose, and a timer left running after dispose', async () => {
    const held = toy({ reset: () => ({ state: { n: 0, handle: { close() {} } }, observation: 'n=0', score: 0 }) });
    expect((await checkEnv(held, quick)).problems.join('\n')).toMatch(/holds handle but the environment has no dispose/);
    const timers: ReturnType<typeof setInterval>[] = [];
    const leaky = toy({
      reset: () => {
        timers.push(setInterval(() => {}, 60_000));
        return { state: { n: 0 }, observation: 'n=0', score: 0 };
      },
      dispose: () => {},
    });
    const r = await checkEnv(leaky, { ...quick, inputs: 5 });
    for (const t of timers) clearInterval(t);
    expect(r.problems.join('\n')).toMatch(/still open: Timeout/);
  });

  it('a slow step, with the input that caused it', async () => {
    const base = toy();
    const slow = toy({
      step: (s, t) => {
        if (t.length > 100_000 && t.startsWith('answer(x')) busy(30); // the corpus's answer() + 1 MB of spaces
        return base.step(s, t);
      },
    });
    const r = await checkEnv(slow, { ...quick, corpus: true, maxStepMs: 20 });
    expect(r.slowest.ms).toBeGreaterThanOrEqual(30);
    expect(r.slowest.input).toMatch(/\(\d+ chars\)$/);
    expect(r.problems.join('\n')).toMatch(/step took \d+ ms \(> 20 ms\) on big:answer-spaces /);
  });

  it('a step slow once (the machine paused) is timed again and not taken for a slow parse', async () => {
    const base = toy();
    let paused = false;
    const once = toy({
      step: (s, t) => {
        if (t.length > 100_000 && t.startsWith('answer(x') && !paused) {
          paused = true;
          busy(30);
        }
        return base.step(s, t);
      },
    });
    const r = await checkEnv(once, { ...quick, corpus: true, maxStepMs: 20 });
    expect(paused).toBe(true);
    expect(r.problems).toEqual([]);
    expect(r.slowest.ms).toBeLessThan(20);
  });
});

describe('hostile inputs', () => {
  it('the corpus holds every kind the contract names, up to 1 MB', () => {
    const corpus = hostileCorpus(['go north']);
    const kinds = new Set(corpus.map((x) => x.kind.split(':')[1].replace(/-\d+$/, '')));
    for (const k of ['empty', 'blank', 'control', 'unicode', 'payload', 'nested', 'letters', 'answer-spaces', 'fences']) expect(kinds).toContain(k);
    expect(Math.max(...corpus.map((x) => x.text.length))).toBeGreaterThanOrEqual(MEGABYTE);
    const texts = corpus.map((x) => x.text).join('\n');
    for (const attack of ['<script>', 'rm -rf /', 'DROP TABLE', '\u0000', '\ud800', '[[[[[[[[[[']) expect(texts).toContain(attack);
  });

  it('the stream is seeded, and its near-misses come from the given actions', () => {
    const a = new FuzzStream(5);
    const b = new FuzzStream(5);
    const xs = Array.from({ length: 500 }, () => a.next(['pick up the key']));
    expect(Array.from({ length: 500 }, () => b.next(['pick up the key']))).toEqual(xs);
    const near = xs.filter((x) => x.kind.startsWith('near-miss:'));
    expect(near.length).toBeGreaterThan(100);
    expect(near.filter((x) => x.text.toLowerCase().includes('key')).length).toBeGreaterThan(near.length / 2);
  });

  it('describeInput shows invisible characters and cuts long texts', () => {
    expect(describeInput('a\u200bb')).toBe('"a\\u200bb"');
    expect(describeInput('x'.repeat(1000), 10)).toBe('"xxxxxxxxxx"… (1000 chars)');
  });
});

// -- reply-length fixes keep their meaning -----------------------------------

describe('long replies', () => {
  it('BabyAI strips a 1 MB reply as Python does', () => {
    const pad = ' \t\u3000\x1c'.repeat(MEGABYTE / 4);
    expect(normalizeAction(`${pad}Turn Left${pad}`)).toBe('turn left');
    expect(normalizeAction(`answer(x${' '.repeat(100_000)}x)`)).toBe(`answer(x${' '.repeat(100_000)}x)`);
  });

  it(`PDDL reads the first ${ACTION_READ_LIMIT} characters of a reply and says so`, () => {
    const task = PDDL_TASKS.find((t) => t.domain === 'gripper')!;
    const { state } = resetSync(pddl, task, 0);
    const action = pddl.validActions(state)[0];
    const short = stepSync(pddl, state, action);
    const long = stepSync(pddl, state, action + ' '.repeat(MEGABYTE));
    expect(short.valid).toBe(true);
    expect(long.valid).toBe(true);
    expect(long.state).toEqual(short.state);
    expect(long.observation).toBe(`${short.observation} (The reply has ${action.length + MEGABYTE} characters; only the first ${ACTION_READ_LIMIT} were read.)`);
    // Within the limit nothing changes; "check" beyond it is not read.
    expect(stepSync(pddl, state, 'x'.repeat(ACTION_READ_LIMIT - 5) + 'check').observation).toMatch(/^Valid actions are: /);
    const late = stepSync(pddl, state, 'x'.repeat(ACTION_READ_LIMIT) + 'check');
    expect(late.valid).toBe(false);
    expect(late.observation).toMatch(/only the first 4000 were read\.\)$/);
  });

  it('AgentBoard fits the history the same way with the built-in estimate as with the counting loop', () => {
    const rand = testRandom(11);
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rand() * 40);
      const observations = Array.from({ length: n }, () => 'o'.repeat(Math.floor(rand() * 2000)));
      const actions = Array.from({ length: n - 1 }, () => 'a'.repeat(Math.floor(rand() * (rand() < 0.1 ? 20_000 : 300))));
      const params = { system_msg: 'sys', instruction: 'Do it.', examples: ['ex'], goal: 'g', memorySize: 1 + Math.floor(rand() * 100), contextLength: 500 + Math.floor(rand() * 8000) };
      const fast = agentboardPrompt(params, observations, actions);
      const counted = agentboardPrompt({ ...params, countTokens: estimateMessageTokens }, observations, actions);
      expect(fast).toEqual(counted);
    }
  });

  it('the open-model parser resolves a repeated "next action:" line to its first occurrence, on 1 MB too', () => {
    expect(parseOpenModelAction('next action:\n\nfirst\nnext action:\nsecond')).toBe('first');
    expect(parseOpenModelAction('Thought\nnext action:\n\n\ngo left\nmore')).toBe('go left');
    const big = 'next action:\n'.repeat(MEGABYTE / 13);
    expect(parseOpenModelAction(big + 'go')).toBe('next action:');
  });
});
