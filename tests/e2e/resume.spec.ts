import { expect, test } from '@playwright/test';
import { HANOI3_SOLUTION, act, startTask, storedSteps, waitForStoredSteps } from './helpers.ts';

test('reloading mid-episode offers to resume it, and it resumes with no step lost', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 11);
  for (const [i, action] of HANOI3_SOLUTION.slice(0, 3).entries()) await act(page, action, i + 1);
  await waitForStoredSteps(page, 3);
  const before = await page.getByTestId('text-view').textContent();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Resume this episode?' })).toBeVisible();
  await expect(page.getByText('was interrupted after 3 step(s)')).toBeVisible();
  await page.getByRole('button', { name: 'Resume episode' }).click();

  await expect(page.getByTestId('step-count')).toHaveText(/^3 \/ 30/);
  await expect(page.getByTestId('score')).toHaveText('0 / 3');
  expect(await page.getByTestId('text-view').textContent()).toBe(before);

  for (const [i, action] of HANOI3_SOLUTION.slice(3).entries()) await act(page, action, i + 4);
  await expect(page.getByTestId('outcome')).toContainText('Solved!');

  await waitForStoredSteps(page, 7);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(new Set(steps.map((s) => s.episodeId)).size).toBe(1);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION);

  await page.goto('/#/episodes');
  const rows = page.getByTestId('episode-list').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Complete');
});

test('the catalogue lists an interrupted episode and resumes it from there', async ({ page }) => {
  await startTask(page, 'RockPaperScissorBasic-v0', 5);
  await page.getByRole('button', { name: 'Paper', exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await waitForStoredSteps(page, 1);

  await page.goto('/');
  await page.reload();
  const banner = page.getByRole('complementary', { name: 'Unfinished episodes' });
  await expect(banner).toContainText('rps-basic');
  await banner.getByRole('link', { name: 'Resume it' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \/ 50/);
  await page.getByRole('button', { name: 'Rock', exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \/ 50/);
  await waitForStoredSteps(page, 2);
});
