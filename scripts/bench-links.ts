/**
 * A page opened on a task's Play link (issue 30, item 6), in headless Chromium on the built app, for
 * each environment whose Node side names `links` (the OS: its shell's start and the task's init): a
 * fresh browser context per visit (nothing cached), the problem on screen (ms after the page
 * started), then a first action sent at once: how long it waits after the problem showed, and a
 * later action's round trip for comparison. Over loopback and over an emulated participant's link
 * (on loopback the server's on-the-fly gzip and the page share this machine's two cores).
 * Prints figures, asserts nothing.
 *
 * From scripts/bench.ts: `for (const line of await (await import('./bench-links.ts')).benchLinks(out)) console.log(`  ${line}`);`
 * Alone: `npx tsx scripts/bench-links.ts [--out DIST] [--runs N]` (without --out it builds the app first).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { entries } from '../envs/index.ts';
import type { EnvNode } from '../envs/core/envNode.ts';
import { quantile } from '../envs/core/stats.ts';
import { CHROMIUM_ARGS, chromiumPath, servePreview } from './chromium.ts';

/** Every task an environment's Node side names for this bench, with its environment and action, in catalogue order. */
async function linkTasks(): Promise<{ env: string; id: string; action: NonNullable<EnvNode['links']>['action'] }[]> {
  const found = [];
  for (const entry of entries()) {
    const links = (await entry.node?.())?.links;
    for (const id of links?.tasks ?? []) found.push({ env: entry.id, id, action: links!.action });
  }
  return found;
}

/**
 * Runs in the page before its scripts: when the step count first reads 0, sends the first action
 * through the text box at once; after its step, waits 50 ms and sends the second. Times on the page's clock.
 */
const timer = (first: string, second: string) => `(() => {
  const t = {};
  window.__linkTimes = t;
  const actions = { one: ${JSON.stringify(first)}, two: ${JSON.stringify(second)} };
  const send = (word) => {
    const box = [...document.querySelectorAll('textarea')].find((x) => [...(x.labels ?? [])].some((l) => /exact text a model would send/.test(l.textContent)));
    box.value = actions[word];
    box.dispatchEvent(new Event('input', { bubbles: true }));
    [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Send').click();
  };
  new MutationObserver(() => {
    const count = document.querySelector('[data-testid=step-count]')?.textContent ?? '';
    if (t.problem === undefined && /^0 \\//.test(count)) {
      t.problem = performance.now();
      queueMicrotask(() => send('one'));
    } else if (t.problem !== undefined && t.first === undefined && /^1 \\//.test(count)) {
      t.first = performance.now();
      setTimeout(() => { t.sent = performance.now(); send('two'); }, 50);
    } else if (t.first !== undefined && t.second === undefined && /^2 \\//.test(count)) {
      t.second = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** Words the two actions print: in the observations only if the actions ran. */
const WORDS = ['bench-link-first', 'bench-link-later'];

interface Visit {
  problem: number;
  firstWait: number;
  later: number;
}

/** How the page reaches its server: this machine's loopback, and a participant's link (Chromium's network emulation). */
const NETWORKS = [
  { name: 'loopback (the server on this machine, sharing its two cores)', conditions: null },
  { name: 'a 20 Mbit/s link with 40 ms latency', conditions: { offline: false, latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 5e6 / 8 } },
] as const;

export async function benchLinks(out: string, { runs = 3, port = Number(process.env.BENCH_PORT ?? 4178) } = {}): Promise<string[]> {
  const { chromium } = await import('@playwright/test');
  const server = await servePreview(out, port);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const lines: string[] = [`${runs} visits per task, each in a fresh browser context; the first action sent as soon as the problem shows`];
  try {
    for (const network of NETWORKS) {
    lines.push(`over ${network.name}:`);
    for (const { env, id, action } of await linkTasks()) {
      const visits: Visit[] = [];
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        if (network.conditions) {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', network.conditions);
        }
        await page.addInitScript(timer(action(WORDS[0]), action(WORDS[1])));
        await page.goto(`${server.url}#/play/${env}/${id}?seed=${run + 1}`);
        await page.waitForFunction(() => (window as unknown as { __linkTimes: { second?: number } }).__linkTimes.second !== undefined, null, { timeout: 60_000 });
        const t = await page.evaluate(() => (window as unknown as { __linkTimes: Record<string, number> }).__linkTimes);
        // The actions ran (their observations name their words), not merely counted as steps.
        const seen = (await page.getByTestId('text-view').textContent()) ?? '';
        if (!WORDS.every((word) => seen.includes(word))) throw new Error(`bench-links: ${env}/${id}: the actions' words are not in the observations: ${seen.slice(-300)}`);
        visits.push({ problem: t.problem, firstWait: t.first - t.problem, later: t.second - t.sent });
        await context.close();
      }
      const median = (pick: (v: Visit) => number) => quantile(visits.map(pick), 0.5).toFixed(0);
      const most = (pick: (v: Visit) => number) => Math.max(...visits.map(pick)).toFixed(0);
      lines.push(
        `  ${id}: problem on screen ${median((v) => v.problem)} ms after the page started (slowest ${most((v) => v.problem)}); ` +
          `the first action answered ${median((v) => v.firstWait)} ms after it (slowest ${most((v) => v.firstWait)}), a later one ${median((v) => v.later)} ms`,
      );
    }
    }
  } finally {
    await browser.close();
    server.close();
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const given = arg('--out');
  const out = given ?? mkdtempSync(join(tmpdir(), 'agentplay-links-'));
  try {
    if (!given) execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
    console.log('A page opened on a task\'s Play link (headless Chromium, the built app):');
    for (const line of await benchLinks(out, { runs: Number(arg('--runs') ?? 3) })) console.log(`  ${line}`);
  } finally {
    if (!given) rmSync(out, { recursive: true, force: true });
  }
  process.exit(0);
}
