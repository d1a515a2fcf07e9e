/**
 * Watch's batch over a whole task set in the real app: the oracle plays every Hanoi game
 * three seeds each with three episodes in flight; the page shows progress, pause holds
 * every episode and resume finishes them; each episode is stored once and the scores view
 * counts them. Screenshots of the settings and the batch go to test-results/screens/.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { screens } from './helpers.ts';



async function exportAll(page: Page): Promise<{ header: { task: string; seed: number; driver: { kind: string }; outcome?: { success: boolean | null } }; steps: unknown[] }[]> {
  await page.goto('/#/episodes');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all' }).click();
  const text = await readFile(await (await downloading).path(), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

test('a batch over every Hanoi game (3 seeds each, 3 at once) shows progress, pauses and resumes, stores each episode once, and Scores counts them', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/watch/hanoi/hanoi-3?seed=10');
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  await page.getByLabel('A whole task set, as a batch (several episodes at once)').check();
  await expect(page.getByRole('combobox', { name: 'Task set' })).toHaveValue('all');
  await page.getByLabel('Seeds per game (from 10)').fill('3');
  await page.getByLabel('Episodes at once', { exact: true }).fill('3');
  await page.getByLabel('Pause between actions (ms)').fill('150');
  await expect(page.getByTestId('set-plan')).toHaveText('6 episodes: 2 tasks × their seeds (SmartPlay repeats each game).');
  await screens(page, 'watch-batch-settings');

  await page.getByRole('button', { name: 'Start' }).click();
  const status = page.getByTestId('batch-status');
  await expect(status).toContainText('running');
  await expect(page.getByTestId('batch-running').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('batch-running').locator('li').first()).toContainText(/step [1-9]/);

  // Pause: nothing moves (no episode ends, no step is taken) until Resume.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status).toContainText('paused');
  await page.waitForTimeout(500); // an action already past the gate (in its 150 ms pacing) may still land
  const frozen = await page.getByTestId('batch-running').textContent();
  const ended = await page.getByTestId('batch-progress').getAttribute('value');
  await page.waitForTimeout(1200);
  expect(await page.getByTestId('batch-running').textContent()).toBe(frozen);
  expect(await page.getByTestId('batch-progress').getAttribute('value')).toBe(ended);
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible(); // the label says the state (no aria-pressed: a screen reader would read "Resume, pressed")
  await screens(page, 'watch-batch-paused');

  await page.getByRole('button', { name: 'Resume' }).focus();
  await page.keyboard.press('Enter'); // keyboard works as well as the mouse
  await expect(status).toContainText('6 / 6 · finished', { timeout: 60_000 });
  await expect(status).toContainText('0 errors');
  await expect(status).toContainText(/episodes\/min/);
  await expect(page.getByTestId('batch-episodes').locator('tbody tr')).toHaveCount(6);
  await expect(page.getByTestId('batch-metric').first()).toContainText('Hanoi3Disk-v0 · oracle');
  await screens(page, 'watch-batch-done');

  const records = await exportAll(page);
  expect(records).toHaveLength(6);
  const played = records.map((r) => `${r.header.task}/${r.header.seed}`).sort();
  expect(played).toEqual(['hanoi-3/10', 'hanoi-3/11', 'hanoi-3/12', 'hanoi-4/10', 'hanoi-4/11', 'hanoi-4/12']);
  for (const r of records) {
    expect(r.header.driver.kind).toBe('oracle');
    expect(r.header.outcome?.success).toBe(true);
  }
  expect(records.filter((r) => r.header.task === 'hanoi-4').every((r) => r.steps.length === 15)).toBe(true);

  await page.goto('/#/scores');
  await expect(page.getByTestId('scores-summary')).toContainText('6 episode(s) scored of 6 chosen');
  await expect(page.getByRole('group', { name: 'Groups shown' })).toContainText('oracle');
});

test('stop leaves the episodes in flight unfinished and starts no more; each can be carried on, and those not finished played again as a new batch', async ({ page }) => {
  await page.goto('/#/watch/hanoi/hanoi-3?seed=0');
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  await page.getByLabel('A whole task set, as a batch (several episodes at once)').check();
  await page.getByLabel('Seeds per game (from 0)').fill('5');
  await page.getByLabel('Episodes at once', { exact: true }).fill('2');
  await page.getByLabel('Pause between actions (ms)').fill('1000');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('batch-running').locator('li').first()).toContainText(/step [1-3]$/);
  await page.getByRole('button', { name: 'Stop' }).click();
  const status = page.getByTestId('batch-status');
  await expect(status).toContainText('stopped');
  await expect(status).toContainText('2 left unfinished');
  await expect(status).toContainText('0 / 10');
  await expect(page.getByTestId('batch-episodes').getByRole('link', { name: 'carry on' })).toHaveCount(2);
  // They can be played again as a new batch (the unfinished ones stay stored, unscored).
  await page.getByRole('button', { name: 'Play the 10 not finished again' }).click();
  await expect(status).toContainText('0 / 10 · running');
  await expect(page.getByTestId('batch-running').locator('li').first()).toContainText(/step [1-3]$/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status).toContainText('2 left unfinished');
  const records = await exportAll(page);
  expect(records).toHaveLength(4);
  expect(records.every((r) => r.header.outcome === undefined)).toBe(true);
});
