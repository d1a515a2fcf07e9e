import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { HANOI3_SOLUTION, storedSteps, waitForStoredSteps } from './helpers.ts';

test('the oracle policy plays Hanoi3Disk to the end while a person watches', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Seed', { exact: true }).fill('3');
  await page.getByRole('link', { name: 'Watch a driver play Hanoi3Disk-v0' }).click();
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  await page.getByLabel('Pause between actions (ms)').fill('0');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await expect(page.getByTestId('score')).toHaveText('3 / 3');
  await waitForStoredSteps(page, 7);
  expect((await storedSteps(page)).sort((a, b) => a.t - b.t).map((s) => s.action)).toEqual(HANOI3_SOLUTION);
});

const MODEL_PORT = Number(process.env.E2E_MODEL_PORT ?? 5999);
const MODEL_URL = `http://127.0.0.1:${MODEL_PORT}/v1`;

async function startModel(page: import('@playwright/test').Page, model: string, key = ''): Promise<void> {
  await page.goto('/#/watch/hanoi/hanoi-3?seed=4');
  await page.getByLabel('A model behind an OpenAI-compatible endpoint').check();
  await page.getByLabel('Base URL').fill(MODEL_URL);
  await page.getByLabel('Model', { exact: true }).fill(model);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Start' }).click();
}

test('a model behind the local OpenAI-compatible server plays Hanoi through the SmartPlay protocol, streamed; the key is never recorded', async ({ page }) => {
  const KEY = 'sk-e2e-SECRET-KEY';
  const auth: string[] = [];
  page.on('request', (r) => r.url().startsWith(MODEL_URL) && r.method() === 'POST' && auth.push(r.headers()['authorization'] ?? ''));
  await startModel(page, 'hanoi-solver', KEY);

  await expect(page.getByTestId('outcome')).toContainText('Solved!', { timeout: 20_000 });
  await expect(page.getByTestId('live-reply')).toContainText('The best action: Move the top disk of rod A to the top of rod C');
  expect(auth.length).toBe(14); // two questions per step
  expect(auth.every((a) => a === `Bearer ${KEY}`)).toBe(true);

  await page.goto('/#/episodes');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all' }).click();
  const text = await readFile(await (await downloading).path(), 'utf8');
  expect(text).not.toContain(KEY);
  const episode = JSON.parse(text.trim());
  expect(episode.header.driver).toMatchObject({ kind: 'model', name: 'hanoi-solver', endpointHost: `127.0.0.1:${MODEL_PORT}`, engine: 'openai', protocol: 'smartplay' });
  expect(episode.steps.map((s: { action: string }) => s.action.replace('The best action: ', ''))).toEqual(HANOI3_SOLUTION);
  expect(episode.header.actors).toEqual([{ kind: 'model', name: 'hanoi-solver' }]);
  expect(episode.steps[0].actor).toEqual({ kind: 'model', name: 'hanoi-solver' });
  expect(episode.steps[0].model.calls[1].reply).toBe(`The best action: ${HANOI3_SOLUTION[0]}`);
  expect(episode.steps[0].model.calls[1].messages.at(-1).content).toBe('Choose the best executable action from the list of all actions. Write the exact chosen action.');
  expect(episode.steps[0].model.latencyMs).toBeGreaterThan(0);
  expect(episode.steps[0].model.tokens.prompt).toBeGreaterThan(0);
});

test('a rate-limited endpoint (429, Retry-After) is retried and the episode carries on', async ({ page }) => {
  await startModel(page, 'rate-limit-once');
  await expect(page.getByTestId('outcome')).toContainText('Solved!', { timeout: 40_000 });
});

test('a model whose context overflows ends the episode as Context Limit Exceeded', async ({ page }) => {
  await startModel(page, 'context-limit');
  await expect(page.getByTestId('outcome')).toContainText('Context Limit Exceeded');
});

test('a failing model endpoint gives a clear message and a retry; nothing was played, so nothing is stored', async ({ page }) => {
  await startModel(page, 'malformed');
  await expect(page.getByRole('alert')).toContainText('(bad-response)');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await expect(page.getByTestId('driver-status')).toContainText('failed');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change settings' })).toBeVisible();
  await page.goto('/#/episodes');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
});

test('a watched run can be paused, stepped one action at a time, and resumed', async ({ page }) => {
  await page.goto('/#/watch/hanoi/hanoi-3?seed=1');
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  // A long pause between actions, so the Pause click lands before the second action even on a loaded machine.
  await page.getByLabel('Pause between actions (ms)').fill('1500');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForTimeout(1500);
  const count = async () => Number(((await page.getByTestId('step-count').textContent()) ?? '0').split('/')[0]);
  const paused = await count();
  expect(paused).toBeLessThanOrEqual(1);
  await page.waitForTimeout(800);
  expect(await count()).toBe(paused);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${paused + 1} /`));
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!', { timeout: 20_000 });
});

test('batch mode: 20 Bandits episodes by the random driver, with progress and a summary', async ({ page }) => {
  await page.goto('/#/watch/bandits/bandits-highlow?seed=500');
  await page.getByLabel('Random policy (uniform over valid actions)').check();
  // SmartPlay's protocol plays Bandits 20 times: the page offers exactly that.
  await page.getByRole('button', { name: 'Use 20 episodes' }).click();
  await expect(page.getByLabel('Episodes (seeds 500 onwards)')).toHaveValue('20');
  await page.getByLabel('Pause between actions (ms)').fill('0');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('batch-progress')).toHaveAttribute('value', '20', { timeout: 60_000 });
  // Bandits defines no success: the summary gives SmartPlay's own figures, not "success 0/20".
  await expect(page.getByTestId('batch-summary')).toContainText(/20 episode\(s\): mean score \d+\.\d\d/);
  await expect(page.getByTestId('batch-summary')).not.toContainText('success');
  await expect(page.getByTestId('batch-metric').first()).toContainText('BanditTwoArmedHighLowFixed-v0');
  await page.goto('/#/episodes');
  await expect(page.getByTestId('episode-list').locator('tbody tr')).toHaveCount(20);
});
