/**
 * The scores' speed on 10,000 episodes / 300,000 steps (synthetic, over every task of the
 * catalogue's sets): the full report in Node (target ≤ 1 s) and the scores view in headless
 * Chromium (the built app: file read and checked in the worker, tables computed in the worker,
 * tables and charts drawn; targets ≤ 1.5 s for the view, ≤ 50 ms for its longest main-thread task).
 * Prints figures, asserts nothing.
 *
 * From scripts/bench.ts: `for (const line of await (await import('./bench-scores.ts')).benchScores(out)) console.log(`  ${line}`);`
 * (out: a build of the app). Alone: `npx tsx scripts/bench-scores.ts [--no-browser] [N]`
 * (builds the app into a temporary folder); `--against REF [--runs 3]` also builds commit REF
 * and measures the two views alternately, each run and the spread printed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAll } from '../envs/index.ts';
import { toJsonl } from '../runtime/jsonl.ts';
import { computeScores } from '../runtime/scores/index.ts';
import { syntheticEpisodes, type SyntheticTask } from '../runtime/scores/synthetic.ts';
import { envTaskInfo } from '../runtime/taskInfo.ts';
import { suiteOf } from '../suites/index.ts';
import { CHROMIUM_ARGS, chromiumPath, servePreview } from './chromium.ts';

const ms = (x: number) => `${Math.round(x)} ms`;
/** The Long Tasks API reports tasks of 50 ms or more: 0 means none was. */
const longestTask = (x: number) => (x > 0 ? ms(x) : 'none of 50 ms or more');

/** Node: computeScores over the episodes with the catalogue's task metadata (best of 3, wall and CPU). */
async function nodeFigures(n: number): Promise<{ lines: string[]; file: string; dir: string }> {
  const envs = await loadAll();
  const tasks: SyntheticTask[] = envs.flatMap((env) => env.tasks().map((t) => ({ env: env.id, task: t.id, table: suiteOf(env).table })));
  const records = syntheticEpisodes(n, tasks);
  const steps = records.reduce((a, r) => a + r.steps.length, 0);
  const taskInfo = envTaskInfo(envs);
  computeScores(records.slice(0, 200), { taskInfo }); // warm up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    computeScores(records, { taskInfo });
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const dir = mkdtempSync(join(tmpdir(), 'agentplay-scores-bench-'));
  const file = join(dir, 'episodes.jsonl');
  writeFileSync(file, toJsonl(records));
  return {
    lines: [`scores in Node: ${records.length} episodes / ${steps} steps, full report (1000 resamples): wall ${ms(Math.min(...wall))}, CPU ${ms(Math.min(...cpu))} (best of 3; target ≤ 1000 ms)`],
    file,
    dir,
  };
}

/** What one pick of the file in the scores view took (ms). */
interface ViewFigures {
  /** File chosen → tables and charts on screen (the tables' figures; their intervals may still be coming). */
  total: number;
  /** File chosen → the intervals in the tables too (the CSV download enabled then; the same as total before intervals came later). */
  complete: number;
  read: number;
  /** In the worker, file chosen → every field of every line checked (null: a build that checked them all before the scores, within `read`). */
  checked: number | null;
  computed: number;
  drawn: number;
  busy: number;
  /** The main thread's CPU time (Chrome's ThreadTime) over the same span: less swayed by other load than busy's wall time. */
  cpu: number;
  again: number;
  againBusy: number;
  /** The longest task the page's Long Tasks observer saw (0: none of 50 ms or more). */
  longest: number;
}

/** Chromium: the built app at `out`, the file picked in the scores view, timed until tables and charts are on screen. */
async function measureView(out: string, file: string, port: number): Promise<ViewFigures> {
  const { chromium, expect } = await import('@playwright/test');
  const server = await servePreview(out, port);
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/#/scores`);
      await page.getByText('No episodes yet.').waitFor();
      await page.evaluate(() => {
        const w = window as unknown as { longest: number };
        w.longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
        }).observe({ type: 'longtask', buffered: false });
      });
      // Main-thread CPU time (Chrome's TaskDuration): what the page itself spent, whatever else the machine runs.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const metric = async (name: string) => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      const mainThread = () => metric('TaskDuration');
      // A person's pointer is on "Score a file…" before the file is chosen (the button opens the
      // file dialog), which starts the file readers: here 300 ms before, a quick person's dialog.
      await page.getByText('Score a file…').hover();
      await page.waitForTimeout(300);
      const busy0 = await mainThread();
      const cpu0 = await metric('ThreadTime');
      const t0 = Date.now();
      await page.getByTestId('scores-file').setInputFiles(file);
      const summary = page.getByTestId('scores-summary');
      await summary.filter({ hasText: 'charts drawn' }).waitFor({ timeout: 300_000 });
      const total = Date.now() - t0;
      // CSS locators, not role ones: Playwright answers a role query by computing every element's ARIA
      // role and visibility on the page's main thread (50–200 ms on this view), which the long-task
      // figure would count against the page.
      const csv = page.locator('button', { hasText: 'Download all figures (CSV)' });
      await expect(csv).toBeEnabled({ timeout: 300_000 });
      const complete = Date.now() - t0;
      const sourceLine = page.getByTestId('scores-source');
      if (/Checking every field/.test((await sourceLine.textContent()) ?? '')) await sourceLine.filter({ hasText: 'Every field checked' }).waitFor({ timeout: 300_000 });
      const busy1 = await mainThread();
      const cpu1 = await metric('ThreadTime');
      const text = (await summary.textContent()) ?? '';
      const source = (await sourceLine.textContent()) ?? '';
      const checked = /Every field checked in (\d+) ms/.exec(source);
      const read = Number(/Read in (\d+) ms/.exec(source)?.[1]);
      const computed = Number(/Computed in (\d+) ms/.exec(text)?.[1]);
      const drawn = Number(/charts drawn in (\d+) ms/.exec(text)?.[1]);
      // Switching the human source: scoring again in the worker, then tables and charts redrawn.
      const t1 = Date.now();
      await page.locator('input[type=radio][name=human][value=recorded]').check();
      await page.getByTestId('human-baseline').filter({ hasText: 'our recorded human episodes' }).waitFor({ timeout: 60_000 });
      await summary.filter({ hasText: 'charts drawn' }).waitFor();
      await expect(csv).toBeEnabled({ timeout: 300_000 });
      const again = Date.now() - t1;
      const busy2 = await mainThread();
      const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
      return { total, complete, read, checked: checked ? Number(checked[1]) : null, computed, drawn, busy: busy1 - busy0, cpu: cpu1 - cpu0, again, againBusy: busy2 - busy1, longest };
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
  }
}

function viewLines(f: ViewFigures): string[] {
  return [
    `scores view in Chromium (the pointer on Score a file… 300 ms before): file chosen → tables and charts on screen ${ms(f.total)} wall (target ≤ 1500 ms), with their intervals ${ms(f.complete)} (in the worker: reading and checking the file ${ms(f.read)}${f.checked === null ? '' : ` (the fields scoring reads; every field checked at ${ms(f.checked)})`}, scoring the tables ${ms(f.computed)}; on the page: charts drawn ${ms(f.drawn)}, main thread busy ${ms(f.busy)} in all, its CPU ${ms(f.cpu)})`,
    `  human source switched → tables, charts and intervals redrawn ${ms(f.again)} wall (main thread busy ${ms(f.againBusy)}); longest main-thread task throughout ${longestTask(f.longest)} (target ≤ 50 ms)`,
  ];
}

async function browserFigures(out: string, file: string, port: number): Promise<string[]> {
  return viewLines(await measureView(out, file, port));
}

/**
 * Old and new side by side: `against` (a git commit) built from `git archive` into a temporary
 * folder, then the two builds measured alternately `runs` times on the same file, so the
 * machine's load falls on both alike.
 */
async function compareWith(against: string, out: string, file: string, port: number, runs: number): Promise<string[]> {
  const src = mkdtempSync(join(tmpdir(), 'agentplay-old-src-'));
  const oldOut = mkdtempSync(join(tmpdir(), 'agentplay-old-out-'));
  try {
    execFileSync('sh', ['-c', `git archive ${JSON.stringify(against)} | tar -x -C ${JSON.stringify(src)}`], { stdio: 'inherit' });
    symlinkSync(realpathSync('node_modules'), join(src, 'node_modules'));
    execFileSync('npx', ['vite', 'build', '--outDir', oldOut, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit', cwd: src });
    const rows: Record<'old' | 'new', ViewFigures[]> = { old: [], new: [] };
    for (let i = 0; i < runs; i++) {
      rows.old.push(await measureView(oldOut, file, port));
      rows.new.push(await measureView(out, file, port));
    }
    const spread = (xs: number[]) => `${ms(Math.min(...xs))}–${ms(Math.max(...xs))} (median ${ms(xs.sort((a, b) => a - b)[xs.length >> 1])})`;
    const lines: string[] = [];
    for (const k of ['old', 'new'] as const) {
      const f = rows[k];
      lines.push(`${k === 'old' ? `before (${against})` : 'now'}, ${runs} runs: file → screen ${spread(f.map((x) => x.total))}; with intervals ${spread(f.map((x) => x.complete))}; reading ${spread(f.map((x) => x.read))}; scoring ${spread(f.map((x) => x.computed))}; longest main-thread task ${spread(f.map((x) => x.longest))}; main thread busy ${spread(f.map((x) => x.busy))}; its CPU ${spread(f.map((x) => x.cpu))}`);
      for (const [i, x] of f.entries()) lines.push(`  run ${i + 1}: ${viewLines(x).join(' | ')}`);
    }
    return lines;
  } finally {
    rmSync(src, { recursive: true, force: true });
    rmSync(oldOut, { recursive: true, force: true });
  }
}

export async function benchScores(out: string | null, n = 10_000, port = 4176, against?: { ref: string; runs: number }): Promise<string[]> {
  const node = await nodeFigures(n);
  try {
    if (out && against) return [...node.lines, ...(await compareWith(against.ref, out, node.file, port, against.runs))];
    return out ? [...node.lines, ...(await browserFigures(out, node.file, port))] : node.lines;
  } finally {
    rmSync(node.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const noBrowser = process.argv.includes('--no-browser');
  const flag = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const n = Number(process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && !['--runs'].includes(all[i - 1])) ?? 10_000);
  const ref = flag('--against');
  const against = ref ? { ref, runs: Number(flag('--runs') ?? 3) } : undefined;
  let out: string | null = null;
  if (!noBrowser) {
    out = mkdtempSync(join(tmpdir(), 'agentplay-bench-'));
    execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
  }
  try {
    for (const line of await benchScores(out, n, Number(process.env.BENCH_PORT ?? 4176), against)) console.log(line);
  } finally {
    if (out) rmSync(out, { recursive: true, force: true });
  }
}
