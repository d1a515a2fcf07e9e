/**
 * `eval` throughput against the local OpenAI-compatible test server answering every request
 * after a fixed 200 ms (a model's thinking time): episodes per second at concurrency 1 and 16
 * and their ratio (target ≥ 14×, issue 30: the endpoint, not the runner, should be what limits a run).
 * Two task sets: Hanoi (SmartPlay, synchronous, 14 requests an episode) and DB (AgentBench, an
 * asynchronous engine in worker threads as the CLI runs it, one request an episode). Prints
 * figures; asserts nothing.
 *
 * DB's concurrent run is 160 episodes of the test set (ten rounds of 16; a real run is all 300):
 * its first 16 episodes reset their databases at once on 2–4 workers, a one-off delay of about a
 * round that a short run cannot amortise (the same runner measured 13.1–13.4× over 60 episodes,
 * 14.4–14.5× over 96, 14.8–15.1× over 160: the steady state is at the endpoint's limit).
 *
 * From scripts/bench.ts: `for (const line of await (await import('./bench-eval.ts')).benchEval()) console.log(`  ${line}`);`
 * Alone: `npx tsx scripts/bench-eval.ts` (`… db` or `… hanoi`: that case only).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { performance as nodePerformance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadEnv } from '../envs/index.ts';
import type { EnvDefinition, TaskInfo } from '../envs/core/types.ts';
import { modelDriver } from '../runtime/drivers/driver.ts';
import { evaluate, type PlanOptions } from '../runtime/eval/index.ts';
import { hasSplits } from '../runtime/eval/plan.ts';
import { defaultTasks } from '../runtime/plan.ts';
import { createOpenAIClient } from '../runtime/models/openai.ts';
import { useInProcessEngines, useWorkerEngines } from './workerEngines.ts';

const DELAY_MS = 200;

interface Case {
  label: string;
  env: string;
  model: string;
  plan: PlanOptions;
  /** Episodes at concurrency 1 and 16 (more at 16 so both runs last long enough to measure, and a run's start is amortised as in a real one). */
  serial: number;
  parallel: number;
}

const CASES: Case[] = [
  { label: 'Hanoi3Disk (hanoi-solver, 14 requests/episode)', env: 'hanoi', model: 'hanoi-solver', plan: {}, serial: 2, parallel: 32 },
  { label: 'DB test (one answer, 1 request/episode)', env: 'db', model: 'echo:Action: Answer\nFinal Answer: ["1"]', plan: { split: 'test' }, serial: 12, parallel: 160 },
];

interface Rate {
  perSecond: number;
  /** CPU ms per episode, all threads (the runner, its engine workers). */
  cpuMs: number;
  /** Ms per episode the runner's main thread was busy (the thread every episode's work queues on). */
  mainMs: number;
}

/** Episodes per second of one eval run over the first `n` units of the case's set, and what each episode cost. */
async function rate(env: EnvDefinition, c: Case, url: string, concurrency: number, n: number, dir: string): Promise<Rate> {
  const client = createOpenAIClient({ baseUrl: url, model: c.model, stream: false });
  // A set with splits: its first n tasks of the case's split, once each; otherwise n seeds of each task.
  const units = hasSplits(env) ? { tasks: defaultTasks(env, c.plan.split ?? 'test').slice(0, n).map((t) => t.id) } : { seeds: n };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const loop0 = nodePerformance.eventLoopUtilization();
  const r = await evaluate({
    envs: [env],
    ...c.plan,
    ...units,
    out: join(dir, `${c.env}-${concurrency}.jsonl`),
    appVersion: 'bench',
    concurrency,
    driverFor: (e: EnvDefinition, task: TaskInfo) => modelDriver(client, e, task),
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const loop = nodePerformance.eventLoopUtilization(loop0);
  if (r.written !== n || r.failures > 0) throw new Error(`${c.env}: ${r.written} of ${n} written, ${r.failures} failures`);
  return { perSecond: n / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / n, mainMs: loop.active / n };
}

/** The test server in its own process, as a real endpoint is: its work does not share the runner's thread. */
async function startServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/fake-openai-server.ts', '--port', '0', '--delay-ms', String(DELAY_MS)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the test server exited (${code})`)));
  });
  return { url, stop: () => child.kill() };
}

export async function benchEval(only?: string): Promise<string[]> {
  // What the CLI's `eval` runs: the DB's sql.js (and the OS's shell) in worker threads.
  await useWorkerEngines();
  const fake = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'agentplay-bench-eval-'));
  const lines: string[] = [`test server answering after ${DELAY_MS} ms; episodes/s at concurrency 1 and 16 (target ratio ≥ 14×, issue 30)`];
  try {
    for (const c of CASES.filter((c) => !only || c.env === only)) {
      const env = await loadEnv(c.env);
      // Episodes first at each concurrency, so starting the engines is not counted in the runs
      // (sql.js, and for DB the worker threads the episodes in flight share).
      const t0 = performance.now();
      await rate(env, c, fake.url, 1, 1, mkdtempSync(join(dir, 'warm-')));
      await rate(env, c, fake.url, 16, 16, mkdtempSync(join(dir, 'warm-')));
      const warm = (performance.now() - t0) / 1000;
      const one = await rate(env, c, fake.url, 1, c.serial, dir);
      const sixteen = await rate(env, c, fake.url, 16, c.parallel, dir);
      const figures = (r: Rate) => `${r.perSecond.toFixed(2)} ep/s, ${r.cpuMs.toFixed(0)} ms CPU/episode (main thread busy ${r.mainMs.toFixed(1)} ms)`;
      lines.push(
        `${c.label}: concurrency 1 ${figures(one)} (${c.serial} episodes), concurrency 16 ${figures(sixteen)} (${c.parallel} episodes), ratio ${(sixteen.perSecond / one.perSecond).toFixed(1)}× (warm-up ${warm.toFixed(1)} s)`,
      );
    }
  } finally {
    await useInProcessEngines();
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchEval(process.argv[2])) console.log(line);
}
