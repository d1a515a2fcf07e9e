import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../envs/index.ts';
import type { EnvDefinition, TaskInfo } from '../../envs/core/types.ts';
import { modelDriver, policyDriver } from '../../runtime/drivers/driver.ts';
import { evaluate, parseShard, planUnits, resolveEnvIds, resolveEnvSuites, shardOf, unitKey, type EvaluateOptions } from '../../runtime/eval/index.ts';
import { parseJsonl } from '../../runtime/jsonl.ts';
import { createOpenAIClient } from '../../runtime/models/openai.ts';
import { computeScores } from '../../runtime/scores/index.ts';
import { envTaskInfo } from '../../runtime/taskInfo.ts';
import { scoresCommand } from '../../scripts/scores.ts';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = () => join(mkdtempSync(join(tmpdir(), 'agentplay-eval-')), 'run.jsonl');

let hanoi: EnvDefinition;
let db: EnvDefinition;
beforeAll(async () => {
  hanoi = await loadEnv('hanoi');
  db = await loadEnv('db');
});

/** A model behind the test server, with short backoffs so retries take milliseconds. */
function modelDrivers(url: string, model = 'hanoi-solver', serverAttempts = 3) {
  const client = createOpenAIClient({ baseUrl: url, model, stream: false, retry: { baseDelayMs: 20, serverAttempts } });
  return (env: EnvDefinition, task: TaskInfo) => modelDriver(client, env, task);
}

function keysIn(file: string): string[] {
  return parseJsonl(readFileSync(file, 'utf8'))
    .filter((r) => r.header.outcome && !r.header.infraError)
    .map((r) => unitKey(r.header.env, r.header.task, r.header.seed))
    .sort();
}

const base = (out: string, extra: Partial<EvaluateOptions> = {}): EvaluateOptions => ({
  envs: [hanoi],
  out,
  appVersion: 'test',
  driverFor: (env, task, seed) => policyDriver('random', env, task, { seed }),
  ...extra,
});

describe('eval plan', () => {
  it('plays the benchmark set: SmartPlay its published games its recorded count, DB the chosen split once each', () => {
    const h = planUnits([hanoi]);
    expect(h.map((u) => u.key)).toEqual(Array.from({ length: 10 }, (_, i) => `hanoi/hanoi-3/${i}`));
    const test = planUnits([db]);
    expect(test).toHaveLength(300);
    expect(test.every((u) => u.task.id.startsWith('db-std-') && u.seed === 0)).toBe(true);
    expect(planUnits([db], { split: 'dev' }).every((u) => u.task.id.startsWith('db-dev-'))).toBe(true);
    expect(planUnits([hanoi], { tasks: ['hanoi-4'], seeds: 3, firstSeed: 5 }).map((u) => u.key)).toEqual(['hanoi/hanoi-4/5', 'hanoi/hanoi-4/6', 'hanoi/hanoi-4/7']);
    const catalogue = [{ id: 'hanoi', suites: [{ suite: 'smartplay' }] }, { id: 'os', suites: [{ suite: 'agentbench' }] }, { id: 'db', suites: [{ suite: 'agentbench' }] }];
    expect(resolveEnvIds('agentbench,hanoi', catalogue)).toEqual(['os', 'db', 'hanoi']);
    expect(resolveEnvIds('AgentBench', catalogue)).toEqual(['os', 'db']);
    // An environment in two suites: named by a suite, it plays that suite's tasks; named by its id, both.
    const two = [...catalogue, { id: 'alfworld', suites: [{ suite: 'agentbench' }, { suite: 'agentboard' }] }];
    expect([...resolveEnvSuites('agentboard', two)]).toEqual([['alfworld', ['agentboard']]]);
    expect(resolveEnvSuites('alfworld', two).get('alfworld')).toEqual(['agentbench', 'agentboard']);
    expect(() => resolveEnvIds('nope', catalogue.slice(0, 1))).toThrow(/Unknown environment or suite "nope"/);
  });

  it('shards are disjoint and together hold every unit once', () => {
    const units = planUnits([db], { split: 'dev' });
    const parts = [1, 2, 3].map((i) => shardOf(units, parseShard(`${i}/3`)).map((u) => u.key));
    expect(parts.flat().sort()).toEqual(units.map((u) => u.key).sort());
    expect(new Set(parts.flat()).size).toBe(units.length);
    expect(() => parseShard('0/2')).toThrow(/1 ≤ i ≤ n/);
    expect(() => parseShard('3/2')).toThrow();
  });
});

describe('eval against the local OpenAI-compatible server', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI(0, { delayMs: 5 });
  });
  afterAll(() => fake.server.close());

  it('concurrency 8 plays every task once, with up to 8 requests in flight, and the file imports', async () => {
    const out = tmp();
    const r = await evaluate(base(out, { concurrency: 8, driverFor: modelDrivers(fake.url) }));
    expect(r).toMatchObject({ written: 10, failures: 0, stopped: null, total: 10 });
    expect(keysIn(out)).toEqual(planUnits([hanoi]).map((u) => u.key).sort());
    const records = parseJsonl(readFileSync(out, 'utf8'));
    expect(records.every((x) => x.header.outcome?.finishReason === 'Complete' && x.header.driver.name === 'hanoi-solver')).toBe(true);
    expect(fake.maxInFlight).toBeGreaterThan(1);
    expect(fake.maxInFlight).toBeLessThanOrEqual(8);
  });

  it('async environments run concurrently: a few DB tasks, each once', async () => {
    const out = tmp();
    const tasks = ['db-dev-000', 'db-dev-001', 'db-dev-002', 'db-dev-003', 'db-dev-004', 'db-dev-005'];
    const r = await evaluate({ ...base(out), envs: [db], split: 'dev', tasks, concurrency: 6, driverFor: modelDrivers(fake.url, 'echo:Action: Answer\nFinal Answer: ["1"]') });
    expect(r).toMatchObject({ written: 6, failures: 0 });
    expect(keysIn(out)).toEqual(tasks.map((t) => `db/${t}/0`).sort());
  });

  it('OS episodes run concurrently without tripping over each other', async () => {
    const os = await loadEnv('os');
    const out = tmp();
    const tasks = ['os-test-1-stock-00', 'os-test-2-environment-00', 'os-test-3-ac-00'];
    const r = await evaluate({ ...base(out), envs: [os], tasks, concurrency: 3, driverFor: modelDrivers(fake.url, 'echo:Think: done.\n\nAct: answer(0)') });
    expect(r).toMatchObject({ written: 3, failures: 0 });
    expect(parseJsonl(readFileSync(out, 'utf8')).map((x) => x.header.outcome?.finishReason)).toEqual(['Complete', 'Complete', 'Complete']);
  }, 60_000);

  it('stopped halfway and resumed, it ends with every task exactly once (a half-written last line is dropped)', async () => {
    const out = tmp();
    const stop = new AbortController();
    let seen = 0;
    const first = await evaluate(
      base(out, {
        concurrency: 3,
        driverFor: modelDrivers(fake.url),
        signal: stop.signal,
        onEpisode: () => {
          if (++seen === 4) stop.abort();
        },
      }),
    );
    expect(first.stopped?.reason).toBe('aborted');
    const held = keysIn(out);
    expect(held.length).toBeGreaterThanOrEqual(4);
    expect(held.length).toBeLessThan(10);
    // As if the process had been killed in the middle of writing a line.
    appendFileSync(out, '{"format":"agentplay-episode","version":2,"header":{"id":"cut');
    await expect(evaluate(base(out, { driverFor: modelDrivers(fake.url) }))).rejects.toThrow(/already holds episodes: add --resume/);
    let played = 0;
    const second = await evaluate(base(out, { resume: true, concurrency: 3, driverFor: modelDrivers(fake.url), onPlan: (p) => (played = p.toPlay) }));
    expect(played).toBe(10 - held.length);
    expect(second).toMatchObject({ written: 10 - held.length, stopped: null, held: held.length });
    expect(keysIn(out)).toEqual(planUnits([hanoi]).map((u) => u.key).sort());
    expect(parseJsonl(readFileSync(out, 'utf8'))).toHaveLength(10);
    // Resuming a finished run plays nothing; another player is refused.
    const third = await evaluate(base(out, { resume: true, driverFor: modelDrivers(fake.url) }));
    expect(third.written).toBe(0);
    await expect(evaluate(base(out, { resume: true, tasks: ['hanoi-4'] }))).rejects.toThrow(/holds episodes of model:hanoi-solver, not random:random policy/);
  });

  it('two shards concatenated hold the same (task, seed) set as one full run', async () => {
    const full = tmp();
    await evaluate(base(full, { concurrency: 4 }));
    const parts = [tmp(), tmp()];
    for (const [i, out] of parts.entries()) await evaluate(base(out, { concurrency: 4, shard: { index: i + 1, count: 2 } }));
    const joined = tmp();
    writeFileSync(joined, parts.map((p) => readFileSync(p, 'utf8')).join(''));
    expect(keysIn(joined)).toEqual(keysIn(full));
    expect(keysIn(parts[0]).filter((k) => keysIn(parts[1]).includes(k))).toEqual([]);
    // The random policy is seeded: the same episodes, so the same outcomes and the same scores.
    const outcomes = (file: string) =>
      Object.fromEntries(parseJsonl(readFileSync(file, 'utf8')).map((r) => [unitKey(r.header.env, r.header.task, r.header.seed), r.header.outcome]));
    expect(outcomes(joined)).toEqual(outcomes(full));
    // Means only: the bootstrap draws in episode-id order, and ids are new in each run.
    const scores = (file: string) =>
      computeScores(parseJsonl(readFileSync(file, 'utf8')), { taskInfo: envTaskInfo([hanoi]) }).smartplay?.rows.map((r) => ({
        group: r.group.key,
        score: r.cells['hanoi-3'].score.value,
        n: r.cells['hanoi-3'].score.n,
      }));
    expect(scores(joined)).toEqual(scores(full));
  });
});

describe('eval when the endpoint fails', () => {
  it('500s for a while are retried, not counted as the model failing', async () => {
    const fake = await startFakeOpenAI(0, { failFirst: 6 });
    try {
      const out = tmp();
      const r = await evaluate(base(out, { concurrency: 8, driverFor: modelDrivers(fake.url, 'hanoi-solver', 4) }));
      expect(fake.failed).toBe(6);
      expect(r).toMatchObject({ written: 10, failures: 0, stopped: null });
      const records = parseJsonl(readFileSync(out, 'utf8'));
      expect(records.every((x) => x.header.outcome?.finishReason === 'Complete')).toBe(true);
      const retries = records.flatMap((x) => x.steps.flatMap((s) => s.model!.calls.map((c) => c.retries)));
      expect(retries.reduce((a, b) => a + b, 0)).toBe(6);
    } finally {
      fake.server.close();
    }
  });

  it('an endpoint still failing after the retries marks episodes as infrastructure failures: not scored, played again by --resume', async () => {
    const fake = await startFakeOpenAI(0, { failFirst: 8 });
    try {
      const out = tmp();
      // 2 attempts per call, one episode at a time: the first 4 episodes each fail twice, then the server recovers.
      const first = await evaluate(base(out, { concurrency: 1, stopAfterFailures: 10, driverFor: modelDrivers(fake.url, 'hanoi-solver', 2) }));
      expect(first.failures).toBe(4);
      expect(first.written).toBe(10);
      const records = parseJsonl(readFileSync(out, 'utf8'));
      const failed = records.filter((x) => x.header.infraError);
      expect(failed).toHaveLength(4);
      expect(failed.every((x) => x.header.infraError!.kind === 'server' && x.header.outcome === undefined)).toBe(true);
      const report = computeScores(records, { taskInfo: envTaskInfo([hanoi]) });
      expect(report.skipped.filter((s) => s.reason === 'infrastructure failure')).toHaveLength(4);
      expect(report.groups[0].episodes).toBe(6);
      const second = await evaluate(base(out, { resume: true, concurrency: 4, driverFor: modelDrivers(fake.url, 'hanoi-solver', 2) }));
      expect(second).toMatchObject({ written: 4, failures: 0 });
      expect(parseJsonl(readFileSync(out, 'utf8')).filter((x) => x.header.infraError)).toHaveLength(0);
      expect(keysIn(out)).toEqual(planUnits([hanoi]).map((u) => u.key).sort());
    } finally {
      fake.server.close();
    }
  });

  it('a dead endpoint stops the run instead of failing every episode', async () => {
    const fake = await startFakeOpenAI(0, { failFirst: 1000 });
    try {
      const out = tmp();
      const r = await evaluate(base(out, { envs: [db], split: 'dev', concurrency: 2, stopAfterFailures: 3, driverFor: modelDrivers(fake.url, 'echo:x', 1) }));
      expect(r.stopped?.reason).toBe('failing');
      expect(r.failures).toBeGreaterThanOrEqual(3);
      expect(r.written).toBeLessThan(10);
    } finally {
      fake.server.close();
    }
  });
});

describe('cli eval', () => {
  function cli(args: string[], onStderr?: (text: string, kill: () => void) => void): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'eval', ...args], { cwd: root });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => {
        err += d;
        onStderr?.(err, () => child.kill('SIGKILL'));
      });
      child.on('close', (code) => resolve({ code, out, err }));
    });
  }

  it('killed halfway and resumed, the file holds every task once and the printed table is the scores output', async () => {
    const fake = await startFakeOpenAI(0, { delayMs: 30 });
    try {
      const out = tmp();
      const args = ['--env', 'hanoi', '--agent', 'openai', '--base-url', fake.url, '--model', 'hanoi-solver', '--concurrency', '2', '--out', out];
      const killed = await cli(args, (err, kill) => {
        if ((err.match(/^\[\d+\/10\]/gm) ?? []).length >= 3) kill();
      });
      expect(killed.code).toBeNull();
      expect(killed.err).toMatch(/^\[1\/10\] hanoi hanoi-3 seed \d: Complete, score 3 · [\d.]+ ep\/s · ETA [\d:–]+ · 0 errors$/m);
      const held = existsSync(out) ? keysIn(out).length : 0;
      expect(held).toBeGreaterThanOrEqual(3);
      expect(held).toBeLessThan(10);
      const resumed = await cli([...args, '--resume']);
      expect(resumed.code).toBe(0);
      expect(resumed.err).toContain(`eval: ${10 - held} episode(s) to play of 10; ${held} already in ${out}`);
      expect(keysIn(out)).toEqual(planUnits([hanoi]).map((u) => u.key).sort());
      let table = '';
      expect(await scoresCommand([out], (s) => (table += s))).toBe(0);
      expect(resumed.out).toBe(table);
      expect(table).toMatch(/hanoi-solver\s+3\.00 \[3\.00, 3\.00\] n=10/);
    } finally {
      fake.server.close();
    }
  }, 60_000);

  it('bad usage exits 2 with a message', async () => {
    const r = await cli(['--env', 'hanoi', '--agent', 'random', '--split', 'dev', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('hanoi has no dev/test split');
  }, 30_000);
});

describe('eval progress text', () => {
  it('shows done/total, rate, time left and errors', async () => {
    const { progressBar, progressLine, formatDuration } = await import('../../runtime/eval/index.ts');
    expect(progressBar({ done: 30, total: 120, errors: 1, elapsed: 15 }, 12)).toBe('[###---------] 30/120 2.00 ep/s · ETA 0:45 · 1 error');
    expect(progressLine({ done: 120, total: 120, errors: 0, elapsed: 8 }, 'db db-std-000 seed 0', 'Complete, score 1')).toBe(
      '[120/120] db db-std-000 seed 0: Complete, score 1 · 15.0 ep/s · ETA 0:00 · 0 errors',
    );
    expect(progressBar({ done: 0, total: 5, errors: 0, elapsed: 0 }, 5)).toBe('[-----] 0/5 0.00 ep/s · ETA – · 0 errors');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
