/**
 * The wllama engine for real in Chromium: the adapter (runtime/models/wllama.ts), built by
 * vite with the project's config on a small test page, loads the project-made tiny GGUF
 * (scripts/make-tiny-gguf.ts) from a URL, from a picked file and from Cache Storage,
 * and generates with llama.cpp in WebAssembly on the CPU. The replies are nonsense;
 * what is tested is the path: loading, greedy determinism, seeded sampling, streaming,
 * cancelling, the context limit, and the measurements each reply carries.
 */
import { expect, test, type Page } from '@playwright/test';
import { serveWllamaPage, type WllamaPageServer } from '../../scripts/wllama-page.ts';
import type { WllamaPageApi } from '../../scripts/wllama-page/main.ts';
import { statSync } from 'node:fs';
import { makeTinyGguf } from '../../scripts/make-tiny-gguf.ts';

declare global {
  interface Window {
    wllamaPage: WllamaPageApi;
  }
}

let server: WllamaPageServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveWllamaPage();
});

test.afterAll(async () => {
  await server?.close();
});

test.describe.configure({ timeout: 90_000 });

async function openPage(page: Page): Promise<void> {
  page.on('pageerror', (err) => console.log(`page error: ${err.message}`));
  await page.goto(server.url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

const MESSAGES = [
  { role: 'system' as const, content: 'You are playing Tower of Hanoi.' },
  { role: 'system' as const, content: 'Rods are A, B and C.' },
  { role: 'user' as const, content: 'Choose the next move.' },
];

test('loads the tiny GGUF from a URL with progress and replies the same twice with greedy sampling', async ({ page }) => {
  await openPage(page);
  const out = await page.evaluate(
    async ({ url, messages }) => {
      const progress: [number, string][] = [];
      const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url }, onProgress: (f, t) => progress.push([f, t]) });
      const first = await client.complete({ messages, temperature: 0, maxTokens: 24 });
      const second = await client.complete({ messages, temperature: 0, maxTokens: 24 });
      await client.unload();
      return { progress, info: client.info, first, second, isolated: crossOriginIsolated };
    },
    { url: server.modelUrl, messages: MESSAGES },
  );
  const fractions = out.progress.map(([f]) => f);
  expect(fractions[fractions.length - 1]).toBe(1);
  expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  expect(out.progress.some(([, t]) => t.startsWith('Downloading tiny.gguf'))).toBe(true);
  expect(out.info).toBeNull(); // unloaded
  expect(out.isolated).toBe(true);

  expect(out.first.text.length).toBeGreaterThan(0);
  expect(out.second.text).toBe(out.first.text);
  expect(out.first.finishReason).toBe('length');
  expect(out.first.usage).toEqual({ promptTokens: expect.any(Number), completionTokens: 24 });
  expect(out.first.usage!.promptTokens).toBeGreaterThan(10);
  expect(out.first.stats.completionTokens).toBe(24);
  expect(out.first.tokensPerSecond).toBeGreaterThan(0);
  expect(out.first.latencyMs).toBeGreaterThan(0);
  console.log(`tiny model greedy reply: ${JSON.stringify(out.first.text)}; ${out.second.tokensPerSecond.toFixed(0)} tokens/s`);
});

test('a second load of the same URL comes from Cache Storage, without the network', async ({ page }) => {
  await openPage(page);
  await page.evaluate(async (url) => {
    const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url } });
    await client.load();
    await client.unload();
  }, server.modelUrl);
  let requests = 0;
  await page.route('**/models/tiny.gguf', (route) => {
    requests++;
    return route.abort();
  });
  const out = await page.evaluate(async (url) => {
    const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url } });
    const reply = await client.complete({ messages: [{ role: 'user', content: 'Hello' }], temperature: 0, maxTokens: 8 });
    const info = client.info;
    await client.unload();
    return { info, reply: reply.text, cached: await window.wllamaPage.listCachedModels() };
  }, server.modelUrl);
  expect(requests).toBe(0);
  expect(out.info).toMatchObject({ file: 'tiny.gguf', bytes: statSync(server.modelPath).size, source: 'url', fromCache: true, chatTemplate: 'model' });
  expect(out.reply.length).toBeGreaterThan(0);
  expect(out.cached).toContainEqual(expect.objectContaining({ key: server.modelUrl, name: 'tiny.gguf', bytes: statSync(server.modelPath).size, source: 'url' }));
});

test('a picked file loads, is kept in the cache, and loads again from there with the same reply', async ({ page }) => {
  await openPage(page);
  await page.locator('#gguf').setInputFiles(server.modelPath);
  const out = await page.evaluate(async (messages) => {
    const file = (document.querySelector('#gguf') as HTMLInputElement).files![0];
    const picked = window.wllamaPage.createWllamaClient({ source: { kind: 'file', file } });
    const fromFile = await picked.complete({ messages, temperature: 0, maxTokens: 16 });
    const pickedInfo = picked.info;
    await picked.unload();
    const entry = (await window.wllamaPage.listCachedModels()).find((m) => m.source === 'file');
    if (!entry) return { error: 'no cached file' };
    const again = window.wllamaPage.createWllamaClient({ source: { kind: 'cache', key: entry.key, name: entry.name } });
    const fromCache = await again.complete({ messages, temperature: 0, maxTokens: 16 });
    const againInfo = again.info;
    await again.unload();
    const deleted = await window.wllamaPage.deleteCachedModel(entry.key);
    const gone = window.wllamaPage.createWllamaClient({ source: { kind: 'cache', key: entry.key } });
    const error = await gone.load().then(
      () => null,
      (e) => ({ kind: e.kind as string, message: String(e.message) }),
    );
    return { model: picked.model, pickedInfo, entry, fromFile: fromFile.text, againInfo, fromCache: fromCache.text, deleted, error };
  }, MESSAGES);
  expect(out.error).toMatchObject({ kind: 'load', message: expect.stringContaining('no longer in the browser') });
  expect(out.model).toBe('tiny.gguf');
  expect(out.pickedInfo).toMatchObject({ file: 'tiny.gguf', source: 'file', fromCache: false });
  expect(out.entry).toMatchObject({ name: 'tiny.gguf', bytes: statSync(server.modelPath).size, source: 'file' });
  expect(out.againInfo).toMatchObject({ source: 'cache', fromCache: true });
  expect(out.fromCache).toBe(out.fromFile);
  expect(out.deleted).toBe(true);
});

test('streams pieces that add up to the reply; temperature sampling is reproducible with a seed', async ({ page }) => {
  await openPage(page);
  const out = await page.evaluate(
    async ({ url, messages }) => {
      const pieces: string[] = [];
      const greedy = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url }, stream: true });
      const streamed = await greedy.complete({ messages, temperature: 0, maxTokens: 20, onDelta: (d) => pieces.push(d) });
      const wholeOnce: string[] = [];
      const unstreamed = await greedy.complete({ messages, temperature: 0, maxTokens: 20, stream: false, onDelta: (d) => wholeOnce.push(d) });
      await greedy.unload();
      const sampled: string[] = [];
      for (let i = 0; i < 2; i++) {
        const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url }, seed: 7 });
        sampled.push((await client.complete({ messages, temperature: 1.5, maxTokens: 20 })).text);
        await client.unload();
      }
      return { pieces, streamed: streamed.text, wholeOnce, unstreamed: unstreamed.text, sampled };
    },
    { url: server.modelUrl, messages: MESSAGES },
  );
  expect(out.pieces.length).toBeGreaterThan(1);
  expect(out.pieces.join('')).toBe(out.streamed);
  expect(out.wholeOnce).toEqual([out.unstreamed]);
  expect(out.unstreamed).toBe(out.streamed);
  expect(out.sampled[1]).toBe(out.sampled[0]);
  expect(out.sampled[0]).not.toBe(out.streamed);
});

test('cancelling: a download, a reply in progress; the engine still answers afterwards', async ({ page }) => {
  await openPage(page);
  await page.route('**/slow/tiny.gguf', async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.fulfill({ path: server.modelPath }).catch(() => undefined);
  });
  const out = await page.evaluate(
    async ({ url, slowUrl }) => {
      const download = new AbortController();
      const slow = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url: slowUrl } });
      const loading = slow.load({ signal: download.signal }).then(
        () => 'loaded',
        (e) => e.kind as string,
      );
      setTimeout(() => download.abort(), 200);
      const downloadResult = await loading;

      const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url } });
      await client.load();
      const stop = new AbortController();
      let seen = 0;
      const reply = await client
        .complete({ messages: [{ role: 'user', content: 'Go' }], temperature: 0, maxTokens: 4000, stream: true, signal: stop.signal, onDelta: () => ++seen === 3 && stop.abort() })
        .then(
          (r) => `finished with ${r.usage?.completionTokens} tokens`,
          (e) => e.kind as string,
        );
      const after = await client.complete({ messages: [{ role: 'user', content: 'Go' }], temperature: 0, maxTokens: 5 });
      await client.unload();
      return { downloadResult, reply, seen, after: after.usage?.completionTokens };
    },
    { url: server.modelUrl, slowUrl: new URL('slow/tiny.gguf', server.url).href },
  );
  expect(out.downloadResult).toBe('aborted');
  expect(out.reply).toBe('aborted');
  expect(out.seen).toBeLessThan(100);
  expect(out.after).toBe(5);
});

test('a prompt longer than the context is a context-limit error', async ({ page }) => {
  await openPage(page);
  const out = await page.evaluate(async (url) => {
    const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url }, contextSize: 128 });
    const error = await client.complete({ messages: [{ role: 'user', content: 'Move the top disk. '.repeat(100) }], temperature: 0, maxTokens: 8 }).then(
      () => null,
      (e) => ({ kind: e.kind as string, message: String(e.message) }),
    );
    const short = await client.complete({ messages: [{ role: 'user', content: 'Hi' }], temperature: 0, maxTokens: 4 });
    await client.unload();
    return { error, short: short.usage?.completionTokens };
  }, server.modelUrl);
  console.log(`context-limit error: ${out.error?.message}`);
  expect(out.error?.kind).toBe('context-limit');
  expect(out.short).toBe(4);
});

test("a model without a chat template gets llama.cpp's ChatML, the same prompt as the template in the tiny model", async ({ page }) => {
  await openPage(page);
  await page.route('**/models/tiny-no-template.gguf', (route) => route.fulfill({ body: Buffer.from(makeTinyGguf(undefined, { chatTemplate: null })) }));
  const out = await page.evaluate(
    async ({ url, bare, messages }) => {
      const run = async (u: string) => {
        const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url: u }, cacheStorage: null });
        const r = await client.complete({ messages, temperature: 0, maxTokens: 12 });
        const info = client.info;
        await client.unload();
        return { text: r.text, promptTokens: r.usage?.promptTokens, template: info?.chatTemplate };
      };
      return { withTemplate: await run(url), without: await run(bare) };
    },
    { url: server.modelUrl, bare: new URL('models/tiny-no-template.gguf', server.url).href, messages: MESSAGES },
  );
  expect(out.withTemplate.template).toBe('model');
  expect(out.without.template).toBe('chatml');
  expect(out.without.promptTokens).toBe(out.withTemplate.promptTokens);
  expect(out.without.text).toBe(out.withTemplate.text);
});

test('the model driver plays three Hanoi steps with the engine, the same way twice, recording engine, model and tokens', async ({ page }) => {
  await openPage(page);
  const out = await page.evaluate(async (url) => {
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const client = window.wllamaPage.createWllamaClient({ source: { kind: 'url', url } });
      const run = await window.wllamaPage.playTask(client, 'hanoi', 'hanoi-3', 3, { temperature: 0, maxTokens: 24 });
      runs.push({ ...run, info: client.info, lastStats: client.lastStats });
      await client.unload();
    }
    return runs;
  }, server.modelUrl);
  const [a, b] = out;
  expect(a.stop).toBe('step-budget');
  expect(a.history).toHaveLength(3);
  expect(a.driver).toMatchObject({ kind: 'model', name: 'tiny.gguf', engine: 'wllama', endpointHost: 'in-browser', protocol: 'smartplay', params: { temperature: 0, maxTokens: 24 } });
  expect(a.info).toMatchObject({ file: 'tiny.gguf', source: 'url' });
  for (const step of a.history) {
    const turn = step.model!;
    expect(step.actor).toEqual({ kind: 'model', name: 'tiny.gguf' });
    expect(turn.model).toBe('tiny.gguf');
    expect(turn.calls).toHaveLength(2); // SmartPlay's two calls
    expect(turn.tokens!.completion).toBe(48);
    expect(turn.tokens!.prompt).toBeGreaterThan(500);
    expect(step.action).toBe(turn.calls[1].reply); // the reply is the action text (SmartPlay matches it to a move)
    expect(turn.reply).toBe(turn.calls[1].reply);
    for (const call of turn.calls) expect(call.tokensPerSecond).toBeGreaterThan(0); // recorded per call
  }
  expect(a.lastStats!.tokensPerSecond).toBeGreaterThan(0);
  const replies = (run: typeof a) => run.history.map((h) => [h.action, h.model!.calls.map((c) => c.reply)]);
  expect(replies(b)).toEqual(replies(a));
  console.log(`Hanoi with the tiny model, replies: ${a.history.map((h) => JSON.stringify(h.action)).join(', ')}; last reply ${a.lastStats!.tokensPerSecond.toFixed(0)} tokens/s`);
});
