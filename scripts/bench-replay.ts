/**
 * Replay benchmarks (npm run -s bench:replay; --no-browser skips Chromium, --dist DIR uses a build):
 *   - verifying 1,000 Hanoi episodes in Node (runtime/verify.ts), target ≤ 2 s;
 *   - the share link's size for a 30-step BabyAI episode;
 *   - opening a 1,000-step episode's replay in headless Chromium, target ≤ 300 ms
 *     (from the route change to the timeline's last cell on screen; median of 7, after a warm-up).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getTask, loadEnv } from '../envs/index.ts';
import { Rng } from '../envs/core/rng.ts';
import { recordActions } from '../runtime/recordActions.ts';
import { verifyEpisode } from '../runtime/verify.ts';
import { encodeShare, shareLink } from '../runtime/replay/share.ts';
import { toJsonl } from '../runtime/jsonl.ts';
import type { EpisodeRecord } from '../runtime/records.ts';
import { CHROMIUM_ARGS, chromiumPath, servePreview } from './chromium.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Episodes of random valid (and some invalid) moves, made once; only verifying them is timed. */
async function hanoiEpisodes(n: number): Promise<EpisodeRecord[]> {
  const env = await loadEnv('hanoi');
  const out: EpisodeRecord[] = [];
  for (let k = 0; k < n; k++) {
    const task = getTask(env, k % 2 ? 'hanoi-4' : 'hanoi-3');
    const rng = Rng.fromSeed(k);
    const actions: string[] = [];
    let { state } = env.reset(task, k) as { state: unknown };
    for (let t = 0; t < 30; t++) {
      const valid = env.validActions(state);
      const a = valid[rng.below(valid.length)];
      actions.push(a);
      state = (env.step(state, a) as { state: unknown }).state;
    }
    out.push(await recordActions('hanoi', task.id, k, actions, { id: `hanoi-${k}`, at: '2026-01-01T00:00:00.000Z' }));
  }
  return out;
}

const episodes = await hanoiEpisodes(1000);
await verifyEpisode(episodes[0]); // load the environment
const runs: number[] = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  for (const e of episodes) {
    const v = await verifyEpisode(e);
    if (v.kind !== 'verified') throw new Error(`episode ${e.header.id} did not verify: ${JSON.stringify(v)}`);
  }
  runs.push(performance.now() - t0);
}
const steps = episodes.reduce((n, e) => n + e.steps.length, 0);
console.log(`verify: 1,000 Hanoi episodes (${steps.toLocaleString('en')} steps) in ${median(runs).toFixed(0)} ms (median of 5; target ≤ 2,000 ms)`);

const babyai = await loadEnv('babyai');
const btask = getTask(babyai, 'babyai-0');
// Random moves until an episode runs its whole 30 steps (one that reaches the goal early is shorter).
let b: EpisodeRecord | null = null;
for (let seed = 1; !b || b.steps.length < 30; seed++) {
  const rng = Rng.fromSeed(seed);
  const bActions: string[] = [];
  let bState = (babyai.reset(btask, 0) as { state: unknown }).state;
  for (let t = 0; t < 30; t++) {
    const valid = babyai.validActions(bState).filter((a) => !/check|inventory/.test(a));
    const a = valid[rng.below(valid.length)];
    bActions.push(a);
    bState = (babyai.step(bState, a) as { state: unknown }).state;
  }
  b = await recordActions('babyai', 'babyai-0', 0, bActions, { id: 'share-bench' });
}
const payload = await encodeShare(b);
const link = await shareLink(b, 'https://example.org/agentplay/');
const raw = toJsonl([b]).length;
console.log(`share link: a ${b.steps.length}-step BabyAI episode (${raw.toLocaleString('en')} bytes as JSONL) → ${payload.length.toLocaleString('en')} characters of fragment, ${link.chars.toLocaleString('en')} with the address (${link.ok ? 'within' : 'over'} the 32,000 limit)`);

if (process.argv.includes('--no-browser')) process.exit(0);

// A 1,000-step episode (Bandits with its horizon raised to 1,000).
const long = await recordActions('bandits', 'bandits-highlow', 1, Array.from({ length: 1000 }, (_, i) => (i % 3 ? 'Pull slot machine 1.' : 'Pull slot machine 2.')), { id: 'long-1000', maxSteps: 1000 });
if (long.steps.length !== 1000) throw new Error(`expected 1,000 steps, got ${long.steps.length}`);
const distFlag = process.argv.indexOf('--dist');
const dist = distFlag > 0 ? process.argv[distFlag + 1] : mkdtempSync(join(tmpdir(), 'agentplay-replay-bench-'));
if (distFlag < 0) execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
const port = 4176;
const server = await servePreview(dist, port);
try {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${port}/#/episodes`);
    const file = join(tmpdir(), `long-${process.pid}.jsonl`);
    writeFileSync(file, toJsonl([long]));
    await page.getByTestId('import-input').setInputFiles(file);
    await page.getByRole('status').filter({ hasText: 'Imported' }).waitFor();
    rmSync(file);
    const open = async () => {
      await page.evaluate(() => (location.hash = '#/episodes'));
      await page.getByTestId('episode-list').waitFor();
      const t0 = await page.evaluate(() => {
        const t = performance.now();
        location.hash = '#/replay/long-1000';
        return t;
      });
      await page.waitForFunction(() => document.querySelector('[data-testid="timeline"] [data-t="1000"]') && document.querySelector('[data-testid="replay-observation"]'), null, { polling: 'raf' });
      return (await page.evaluate(() => performance.now())) - t0;
    };
    await open(); // warm-up: the view's chunk and the environment load once
    const times: number[] = [];
    for (let r = 0; r < 7; r++) times.push(await open());
    console.log(`replay: opening a 1,000-step episode in Chromium: ${median(times).toFixed(0)} ms (median of 7, after a warm-up; target ≤ 300 ms; the first open including chunk loads is slower)`);
  } finally {
    await browser.close();
  }
} finally {
  server.close();
  if (distFlag < 0) rmSync(dist, { recursive: true, force: true });
}
