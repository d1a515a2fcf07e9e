import { expect, test } from '@playwright/test';
import { HANOI, HANOI3_SOLUTION, act, startTask, storedSteps, waitForStoredSteps } from './helpers.ts';

test('a person solves Hanoi3Disk with the buttons; score reaches 3 and success shows', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 7);
  await expect(page.getByTestId('score')).toHaveText('0 / 3');
  for (const [i, action] of HANOI3_SOLUTION.entries()) await act(page, action, i + 1);

  await expect(page.getByTestId('score')).toHaveText('3 / 3');
  const outcome = page.getByTestId('outcome');
  await expect(outcome).toContainText('Solved!');
  // Said in the game's words, with the score's ceiling; no raw status code, no reward beside the score.
  await expect(page.getByTestId('outcome-words')).toHaveText('All 3 disks are on rod C: the tower is moved. 7 steps, score 3 of 3.');
  await expect(page.getByText('Last reward')).toHaveCount(0);
  // The action buttons are gone once the episode is over.
  await expect(page.getByRole('button', { name: HANOI.AB, exact: true })).toHaveCount(0);

  await waitForStoredSteps(page, 7);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION);
  expect(steps[6].observation).toBe(
    'You tried to move the top disk of rod a to the top of rod c. Current configuration:\n- A: |bottom, [], top|\n- B: |bottom, [], top|\n- C: |bottom, [2, 1, 0], top|',
  );
});

test('the text view shows exactly what a model gets, and keys 1..9 play the numbered actions', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 1);
  const text = page.getByTestId('text-view');
  await expect(text).toContainText('You\u2019re a player trying to play the game.');
  await expect(text).toContainText('current step observation: Current configuration:');

  await page.keyboard.press('2'); // action 2: A to C
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await expect(text).toContainText('current step observation: You tried to move the top disk of rod a to the top of rod c.');
  await expect(text).toContainText("Most recent 1 steps of the player's in-game observation:");
  await expect(page.getByTestId('score')).toHaveText('1 / 3');

  // An illegal move (A to C again: the larger disk onto the smaller) keeps the state.
  await page.keyboard.press('2');
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \//);
  await expect(page.getByTestId('score')).toHaveText('1 / 3');
});

test('the visual view draws the rods, and the view in use is recorded with each step', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 2);
  await act(page, HANOI.AC, 1);
  await page.getByRole('button', { name: 'Visual view' }).click();
  const rods = page.getByTestId('hanoi-rods');
  await expect(rods).toHaveAttribute('aria-label', /rod A: 2, 1; rod B: empty; rod C: 0/);
  await act(page, HANOI.AB, 2);
  await expect(rods).toHaveAttribute('aria-label', /rod A: 2; rod B: 1; rod C: 0/);

  await waitForStoredSteps(page, 2);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.view)).toEqual(['text', 'visual']);
});

test('free text is sent exactly as typed and environment text is never rendered as HTML', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 3);
  const evil = '<img src=x onerror="window.__pwned=1"><b id="bold">rod b to the top of rod c</b> move the top disk of rod a to the top of rod c';
  await page.getByLabel('Or type the exact text a model would send').fill(evil);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  // SmartPlay matching: earliest occurrence wins ("...rod b to the top of rod c" is not an action string; "move the top disk of rod a to the top of rod c" is).
  await expect(page.getByTestId('text-view')).toContainText('You tried to move the top disk of rod a to the top of rod c.');

  await waitForStoredSteps(page, 1);
  const [step] = await storedSteps(page);
  expect(step.action).toBe(evil);

  await page.goto(`/#/replay/${step.episodeId}?step=1`);
  await expect(page.getByTestId('replay-action')).toHaveText(evil);
  await expect(page.locator('#bold')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('keys: a pressed action button does not keep the focus (a second Space plays nothing); Esc leaves the text box and the number keys act again', async ({ page }) => {
  await startTask(page, 'Hanoi3Disk-v0', 1);
  // The header's parts keep their spaces (Svelte trims white space at the start of a block).
  await expect(page.locator('header .meta')).toContainText(/^SmartPlay · episode [0-9a-f]{8}( · upstream name Hanoi3Disk-v0)?$/);
  const button = page.getByRole('button', { name: HANOI.AC, exact: true });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await expect(page.getByRole('group', { name: 'Actions' })).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);

  const box = page.getByLabel('Or type the exact text a model would send');
  await box.click();
  await page.keyboard.type('draft');
  await page.keyboard.press('Escape');
  await expect(box).not.toBeFocused();
  await expect(box).toHaveValue('draft');
  await page.keyboard.press('1');
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \//);
  await expect(box).toHaveValue('draft');
  await page.keyboard.press('?');
  await expect(page.getByTestId('key-legend')).toContainText('in the text box: leave it');
});
