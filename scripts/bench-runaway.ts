/**
 * Runaway work (issue 16, item 2): how fast a runaway shell command and a runaway SQL query are
 * stopped from outside their worker, what the process's memory grows to meanwhile (Node: RSS
 * sampled every 10 ms, the workers' heap bounded by resourceLimits), and in headless Chromium
 * (the built app) the stop latency and the longest gap between animation frames on the page.
 * Prints figures, asserts nothing.
 *
 * From scripts/bench.ts: `for (const line of await (await import('./bench-runaway.ts')).benchRunaway(out)) console.log(`  ${line}`);`
 * (out: a build of the app, or null for Node only). Alone: `npm run bench:runaway -- [--no-browser | --out DIST] [--in-thread]`
 * (--in-thread also times the python runaway on the calling thread, unguarded: ~10-20 s).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GuardedShell } from '../envs/os/embedded/guarded.ts';
import { nodeWorkerPort } from '../envs/os/embedded/node-worker.ts';
import { createEmbeddedShell } from '../envs/os/embedded/index.ts';
import { WORKER_HEAP_MB } from '../envs/core/nodeWorker.ts';
import { nodeWorkerExecutorFactory } from '../envs/db/node.ts';
import { DB_ROWS, DB_TASKS, setupFor } from '../envs/db/tasks.ts';
import { quantile } from '../envs/core/stats.ts';
import { CHROMIUM_ARGS, chromiumPath, servePreview } from './chromium.ts';

/** Runaways: the first only an outside kill stops; the others the engine itself refuses or stops now. */
export const RUNAWAY_COMMANDS = [
  `python3 -c "print(len(('ab'*4000000).replace('a','a'*20)))"`,
  `python3 -c "print(len('ab'*10**8))"`,
  `echo a | sed ':a;s/a/aa/;ba'`,
];
export const RUNAWAY_SQL = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

const MB = 2 ** 20;
const ms = (x: number) => `${Math.round(x)} ms`;

/** Runs `work` while sampling the process's RSS; its duration and the peak growth over the RSS before it. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  const value = await work();
  const elapsed = performance.now() - start;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { value, ms: elapsed, peakMb: (peak - base) / MB };
}

async function nodeFigures(inThread: boolean): Promise<string[]> {
  const lines: string[] = [`Node worker threads, heap bound ${WORKER_HEAP_MB} MB each (resourceLimits.maxOldGenerationSizeMb)`];
  const shell = new GuardedShell({ seed: 1, spawn: nodeWorkerPort });
  const local = await createEmbeddedShell({ seed: 1 });
  for (const [name, sh] of [['guarded (worker)', shell], ['in-thread', local]] as const) {
    await sh.exec('echo warm > /root/f');
    const trips: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await sh.exec('echo hi');
      trips.push(performance.now() - t0);
    }
    lines.push(`${name} shell round trip "echo hi": median ${quantile(trips, 0.5).toFixed(2)} ms, p95 ${quantile(trips, 0.95).toFixed(2)} ms`);
  }
  local.dispose();
  for (const command of RUNAWAY_COMMANDS) {
    const kills = shell.kills;
    const r = await measured(() => shell.exec(command));
    const how = shell.kills > kills ? 'ended from outside (worker terminated)' : r.value.timedOut ? "stopped by the shell's own limit" : `refused/ended by the engine (exit ${r.value.exitCode})`;
    const t0 = performance.now();
    const next = await shell.exec('cat /root/f');
    const restart = shell.kills > kills ? ' (starts a new worker and replays the episode)' : '';
    lines.push(`shell ${JSON.stringify(command)}: ${how}, observation after ${ms(r.ms)}, peak RSS +${r.peakMb.toFixed(0)} MB; next command${restart} ${ms(performance.now() - t0)}, state kept: ${next.output === 'warm\n'}`);
  }
  shell.dispose();

  const setup = setupFor(DB_ROWS[DB_TASKS.find((t) => t.id === 'db-dev-003')!.index]); // the browser test's task
  const executor = await nodeWorkerExecutorFactory()(setup);
  await executor.exec("UPDATE skyscrapers_in_Columbus SET Notes = 'x' WHERE Name = 'Capitol Square'");
  const q = await measured(() => executor.exec(RUNAWAY_SQL));
  const t0 = performance.now();
  const after = await executor.exec("SELECT Notes FROM skyscrapers_in_Columbus WHERE Name = 'Capitol Square'");
  lines.push(`sql recursive CTE: ${q.value.timedOut ? 'ended from outside (worker terminated) at its 2000 ms limit' : 'not stopped'}, observation after ${ms(q.ms)} (once the database is rebuilt and the episode replayed), peak RSS +${q.peakMb.toFixed(0)} MB; next query ${ms(performance.now() - t0)}, state kept: ${after.text === "[('x',)]"}`);
  executor.close();

  if (inThread) {
    const sh = await createEmbeddedShell({ seed: 1 });
    const r = await measured(() => sh.exec(RUNAWAY_COMMANDS[0], { timeoutMs: 1500 }));
    lines.push(`unguarded (in-thread) ${JSON.stringify(RUNAWAY_COMMANDS[0])}: held the thread ${ms(r.ms)} (its limit 1500 ms), peak RSS +${r.peakMb.toFixed(0)} MB`);
    sh.dispose();
  }
  return lines;
}

/** Chromium on the built app: a runaway command (OS) and query (DB) with an animation-frame loop recording the longest gap. */
async function browserFigures(out: string, port: number): Promise<string[]> {
  const { chromium } = await import('@playwright/test');
  const server = await servePreview(out, port);
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      // Strings, not functions: tsx would wrap named functions in a helper the page does not have.
      const watch = () =>
        page.evaluate(`{
          const g = (window.__gap = { max: 0, last: performance.now(), on: true });
          const tick = (now) => {
            if (!g.on) return;
            g.max = Math.max(g.max, now - g.last);
            g.last = now;
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }`);
      const gap = () => page.evaluate<number>('(window.__gap.on = false, window.__gap.max)');
      const stepCount = page.getByTestId('step-count');
      const lines: string[] = [];

      await page.goto(`http://127.0.0.1:${port}/#/play/os/os-dev-24?seed=0`);
      await stepCount.filter({ hasText: /^0 \// }).waitFor({ timeout: 30_000 });
      const box = page.getByLabel('Or type the exact text a model would send');
      await box.fill(`Act: bash\n\n\`\`\`bash\n${RUNAWAY_COMMANDS[0]}\n\`\`\``);
      await watch();
      let t0 = Date.now();
      await page.getByRole('button', { name: 'Send' }).click();
      await stepCount.filter({ hasText: /^1 \// }).waitFor({ timeout: 30_000 });
      lines.push(`shell ${JSON.stringify(RUNAWAY_COMMANDS[0])} (Web Worker): stopped after ${ms(Date.now() - t0)}, longest frame gap ${ms(await gap())}`);

      await page.goto(`http://127.0.0.1:${port}/#/play/db/db-dev-003?seed=0`);
      await stepCount.filter({ hasText: /^0 \// }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Visual view' }).click();
      await page.getByLabel('SQL (Ctrl+Enter runs)').fill(RUNAWAY_SQL);
      await watch();
      t0 = Date.now();
      await page.keyboard.press('Control+Enter');
      await stepCount.filter({ hasText: /^1 \// }).waitFor({ timeout: 30_000 });
      lines.push(`sql recursive CTE (Web Worker): stopped after ${ms(Date.now() - t0)}, longest frame gap ${ms(await gap())}`);
      return lines;
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
  }
}

export async function benchRunaway(out: string | null, options: { inThread?: boolean; port?: number } = {}): Promise<string[]> {
  const lines = await nodeFigures(options.inThread ?? false);
  if (out) lines.push('headless Chromium (the built app; a Web Worker has no heap bound, it is ended at its deadline):', ...(await browserFigures(out, options.port ?? 4177)).map((l) => `  ${l}`));
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const browser = !process.argv.includes('--no-browser');
  // --out DIR: an existing build of the app (else one is made in a temporary folder).
  const given = process.argv.indexOf('--out') > 0 ? process.argv[process.argv.indexOf('--out') + 1] : null;
  const out = browser ? (given ?? mkdtempSync(join(tmpdir(), 'agentplay-runaway-bench-'))) : null;
  try {
    if (out && !given) execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
    console.log('Runaway work (issue 16):');
    for (const line of await benchRunaway(out, { inThread: process.argv.includes('--in-thread'), port: Number(process.env.BENCH_PORT ?? 4177) })) console.log(`  ${line}`);
  } finally {
    if (out && !given) rmSync(out, { recursive: true, force: true });
  }
}
