/**
 * Crafter played by a person with the keyboard: on seed 244 trees stand near the start, so a few
 * keys collect wood (Space), place a table (T) and make a wooden pickaxe (J). The board shows the
 * achievements as they unlock, every step is recorded with upstream's info (the 22 achievements,
 * the inventory). The board and the first action control fit the first screen at 1280×800 and
 * 390×844, light and dark (screenshots in test-results/screens/crafter-*.png). Reloading mid-episode
 * resumes it; the oracle's long episode (from the CLI) replays at any step, by night darker.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { axe, screens, storedSteps, waitForStoredSteps } from './helpers.ts';

const KEYS = ['ArrowRight', 'ArrowRight', ' ', 'd', ' ', 'w', ' ', 't', 'j'];
const ACTIONS = ['Move East', 'Move East', 'Do', 'Move East', 'Do', 'Move North', 'Do', 'Place Table', 'Make Wood Pickaxe'];

async function stepCount(page: Page): Promise<number> {
  return Number(((await page.getByTestId('step-count').textContent()) ?? '0').split(' ')[0]);
}

/** The element's box lies within the viewport's first screen. */
async function onFirstScreen(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).first().boundingBox();
  const size = page.viewportSize()!;
  expect(box, testId).not.toBeNull();
  expect(box!.x, testId).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, testId).toBeLessThanOrEqual(size.width + 1);
  expect(box!.y + box!.height, `${testId} at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
}

test('Crafter: a person collects wood, places a table and makes a wooden pickaxe by keyboard; achievements show and are recorded', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/#/play/crafter/crafter?seed=244');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 10000/);
  // What the model gets: SmartPlay's manual and text.
  await expect(page.getByTestId('text-view')).toContainText('Write all information helpful for the game in a numbered list.');
  await expect(page.getByTestId('text-view')).toContainText('You face grass at your front.');
  await page.getByRole('button', { name: 'Visual view' }).click();
  await expect(page.getByTestId('crafter-board')).toBeVisible();
  await expect(page.getByTestId('crafter-achievement-count')).toHaveText('0');
  await screens(page, 'crafter-start');

  // First screen, before playing: the board and the first action control, desktop and phone.
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await onFirstScreen(page, 'crafter-view');
    await expect(page.getByRole('button', { name: 'Noop', exact: true })).toBeInViewport();
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Tab moves the focus, it is no action.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.locator('body').click({ position: { x: 2, y: 2 } });

  for (let i = 0; i < KEYS.length; i++) {
    await page.keyboard.press(KEYS[i]);
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
    if (i === 2) await expect(page.locator('[data-achievement="collect_wood"]')).toBeVisible();
  }
  await expect(page.getByTestId('crafter-achievement-count')).toHaveText('3');
  for (const a of ['collect_wood', 'place_table', 'make_wood_pickaxe']) await expect(page.locator(`[data-achievement="${a}"]`)).toBeVisible();
  await expect(page.locator('[data-item="wood_pickaxe"]')).toBeVisible();
  await expect(page.getByTestId('crafter-last')).toContainText('unlocked make wood pickaxe');

  await waitForStoredSteps(page, KEYS.length);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t) as unknown as { action: string; info: { achievements: Record<string, number>; inventory: Record<string, number> } }[];
  expect(steps.map((s) => s.action)).toEqual(ACTIONS);
  const last = steps.at(-1)!.info;
  expect(Object.keys(last.achievements)).toHaveLength(22);
  expect(last.achievements).toMatchObject({ collect_wood: 3, place_table: 1, make_wood_pickaxe: 1 });
  expect(last.inventory.wood_pickaxe).toBe(1);

  // Light and dark, desktop and phone, after the pickaxe.
  await screens(page, 'crafter-light');
  await axe(page, 'crafter visual view, light');
  await page.setViewportSize({ width: 390, height: 844 });
  await onFirstScreen(page, 'crafter-view');
  await page.emulateMedia({ colorScheme: 'dark' });
  await onFirstScreen(page, 'crafter-view');
  await screens(page, 'crafter-dark');
  await axe(page, 'crafter visual view, dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('Crafter: reloading mid-episode resumes it with the board as it was', async ({ page }) => {
  await page.goto('/#/play/crafter/crafter?seed=244');
  await page.getByRole('button', { name: 'Visual view' }).click();
  // The key legend (?) lists Crafter's keys.
  await page.keyboard.press('?');
  await expect(page.getByTestId('key-legend')).toContainText('make wood / stone / iron pickaxe');
  await expect(page.getByTestId('key-legend')).toContainText('Space');
  await page.keyboard.press('?');
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press(KEYS[i]);
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
  await waitForStoredSteps(page, 3);
  await page.reload();
  await page.getByRole('button', { name: 'Resume episode' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^3 \/ 10000/);
  await page.getByRole('button', { name: 'Visual view' }).click();
  await expect(page.locator('[data-achievement="collect_wood"]')).toBeVisible();
  await expect(page.locator('[data-item="wood"]')).toContainText('1');
  for (let i = 3; i < KEYS.length; i++) {
    await page.keyboard.press(KEYS[i]);
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
  await expect(page.getByTestId('crafter-achievement-count')).toHaveText('3');
});

test('Crafter: the oracle\'s long episode replays at any step; the board is darker by night', async ({ page }) => {
  const root = process.cwd();
  const out = join(root, 'test-results', 'crafter-e2e', 'oracle.jsonl');
  mkdirSync(join(root, 'test-results', 'crafter-e2e'), { recursive: true });
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'run', '--env', 'crafter', '--task', 'crafter', '--seed', '0', '--agent', 'oracle', '--out', out], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const episode = JSON.parse(readFileSync(out, 'utf8').trim());
  episode.header.id = 'crafter-oracle';
  for (const s of episode.steps) s.episodeId = 'crafter-oracle';
  const total = episode.steps.length;
  expect(total).toBeGreaterThan(300);

  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'crafter.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(JSON.stringify(episode) + '\n') });
  await expect(page.getByRole('status')).toContainText('Imported 1 episode(s)');

  // Step 240 is night (crafter's daylight under one half from about step 180 to 270 of each 300).
  await page.goto('/#/replay/crafter-oracle?step=240');
  await expect(page.getByTestId('crafter-board')).toHaveAttribute('data-step', '241');
  await expect(page.getByTestId('crafter-board')).toHaveAttribute('data-night', 'true');
  await screens(page, 'crafter-replay-night');
  await page.keyboard.press('End');
  await expect(page.getByTestId('crafter-board')).toHaveAttribute('data-step', String(total + 1));
  await page.keyboard.press('Home');
  await expect(page.getByTestId('crafter-board')).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('crafter-board')).toHaveAttribute('data-night', 'false');

  // Chromium re-plays the episode Node recorded: every observation, reward and score the same.
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('verify-result')).toHaveText(`✓ Verified: all ${total} steps match the environment.`, { timeout: 20_000 });
});
