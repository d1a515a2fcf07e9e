import { expect, test } from '@playwright/test';
import { storedSteps, waitForStoredSteps } from './helpers.ts';

test('MESSENGER L1: a person plays to the end by keyboard (arrows, and "." to wait), every step recorded', async ({ page }) => {
  await page.goto('/#/play/messenger/messenger-l1?seed=3');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 4/);
  // The manual the person reads is the episode's own, drawn from the seed, as a model would get it.
  await expect(page.getByTestId('text-view')).toContainText('In the game, MESSENGER, each entity can take on one of three roles');
  await page.getByRole('button', { name: 'Visual view' }).click();
  await expect(page.getByTestId('messenger-grid')).toBeVisible();
  // Entities are drawn icons, not emoji (a machine without an emoji font showed empty boxes): the grid's text is plain.
  const grid = page.getByTestId('messenger-grid');
  await expect(grid.locator('[data-entity] svg[data-icon]').first()).toBeVisible();
  expect(await grid.locator('[data-entity] svg[data-icon]').count()).toBe(await grid.locator('[data-entity]').count());
  expect((await grid.textContent()) ?? '').toMatch(/^[\x20-\x7e\s·−]*$/);
  // Space, which people press to scroll, does not take a step.
  await page.keyboard.press(' ');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.keyboard.press('.');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  const keys = ['ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight'];
  for (let i = 0; i < keys.length && !(await page.getByTestId('outcome').isVisible()); i++) {
    const before = Number(((await page.getByTestId('step-count').textContent()) ?? '0').split(' ')[0]);
    await page.keyboard.press(keys[i]);
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${before + 1} /`));
  }
  await expect(page.getByTestId('outcome')).toBeVisible();
  const played = Number(((await page.getByTestId('step-count').textContent()) ?? '0').split(' ')[0]);
  await waitForStoredSteps(page, played);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps[0].action).toBe('Do Nothing');
  expect(steps.every((s) => s.view === 'visual')).toBe(true);
});
