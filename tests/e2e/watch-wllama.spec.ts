/**
 * The wllama engine in the real app's Watch view: the project-made tiny GGUF
 * (scripts/make-tiny-gguf.ts) is served at a same-origin URL, loaded with a progress bar,
 * plays Hanoi step by step with llama.cpp in WebAssembly, and the stored episode says the
 * engine, the model file and tokens/s. The model is kept in Cache Storage, so a reload
 * plays it with the network cut; a slow download can be cancelled. Replies are nonsense:
 * the test proves the path, not the play.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { screens } from './helpers.ts';
import { ensureTinyGguf } from '../../scripts/make-tiny-gguf.ts';

const MODEL_PATH = ensureTinyGguf();


const stepCount = async (page: Page) => Number(((await page.getByTestId('step-count').textContent()) ?? '0').split('/')[0]);

/** The tiny model at /models/tiny.gguf of the app's own origin (served by the test, with a length). */
async function serveModel(page: Page, delayMs = 0): Promise<() => number> {
  let requests = 0;
  await page.route('**/models/tiny.gguf', async (route) => {
    requests++;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await route.fulfill({ path: MODEL_PATH, headers: { 'content-type': 'application/octet-stream' } }).catch(() => undefined);
  });
  return () => requests;
}

async function chooseWllama(page: Page): Promise<void> {
  await page.goto('/#/watch/hanoi/hanoi-3?seed=0');
  await page.getByLabel('A GGUF model running in this browser on the CPU (wllama, any browser)').check();
  await page.getByLabel('Max tokens').fill('16');
  await page.getByLabel('Temperature').fill('0');
}

test('wllama in Watch: loads the tiny GGUF from a URL, plays three Hanoi steps, and the episode records engine, model file and tokens/s; the model is then kept in the browser', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const requests = await serveModel(page);
  await chooseWllama(page);
  await page.getByLabel('From a URL').check();
  await page.getByLabel('Model URL').fill('/models/tiny.gguf');
  await screens(page, 'watch-wllama-settings');

  await page.getByRole('button', { name: 'Start' }).click();
  // The run starts once the model is loaded; pause at once and take the next steps one at a time.
  await page.getByRole('button', { name: 'Pause' }).click({ timeout: 60_000 });
  await expect(page.getByTestId('engine-loaded')).toContainText(/^tiny\.gguf \(0\.\d\d MB\) loaded in \d+\.\d s, downloaded \(now kept in this browser\); \d+ CPU threads?$/);
  expect(requests()).toBe(1);
  while ((await stepCount(page)) < 3) {
    const before = await stepCount(page);
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => stepCount(page), { timeout: 20_000 }).toBeGreaterThan(before);
  }
  // A step already in flight when Pause was pressed may add one more: at least three were played.
  expect(await stepCount(page)).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('tokens-per-second')).toHaveText(/^\d+\.\d tokens\/s$/);
  await screens(page, 'watch-wllama-playing');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('driver-status')).toContainText('Stopped');

  await page.goto('/#/episodes');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all' }).click();
  const text = await readFile(await (await downloading).path(), 'utf8');
  const episode = JSON.parse(text.trim());
  expect(episode.header.driver).toMatchObject({ kind: 'model', name: 'tiny.gguf', engine: 'wllama', endpointHost: 'in-browser', protocol: 'smartplay', params: { temperature: 0, maxTokens: 16 } });
  expect(episode.steps.length).toBeGreaterThanOrEqual(3);
  for (const step of episode.steps) {
    expect(step.actor).toEqual({ kind: 'model', name: 'tiny.gguf' });
    expect(step.model.model).toBe('tiny.gguf');
    expect(step.model.calls).toHaveLength(2); // SmartPlay's two questions
    for (const call of step.model.calls) expect(call.tokensPerSecond).toBeGreaterThan(0);
    expect(step.action).toBe(step.model.reply); // the reply became the action
  }

  // Next time: the model kept in this browser plays with the network cut.
  await page.unroute('**/models/tiny.gguf');
  await page.route('**/models/tiny.gguf', (route) => route.abort());
  await chooseWllama(page);
  await page.getByLabel('Kept in this browser').check();
  await expect(page.getByLabel('Stored model')).toContainText('tiny.gguf');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Pause' }).click({ timeout: 60_000 });
  await expect(page.getByTestId('engine-loaded')).toContainText('from this browser’s model cache');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => stepCount(page), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('a slow model download shows its progress and can be cancelled; a picked file then loads', async ({ page }) => {
  test.setTimeout(90_000);
  await serveModel(page, 4000);
  await chooseWllama(page);
  await page.getByLabel('Model URL').fill('/models/tiny.gguf');
  await page.getByRole('button', { name: 'Start' }).click();
  const loading = page.getByTestId('model-loading');
  await expect(loading).toContainText('Preparing tiny.gguf');
  await expect(loading.getByRole('progressbar')).toBeVisible();
  await screens(page, 'watch-wllama-loading');
  await page.getByRole('button', { name: 'Cancel loading' }).click();
  await expect(page.getByRole('alert')).toHaveText('The model load was cancelled.');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

  await page.getByLabel('A file on this computer').check();
  await page.getByLabel('Model file').setInputFiles(MODEL_PATH);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Pause' }).click({ timeout: 60_000 });
  await expect(page.getByTestId('engine-loaded')).toContainText('from the picked file');
  await page.getByRole('button', { name: 'Stop' }).click();
});
