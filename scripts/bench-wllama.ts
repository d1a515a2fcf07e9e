/**
 * The wllama engine's speed in headless Chromium on the project's tiny GGUF: load time
 * (cold: download, wasm compile, llama.cpp start; warm: from Cache Storage in the same
 * page) and tokens/s (prompt processing and generation) on the real first prompt of
 * Hanoi3Disk (SmartPlay's first call). Prints figures, asserts nothing.
 *
 * From scripts/bench.ts: `for (const line of await (await import('./bench-wllama.ts')).benchWllama()) console.log(`  ${line}`);`
 * Alone: `npx tsx scripts/bench-wllama.ts`.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';
import { loadEnv } from '../envs/index.ts';
import type { ChatMessage } from '../envs/core/smartplay.ts';
import type { WllamaPageApi } from './wllama-page/main.ts';

export interface WllamaBenchOptions {
  /** Replies timed (the median is reported). Default 5. */
  replies?: number;
  /** Tokens generated per reply. Default 128. */
  maxTokens?: number;
}

export interface WllamaBenchResult {
  modelBytes: number;
  coldLoadMs: number;
  warmLoadMs: number;
  threads: number;
  promptTokens: number;
  promptTokensPerSecond: number;
  tokensPerSecond: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** SmartPlay's first request for Hanoi3Disk, seed 0: a realistic prompt length. */
async function hanoiFirstPrompt(): Promise<ChatMessage[]> {
  const hanoi = await loadEnv('hanoi');
  const { conversationFor } = await import('../suites/index.ts');
  const task = hanoi.tasks()[0];
  const first = (await hanoi.reset(task, 0)) as { observation: string };
  const plan = conversationFor(hanoi, task, { seed: 0, observations: [first.observation], actions: [] });
  return plan.messages(0, []);
}

export async function measureWllama(options: WllamaBenchOptions = {}): Promise<WllamaBenchResult> {
  const { chromium } = await import('@playwright/test');
  const { serveWllamaPage } = await import('./wllama-page.ts');
  const server = await serveWllamaPage(4185);
  const messages = await hanoiFirstPrompt();
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      // tsx keeps function names with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f');
      await page.goto(server.url);
      await page.locator('body[data-ready=true]').waitFor();
      const run = await page.evaluate(
        async ({ url, messages, replies, maxTokens }) => {
          const api = (window as unknown as { wllamaPage: WllamaPageApi }).wllamaPage;
          const cold = api.createWllamaClient({ source: { kind: 'url', url } });
          await cold.load();
          const coldInfo = cold.info!;
          await cold.unload();
          const warm = api.createWllamaClient({ source: { kind: 'url', url } });
          await warm.load();
          const warmInfo = warm.info!;
          // A first reply warms llama.cpp up; then each timed reply starts from an empty prompt cache
          // (a distinct first line), so the whole prompt is processed every time.
          await warm.complete({ messages, temperature: 0, maxTokens: 8 });
          const stats = [];
          for (let i = 0; i < replies; i++) {
            const fresh = [{ role: 'system' as const, content: `Run ${i}.` }, ...messages];
            stats.push((await warm.complete({ messages: fresh, temperature: 0, maxTokens })).stats);
          }
          await warm.unload();
          return { coldInfo, warmInfo, stats };
        },
        { url: server.modelUrl, messages, replies: options.replies ?? 5, maxTokens: options.maxTokens ?? 128 },
      );
      return {
        modelBytes: run.coldInfo.bytes,
        coldLoadMs: run.coldInfo.loadMs,
        warmLoadMs: run.warmInfo.loadMs,
        threads: run.warmInfo.threads,
        promptTokens: median(run.stats.map((s) => s.promptTokens)),
        promptTokensPerSecond: median(run.stats.map((s) => s.promptTokensPerSecond ?? 0)),
        tokensPerSecond: median(run.stats.map((s) => s.tokensPerSecond)),
      };
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

/** The figures as lines for scripts/bench.ts. */
export async function benchWllama(options: WllamaBenchOptions = {}): Promise<string[]> {
  const r = await measureWllama(options);
  const round = (n: number) => Math.round(n).toLocaleString('en-US');
  return [
    `tiny GGUF (${(r.modelBytes / 1024).toFixed(0)} kB, project-made): load ${round(r.coldLoadMs)} ms cold (download, wasm compile, llama.cpp start), ${round(r.warmLoadMs)} ms from Cache Storage`,
    `Hanoi3Disk first prompt (${r.promptTokens} tokens): prompt ${round(r.promptTokensPerSecond)} tokens/s, generation ${round(r.tokensPerSecond)} tokens/s (median of ${options.replies ?? 5}, ${options.maxTokens ?? 128} tokens each, ${r.threads} thread${r.threads === 1 ? '' : 's'}, CPU only)`,
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log('wllama engine (llama.cpp in WebAssembly, headless Chromium):');
  for (const line of await benchWllama()) console.log(`  ${line}`);
}
