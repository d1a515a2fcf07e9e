/**
 * npm run bench: per game, environment steps per second called directly and
 * through the episode machine (so the machine's cost per step shows), then the
 * built app's initial JavaScript size (gzip). Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { CHROMIUM_ARGS, chromiumPath, servePreview } from './chromium.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { entries, loadAll } from '../envs/index.ts';
import { createEpisode } from '../envs/core/episode.ts';
import type { Actor } from '../envs/core/types.ts';
import { Rng } from '../envs/core/rng.ts';
import type { EnvDefinition, TaskInfo } from '../envs/core/types.ts';

const BENCH_ACTOR: Actor = { kind: 'script', name: 'bench' };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = 5;

/** Median of ROUNDS runs of about SECONDS/ROUNDS each: steady against the noise of a shared 2-core machine. */
async function median(run: (seconds: number) => number | Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < ROUNDS; i++) values.push(await run(SECONDS / ROUNDS));
  values.sort((a, b) => a - b);
  return values[Math.floor(ROUNDS / 2)];
}

/** Random valid actions, drawn up front so the loop measures the env, not the RNG. */
function actionPool(env: EnvDefinition, task: TaskInfo): string[] {
  if (env.asyncStep === true) throw new Error(`${env.id}: async environments are benchmarked elsewhere`);
  const first = env.reset(task, 0);
  const actions = env.validActions(first.state);
  const rng = Rng.fromSeed(42);
  return Array.from({ length: 4096 }, () => actions[rng.below(actions.length)]);
}

/** Calls reset/step in a loop, resetting when an episode ends, for about SECONDS. */
function direct(env: EnvDefinition, task: TaskInfo, pool: string[], seconds: number): number {
  const limit = env.maxSteps(task);
  let steps = 0;
  let seed = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    for (let batch = 0; batch < 1000; batch++) {
      let state = (env.reset(task, seed++) as { state: unknown }).state;
      for (let t = 0; t < limit; t++) {
        const step = env.step(state, pool[steps & 4095]) as { state: unknown; terminated: boolean; observation: string };
        steps++;
        state = step.state;
        if (step.terminated) break;
      }
    }
    elapsed = performance.now() - start;
  }
  return steps / (elapsed / 1000);
}

/**
 * The same play through the episode machine: one actor per episode, ACT per step.
 * `stepsOnly` times the ACT loop; `withReset` also counts creating the actor and its reset.
 */
async function throughMachine(env: EnvDefinition, task: TaskInfo, pool: string[], seconds: number): Promise<{ withReset: number; stepsOnly: number }> {
  let steps = 0;
  let seed = 0;
  let stepTime = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    const actor = createEpisode(env, task, { seed: seed++ });
    actor.start();
    await new Promise<void>((resolve) => {
      const sub = actor.subscribe((s) => {
        if (s.matches('awaitingAction') || s.status !== 'active') {
          sub.unsubscribe();
          resolve();
        }
      });
    });
    const t0 = performance.now();
    while (actor.getSnapshot().status === 'active') {
      actor.send({ type: 'ACT', text: pool[steps & 4095], actor: BENCH_ACTOR });
      steps++;
    }
    stepTime += performance.now() - t0;
    elapsed = performance.now() - start;
  }
  return { withReset: steps / (elapsed / 1000), stepsOnly: steps / (stepTime / 1000) };
}

/** Time per model-driven step minus the time the same step takes through the machine alone. */
async function driverOverhead(): Promise<string> {
  // The first game with a fixed action list and an oracle (a SmartPlay game): the oracle's plan is what the instant fake model answers.
  const env = (await loadAll()).find((e) => e.actionList === 'fixed' && e.oracleAction && e.asyncStep !== true)!;
  const task = env.tasks()[0];
  const { startEpisode, playActions } = await import('../envs/core/runner.ts');
  const { runModelDriver, runScriptedDriver } = await import('../runtime/drivers/index.ts');
  const oracle = startEpisode(env, task, { seed: 0 });
  await runScriptedDriver({ actor: oracle, env, task, kind: 'oracle' });
  const plan = oracle.getSnapshot().context.history.map((h) => h.action);
  let move = 0;
  const client = {
    kind: 'fake' as const,
    model: 'instant',
    async complete(request: { messages: { content: string }[] }) {
      const last = request.messages[request.messages.length - 1].content;
      const text = last.startsWith('Choose') ? plan[move++ % plan.length] : 'thinking';
      return { text, usage: { promptTokens: 1, completionTokens: 1 }, latencyMs: 0, finishReason: 'stop' };
    },
  };
  let driven = 0;
  let drivenSteps = 0;
  let plain = 0;
  let plainSteps = 0;
  for (let i = 0; i < 300; i++) {
    move = 0;
    let t0 = performance.now();
    const a = startEpisode(env, task, { seed: i });
    await runModelDriver({ actor: a, env, task, client: client as never });
    driven += performance.now() - t0;
    drivenSteps += a.getSnapshot().context.history.length;
    t0 = performance.now();
    const b = startEpisode(env, task, { seed: i });
    await playActions(b, plan, undefined, { actor: BENCH_ACTOR });
    plain += performance.now() - t0;
    plainSteps += b.getSnapshot().context.history.length;
  }
  const perDriven = driven / drivenSteps;
  const perPlain = plain / plainSteps;
  return `${(perDriven * 1000).toFixed(1)} µs per model-driven step vs ${(perPlain * 1000).toFixed(1)} µs per plain step: the driver adds ${((perDriven - perPlain) * 1000).toFixed(1)} µs (prompt building for two calls, bookkeeping)`;
}

function initialJsGzip(out: string): { files: string[]; bytes: number; gzip: number } {
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  // What the page loads before any user action: the entry script and its modulepreloads.
  const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
  let bytes = 0;
  let gzip = 0;
  for (const f of files) {
    const data = readFileSync(join(out, f));
    bytes += data.length;
    gzip += gzipSync(data, { level: 9 }).length;
  }
  return { files, bytes, gzip };
}

/** Serve the build, open #/bench in headless Chromium, and return what the page measured. */
async function browserBench(out: string): Promise<Record<string, unknown>> {
  const { chromium } = await import('@playwright/test');
  const port = 4175;
  const server = await servePreview(out, port);
  try {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/#/bench`);
      const done = page.getByTestId('bench-results').or(page.getByTestId('bench-error'));
      await done.waitFor({ timeout: 120_000 });
      const text = (await done.textContent()) ?? '';
      if (await page.getByTestId('bench-error').count()) throw new Error(text);
      return JSON.parse(text);
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

console.log(`agentplay benchmarks (Node ${process.version}, median of ${ROUNDS} runs, ~${SECONDS}s per figure)\n`);
console.log('game            task               direct steps/s   machine steps/s   machine+reset steps/s   overhead µs/step');
// Synchronous environments: the same loop for each, so the machine's overhead per step compares.
for (const env of (await loadAll()).filter((e) => e.asyncStep !== true && e.actionList === 'fixed')) {
  for (const task of env.tasks()) {
    const pool = actionPool(env, task);
    direct(env, task, pool, 0.3); // warm-up
    const d = await median((s) => direct(env, task, pool, s));
    await throughMachine(env, task, pool, 0.3); // warm-up
    const stepsOnly = await median(async (s) => (await throughMachine(env, task, pool, s)).stepsOnly);
    const withReset = await median(async (s) => (await throughMachine(env, task, pool, s)).withReset);
    const m = { stepsOnly, withReset };
    const overhead = (1 / m.stepsOnly - 1 / d) * 1e6;
    console.log(
      `${env.id.padEnd(15)} ${task.id.padEnd(18)} ${fmt(d).padStart(14)}   ${fmt(m.stepsOnly).padStart(15)}   ${fmt(m.withReset).padStart(21)}   ${overhead.toFixed(2).padStart(16)}`,
    );
  }
}

console.log('\nModel driver overhead (a fake model that answers at once with the oracle\'s moves; SmartPlay protocol, the first SmartPlay game):');
console.log(`  ${await driverOverhead()}`);

// Each environment's own benchmark (envs/<id>/bench.ts), through its catalogue line.
for (const entry of entries()) {
  if (!entry.bench) continue;
  const bench = await entry.bench();
  console.log(`\n${bench.title}:`);
  for (const line of await bench.run(SECONDS)) console.log(`  ${line}`);
}

// The DB's agreement with MariaDB, as measured by npm run test:mysql (kept with its fixtures).
try {
  const measured = JSON.parse(readFileSync(new URL('../tests/fixtures/mysql/mariadb-outputs.json', import.meta.url), 'utf8')).agreement;
  console.log('\nDB agreement with MariaDB configured as AgentBench\'s MySQL 8 (from npm run test:mysql):');
  console.log(`  ${JSON.stringify(measured)}`);
} catch {
  console.log('\nDB agreement with MariaDB: run npm run test:mysql to measure it.');
}

// Replay: verifying 1,000 Hanoi episodes, a share link's size, opening a 1,000-step replay (its own script).
console.log('\nReplay (npm run bench:replay):');
execFileSync('npx', ['tsx', 'scripts/bench-replay.ts', ...(process.argv.includes('--no-browser') || process.argv.includes('--no-build') ? ['--no-browser'] : [])], { stdio: 'inherit' });

// eval: episodes/s against the test server answering after 200 ms, concurrency 1 vs 16 (its own script).
console.log('\nEval throughput (npm run bench:eval):');
for (const line of await (await import('./bench-eval.ts')).benchEval()) console.log(`  ${line}`);

if (process.argv.includes('--no-build')) process.exit(0);
console.log('\nBuilding the app to measure its initial JavaScript ...');
const out = mkdtempSync(join(tmpdir(), 'agentplay-bench-'));
try {
  execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
  const size = initialJsGzip(out);
  console.log(`initial JS: ${size.files.length} file(s), ${fmt(size.bytes)} bytes, ${fmt(size.gzip)} bytes gzip (${(size.gzip / 1024).toFixed(1)} kB)`);
  if (process.argv.includes('--no-browser')) process.exit(0);
  console.log('\nIn the browser (headless Chromium, the built app):');
  const b = await browserBench(out);
  for (const [name, value] of Object.entries(b)) if (name !== 'userAgent') console.log(`  ${name}: ${value}`);
  console.log('\nA page opened on a task\'s Play link (headless Chromium, the built app):');
  for (const line of await (await import('./bench-links.ts')).benchLinks(out)) console.log(`  ${line}`);
  console.log('\nRunaway work, stopped from outside its worker (npm run bench:runaway):');
  for (const line of await (await import('./bench-runaway.ts')).benchRunaway(out)) console.log(`  ${line}`);
  console.log('\nScores (10,000 episodes / 300,000 steps):');
  for (const line of await (await import('./bench-scores.ts')).benchScores(out)) console.log(`  ${line}`);
  console.log('\nThe wllama engine with the project-made tiny GGUF (headless Chromium):');
  for (const line of await (await import('./bench-wllama.ts')).benchWllama()) console.log(`  ${line}`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
