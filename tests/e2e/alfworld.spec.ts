/**
 * ALFWorld as a person plays it: the house view (receptacles, where you are, what you hold, the
 * goal) and the admissible commands grouped by verb with a search, under AgentBench's protocol
 * (a click sends "ACTION: <command>"); and an AgentBoard game solved by typing the commands into
 * the free-text box. Screenshots in light and dark at 1280×800 and 390×844 go to
 * test-results/screens/alfworld-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { axe, fitsWidth, screens, storedSteps, waitForStoredSteps } from './helpers.ts';

/** alfworld-std-00: pick_and_place_simple, "put a pencil in shelf.", its walkthrough in the original wording. */
const STD = 'alfworld-std-00';
const STD_WALK = ['go to desk 2', 'take pencil 2 from desk 2', 'go to shelf 5', 'put pencil 2 in/on shelf 5'];
/** alfworld-073 (AgentBoard): "put a mug in desk.". */
const BOARD = 'alfworld-073';
const BOARD_WALK = ['go to shelf 2', 'take mug 1 from shelf 2', 'go to desk 2', 'put mug 1 in/on desk 2'];

async function open(page: Page, task: string): Promise<void> {
  await page.goto(`/#/play/alfworld/${task}`);
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//, { timeout: 20_000 });
}

async function stepIs(page: Page, n: number): Promise<void> {
  await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${n} /`));
}

test('AgentBench game: a person solves it from the house view by searching and clicking commands; clicks send "ACTION: …"', async ({ page }) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, STD);
  await page.getByRole('button', { name: 'Visual view' }).click();

  const scene = page.getByTestId('alfworld-scene');
  const commands = page.getByTestId('alfworld-commands');
  // The first commands are on the first screen, without scrolling, on a desktop and on a phone (the welcome text is long).
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    const box = await commands.getByRole('button').first().boundingBox();
    expect(box, `a command button at ${size.width}×${size.height}`).not.toBeNull();
    expect(box!.y + box!.height, `the first command's bottom at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const search = page.getByTestId('command-search');
  await expect(page.getByTestId('alfworld-status')).toContainText('put a pencil in shelf.');
  await expect(page.getByTestId('alfworld-holding')).toHaveText('nothing');
  await expect(scene.locator('[data-name="desk 2"]')).toContainText('not looked at yet');
  // The play view's flat button list is left out: the commands are here, grouped by verb.
  await expect(page.getByRole('group', { name: 'Actions' })).toHaveCount(0);
  await expect(commands.getByRole('group', { name: 'Go to' })).toBeVisible();
  await expect(commands.getByRole('button', { name: 'inventory', exact: true })).toBeVisible();
  // The observation's list of available actions is not repeated in the view.
  await expect(page.getByTestId('last-observation')).not.toContainText('AVAILABLE ACTIONS');
  // The keys are in the legend.
  await page.getByTestId('key-legend').locator('summary').click();
  await expect(page.getByTestId('key-legend')).toContainText('go to the command search');
  await expect(page.getByTestId('key-legend')).toContainText('Esc');
  await screens(page, 'alfworld-std-start-light');

  // 1. Search narrows the list as you type; click the match.
  await search.fill('desk 2');
  await expect(commands.getByRole('button')).toHaveCount(1);
  await expect(commands.getByRole('button', { name: 'examine desk 2', exact: true })).toHaveCount(0);
  await commands.getByRole('button', { name: STD_WALK[0], exact: true }).click();
  await stepIs(page, 1);
  await expect(page.getByTestId('alfworld-here')).toHaveText('desk 2');
  await expect(scene.locator('[data-name="desk 2"]')).toContainText('pencil 2');
  await expect(scene.locator('[data-name="desk 2"]')).toContainText('you are here');

  // 2. Click a command found in its group (the search cleared first).
  await search.fill('');
  await commands.getByRole('group', { name: 'Take' }).getByRole('button', { name: STD_WALK[1], exact: true }).click();
  await stepIs(page, 2);
  await expect(page.getByTestId('alfworld-holding')).toHaveText('pencil 2');

  // Light and dark, desktop and phone, mid-game.
  await screens(page, 'alfworld-std-light');
  await page.setViewportSize({ width: 390, height: 844 });
  await fitsWidth(page, 'alfworld visual view, light');
  await page.setViewportSize({ width: 1280, height: 800 });
  await axe(page, 'alfworld visual view, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screens(page, 'alfworld-std-dark');
  await axe(page, 'alfworld visual view, dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // 3. Keyboard: "/" goes to the search, Enter plays the first match, Esc leaves.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('shelf 5');
  await expect(page.locator('#alf-search-help')).toHaveText(`Enter plays “${STD_WALK[2]}”.`);
  await page.keyboard.press('Enter');
  await stepIs(page, 3);
  await expect(search).toHaveValue('');
  await page.keyboard.type('zzz');
  await page.keyboard.press('Escape');
  await expect(search).not.toBeFocused();
  await expect(search).toHaveValue('');

  // 4. Put: click.
  await commands.getByRole('button', { name: STD_WALK[3], exact: true }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await expect(page.getByTestId('alfworld-status')).toContainText('done ✓');
  await expect(scene.locator('[data-name="shelf 5"]')).toContainText('pencil 2');

  await waitForStoredSteps(page, 4);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.action)).toEqual(STD_WALK.map((c) => `ACTION: ${c}`));
  await screens(page, 'alfworld-std-solved-light');
});

test('AgentBench game, text view: the play view\'s buttons send "ACTION: <command>" too', async ({ page }) => {
  await open(page, STD);
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: `ACTION: ${STD_WALK[0]}`, exact: true }).click();
  await stepIs(page, 1);
  await expect(page.getByTestId('text-view')).toContainText('On the desk 2, you see');
  await expect(page.getByTestId('outcome')).toHaveCount(0);
});

test('AgentBoard game: a person solves it by typing the commands into the free-text box', async ({ page }) => {
  test.setTimeout(60_000);
  await open(page, BOARD);
  await page.getByRole('button', { name: 'Visual view' }).click();
  const box = page.locator('#free-action');
  await box.fill('check valid actions');
  await box.press('Enter');
  await stepIs(page, 1);
  await expect(page.getByTestId('last-observation')).toContainText('Choose an action from these valid actions: go to');
  for (const [i, command] of BOARD_WALK.entries()) {
    await box.fill(command);
    await box.press('Enter');
    if (i < BOARD_WALK.length - 1) await stepIs(page, i + 2);
  }
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await expect(page.getByTestId('alfworld-scene').locator('[data-name="desk 2"]')).toContainText('mug 1');
  await waitForStoredSteps(page, 5);
  const steps = (await storedSteps(page)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.action)).toEqual(['check valid actions', ...BOARD_WALK]);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screens(page, 'alfworld-board-solved-dark');
});
