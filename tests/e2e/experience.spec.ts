/**
 * The play experience a study participant meets: every page state passes axe-core (light and
 * dark), every play view fits a phone without sideways scrolling, a person can do everything
 * by keyboard (find a task, play it, leave the terminal and the SQL editor), and Back goes back.
 * Screenshots of each play view at desktop and phone sizes go to test-results/screens/.
 */
import { expect, test, type Page } from '@playwright/test';
import { axe, fitsWidth, HANOI3_SOLUTION, PLAY_VIEWS as CATALOGUE_VIEWS } from './helpers.ts';

/** One task per environment of the catalogue, and the test build's test game. */
const PLAY_VIEWS = [...CATALOGUE_VIEWS, { env: 'guess', task: 'guess-5' }];

async function openPlay(page: Page, env: string, task: string): Promise<void> {
  await page.goto(`/#/play/${env}/${task}?seed=1`);
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//, { timeout: 20_000 });
}

test.describe('every play view, both views', () => {
  for (const { env, task } of PLAY_VIEWS) {
    test(`${env}: axe-clean in the text and visual views; fits a phone; screenshots`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: 1280, height: 800 });
      await openPlay(page, env, task);
      await expect(page).toHaveTitle(/ · agentplay$/);
      await axe(page, `${env} text view`);
      await page.screenshot({ path: `test-results/screens/${env}-text-desktop.png`, fullPage: true });
      await page.getByRole('button', { name: 'Visual view' }).click();
      await page.waitForTimeout(300);
      await axe(page, `${env} visual view`);
      await page.screenshot({ path: `test-results/screens/${env}-visual-desktop.png`, fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(300);
      await fitsWidth(page, `${env} visual view`);
      await page.screenshot({ path: `test-results/screens/${env}-visual-phone.png`, fullPage: true });
      await page.getByRole('button', { name: 'Text view' }).click();
      await fitsWidth(page, `${env} text view`);
      await page.screenshot({ path: `test-results/screens/${env}-text-phone.png`, fullPage: true });
    });
  }
});

test('the other pages are axe-clean in light and dark, and fit a phone', async ({ page }) => {
  test.setTimeout(120_000);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await expect(page.getByTestId('match-count')).toContainText(' tasks');
    await axe(page, `catalogue (${scheme})`);
    await page.screenshot({ path: `test-results/screens/catalogue-${scheme}-desktop.png` });

    await openPlay(page, 'hanoi', 'hanoi-3');
    await page.getByRole('button', { name: HANOI3_SOLUTION[0], exact: true }).click();
    await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
    await axe(page, `play (${scheme})`);

    await page.goto('/#/episodes');
    await expect(page.getByTestId('episode-list')).toBeVisible();
    await axe(page, `episodes (${scheme})`);
    await page.getByRole('link', { name: 'Replay' }).first().click();
    await expect(page.getByTestId('replay-position')).toBeVisible();
    await axe(page, `replay (${scheme})`);

    await page.goto('/#/watch/hanoi/hanoi-3?seed=1');
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    await axe(page, `watch (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, ready] of [
    ['/', 'match-count'],
    ['/#/episodes', 'episode-list'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(ready)).toBeVisible();
    await page.waitForTimeout(300);
    await fitsWidth(page, path);
    await page.screenshot({ path: `test-results/screens/${path === '/' ? 'catalogue' : 'episodes'}-phone.png`, fullPage: true });
  }
});

test('by keyboard only: find a BabyAI task by search, play it to the end; leave the OS terminal and the SQL editor by their keys', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('match-count')).toContainText(' tasks');
  await page.keyboard.press('/');
  await page.keyboard.type('GoToRedBallGrey 1234');
  await expect(page.getByTestId('match-count')).toHaveText(/^1 of /);
  // From the search box to the task's Play link in a few presses.
  let presses = 0;
  while (!(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Play BabyAI-GoToRedBallGrey-v0 seed 1234'))) {
    await page.keyboard.press('Tab');
    expect(++presses).toBeLessThan(25);
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await expect(page.getByTestId('goal')).toContainText('Mission: go to the red ball');
  await page.keyboard.press('?');
  await expect(page.getByTestId('key-legend')).toHaveAttribute('open', '');
  await expect(page.getByTestId('key-legend')).toContainText('turn left / right');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  // Space scrolls the page; it does not use a step.
  await page.keyboard.press(' ');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  const key = await page.getByRole('button', { name: 'go to red ball 1', exact: true }).locator('kbd').textContent();
  for (const digit of key!.trim()) await page.keyboard.press(digit);
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await expect(page.getByTestId('outcome')).toBeFocused();

  // The OS terminal: Esc leaves it.
  await page.goto('/#/play/os/os-dev-24?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  await page.getByRole('button', { name: 'Visual view' }).focus();
  await page.keyboard.press('Enter');
  const xterm = page.getByTestId('xterm');
  await expect(xterm).toBeVisible();
  // xterm.js loads on first use: its input exists only once the terminal has opened (CI's slower
  // machine tabbed past the empty host before then).
  await expect(xterm.locator('textarea')).toBeAttached();
  for (let i = 0; i < 10 && !(await xterm.evaluate((el) => el.contains(document.activeElement))); i++) await page.keyboard.press('Tab');
  expect(await xterm.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Tab'); // Tab belongs to the shell (completion) ...
  expect(await xterm.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape'); // ... Esc leaves.
  expect(await xterm.evaluate((el) => el.contains(document.activeElement))).toBe(false);

  // The SQL editor: Esc then Tab leaves it.
  await page.goto('/#/play/db/db-dev-003?seed=0');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Visual view' }).focus();
  await page.keyboard.press('Enter');
  const editor = page.getByLabel('SQL (Ctrl+Enter runs)');
  await expect(editor).toBeVisible();
  for (let i = 0; i < 15 && !(await editor.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))); i++) await page.keyboard.press('Tab');
  await expect(editor).toBeFocused();
  await page.keyboard.press('Tab'); // indents
  await expect(editor).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editor).not.toBeFocused();
});

test('Back after "Replay this episode" returns to the episode, and again to the tasks; an unknown episode has a way out', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('task-search').fill('Hanoi3Disk');
  await page.getByRole('link', { name: 'Play Hanoi3Disk-v0', exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \//);
  // Opening a task records nothing until the first step.
  expect(await page.evaluate(() => location.hash)).toMatch(/^#\/play\/hanoi\/hanoi-3/);
  for (const [i, action] of HANOI3_SOLUTION.entries()) {
    await page.getByRole('button', { name: action, exact: true }).click();
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await page.getByRole('link', { name: 'Replay this episode' }).click();
  await expect(page.getByTestId('replay-position')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/#\/resume\//);
  await expect(page.getByTestId('replay-position')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('task-search')).toBeVisible();

  await page.goto('/#/resume/no-such-episode');
  await expect(page.getByRole('heading', { name: 'Episode not available' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the tasks' }).click();
  await expect(page.getByTestId('task-search')).toBeVisible();
});

test('free text: the person is told which action the text was taken as; Give up asks first; episodes can be deleted and restored', async ({ page }) => {
  await openPlay(page, 'bandits', 'bandits-highlow');
  const box = page.getByLabel('Or type the exact text a model would send');
  await box.fill('I will pull slot machine 2. then maybe pull slot machine 1.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('match-note')).toContainText('Your text was taken as “Pull slot machine 2.”');
  await box.fill('');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('match-note')).toContainText('No action’s text appears in what you typed, so — as SmartPlay does for a model — the first action, “Pull slot machine 1.”, was played.');
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \//);

  await page.getByRole('button', { name: 'Give up…' }).click();
  await page.getByRole('button', { name: 'Keep playing' }).click();
  await expect(page.getByTestId('outcome')).toHaveCount(0);
  await page.getByRole('button', { name: 'Give up…' }).click();
  await page.getByRole('button', { name: 'Yes, give up' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Given Up');

  await page.goto('/#/episodes');
  const rows = page.getByTestId('episode-list').locator('tbody tr[data-episode]');
  // The list (a view loaded on demand) shows this episode before the rows are counted.
  await expect(page.getByRole('button', { name: /^Delete episode .* \(bandits-highlow\)$/ }).first()).toBeVisible();
  const before = await rows.count();
  await page.getByRole('button', { name: /^Delete episode .* \(bandits-highlow\)$/ }).first().click();
  await expect(rows).toHaveCount(before - 1);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(rows).toHaveCount(before);
});

test('dead ends say what happened and offer a way out: a malformed address, an episode of an unknown task', async ({ page }) => {
  await page.goto('/#/resume/%');
  await expect(page.getByRole('heading', { name: 'Episode not available' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the tasks' })).toBeVisible();

  // An episode whose task this page does not know (say, from a task file not imported now).
  const header = {
    format: 2,
    id: 'unknown-task-1',
    env: 'hanoi',
    task: 'hanoi-99',
    seed: 0,
    driver: { kind: 'human' },
    actors: [{ kind: 'human' }],
    view: 'text',
    maxSteps: 30,
    initialObservation: 'start',
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    appVersion: 'test',
  };
  const step = { episodeId: 'unknown-task-1', t: 1, action: 'a', observation: 'o', valid: true, reward: 0, score: 0, terminated: false, truncated: false, view: 'text', actor: { kind: 'human' }, ms: 0, at: '2026-01-01T00:00:01.000Z' };
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'odd.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(JSON.stringify({ format: 'agentplay-episode', version: 2, header, steps: [step] }) + '\n') });
  await expect(page.getByText('Imported 1 episode(s) from odd.jsonl')).toBeVisible();
  await page.goto('/#/replay/unknown-task-1');
  await expect(page.getByRole('alert')).toContainText('task hanoi-99, which is neither built in nor imported in this browser');
  // Hanoi takes no task files, so no import is offered; the way out is.
  await expect(page.getByTestId('missing-task')).toContainText('takes no task files');
  await expect(page.getByRole('link', { name: 'All episodes' })).toBeVisible();
});

test('the views of studies, scores, annotation and compare are axe-clean too', async ({ page }) => {
  test.setTimeout(120_000);
  // Something to look at: one finished Hanoi episode.
  await openPlay(page, 'hanoi', 'hanoi-3');
  for (const [i, action] of HANOI3_SOLUTION.entries()) {
    await page.getByRole('button', { name: action, exact: true }).click();
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
  for (const [path, ready] of [
    ['/#/scores', 'Scores'],
    ['/#/annotate', 'Annotate'],
    ['/#/settings', 'Settings'],
    ['/#/researcher', 'Studies'],
    ['/#/compare?task=hanoi-3', 'Compare'],
    ['/#/study/smartplay-v0?participant=axe-check', 'SmartPlay v0 games: a human baseline'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForTimeout(500);
    await axe(page, `${path} (${ready})`);
  }
});

test('a wrong answer ends saying so, with the answer the benchmark expected', async ({ page }) => {
  await openPlay(page, 'db', 'db-dev-003');
  const box = page.getByLabel(/exactly as a model would send it|the exact text a model would send/);
  await box.fill('Action: Answer\nFinal Answer: ["999"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('outcome')).toContainText('Not solved');
  await expect(page.getByTestId('outcome-words')).toContainText('Your answer “["999"]” does not match the expected one.');
  await expect(page.getByTestId('expected-answer')).toContainText('The expected answer was: 26');
});

test('every kind of page has a title of its own, also after moving between pages by link', async ({ page }) => {
  const pages: [string, string][] = [
    ['/#/scores', 'Scores'],
    ['/#/settings', 'Settings'],
    ['/#/researcher', 'Study results'],
    ['/#/studies', 'Studies'],
    ['/#/compare', 'Compare runs'],
    ['/#/gallery', 'Gallery'],
    ['/#/annotate/babyai/babyai-0', 'Subgoals: babyai-0'],
    ['/#/agreement/babyai/babyai-0', 'Subgoal agreement'],
    ['/#/episodes', 'Episodes'],
    ['/#/', 'Tasks'],
  ];
  for (const [url, title] of pages) {
    await page.goto(url);
    await expect(page, url).toHaveTitle(`${title} · agentplay`);
  }
  // Moving by the header's links (a hash change, not a new page load) renames the page too.
  await page.getByRole('link', { name: 'Scores', exact: true }).click();
  await expect(page).toHaveTitle('Scores · agentplay');
  await page.getByRole('link', { name: 'Studies', exact: true }).click();
  await expect(page).toHaveTitle('Studies · agentplay');
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page).toHaveTitle('Settings · agentplay');
});

test('catalogue on a phone: filters and seed fold behind a button, so a task to play is on the first screen; on a desktop they show', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/');
  const firstPlay = page.getByRole('link', { name: /^Play / }).first();
  await expect(firstPlay).toBeVisible();
  const box = (await firstPlay.boundingBox())!;
  expect(box.y + box.height, 'the first Play link ends within the first 844 px').toBeLessThanOrEqual(844);
  await expect(page.getByRole('combobox', { name: 'Benchmark', exact: true })).toBeHidden();
  const toggle = page.getByTestId('filters-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('combobox', { name: 'Benchmark', exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Difficulty', exact: true }).selectOption('hard');
  await toggle.click();
  await expect(toggle).toHaveText('Filters and seed (1 on)');
  await page.screenshot({ path: 'test-results/screens/catalogue-folded-phone.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('combobox', { name: 'Benchmark', exact: true })).toBeVisible();
  await expect(toggle).toBeHidden();
});
