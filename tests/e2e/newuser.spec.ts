/**
 * The views added for batches, in-browser models, two tabs, imports, AgentBench test sets and
 * study exclusions, as a first-time visitor meets them: each passes axe-core, nothing
 * scrolls sideways on a phone, and each is saved at desktop and phone sizes in
 * test-results/screens/newuser-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { act, axe, fitsWidth, HANOI3_SOLUTION, screens, importMessage } from './helpers.ts';

/** Nothing scrolls sideways at phone width. */
async function fitsPhone(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await fitsWidth(page, where);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function check(page: Page, name: string): Promise<void> {
  await axe(page, name);
  await fitsPhone(page, name);
  await screens(page, `newuser-${name}`);
}

test('Watch: the task-set batch settings, the batch under way and its results pass axe and fit a phone', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/#/watch/hanoi/hanoi-3?seed=0');
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  await page.getByLabel('A whole task set, as a batch (several episodes at once)').check();
  await page.getByLabel(/^Seeds per game/).fill('1');
  await page.getByLabel('Pause between actions (ms)').fill('300');
  await expect(page.getByTestId('set-plan')).toContainText('2 episodes');
  await check(page, 'watch-set-settings');

  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('batch-status')).toContainText('running');
  // The form that had the focus is gone: the focus lands on the batch's heading, not on the page's body.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('batch-status')).toContainText('paused');
  await check(page, 'watch-batch-paused');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('batch-status')).toContainText('2 / 2 · finished', { timeout: 40_000 });
  await check(page, 'watch-batch-done');
  await page.getByRole('link', { name: 'See them in Scores' }).click();
  await expect(page.getByTestId('scores-summary')).toContainText('2 episode(s) scored');
});

test('Watch: the wllama settings pass axe and fit a phone', async ({ page }) => {
  await page.goto('/#/watch/hanoi/hanoi-3?seed=0');
  await page.getByLabel(/wllama/).check();
  await expect(page.getByText('GGUF model file')).toBeVisible();
  await check(page, 'watch-wllama-settings');
  await page.getByLabel('A file on this computer').check();
  await check(page, 'watch-wllama-file');
});

test('Play: the read-only banner of a second tab passes axe and fits a phone', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('/#/play/hanoi/hanoi-3?seed=4');
  await act(first, HANOI3_SOLUTION[0], 1);
  await expect(first).toHaveURL(/#\/resume\//);
  const id = /#\/resume\/([^?]+)/.exec(first.url())![1];
  const second = await context.newPage();
  await second.goto(`/#/resume/${id}?go=1`);
  await expect(second.getByTestId('read-only')).toBeVisible();
  await check(second, 'read-only');
  await second.getByRole('button', { name: 'Take over' }).click();
  await expect(first.getByTestId('read-only')).toContainText('taken over');
  await check(first, 'taken-over');
});

test('Catalogue: the OS and DB test sets by split pass axe and fit a phone', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('match-count')).not.toContainText('Loading');
  await page.getByLabel('Split').selectOption('test');
  await check(page, 'catalogue-test-split');
});

test('Catalogue: OS tasks are titled by their description, the environment buttons say what they count and hide empty ones, the splits are explained', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('match-count')).not.toContainText('Loading');
  // The split names are explained in words shown on any screen, not only in a tooltip.
  const help = page.getByTestId('split-help');
  await expect(help).toContainText('dev: the development set');
  await expect(help).toContainText('test: the set the benchmark’s published scores are computed on');
  await expect(page.getByLabel('Split')).toHaveAccessibleDescription(/published scores/);

  // An OS test task: its title is the first line of its description, not its upstream index repeated.
  await page.getByTestId('task-search').fill('os-test-7-bootstrap-87');
  const row = page.getByTestId('tasks-os').locator('li').first();
  await expect(row.locator('.task-name')).toHaveText(/^In this problem, you need to analyze the file system usage/);
  await expect(row.locator('.task-name')).not.toContainText('std-007');
  await expect(row.locator('.description')).toHaveText(/^…operating system\. You will be given/); // no repeat of the title
  await expect(row.getByRole('link', { name: /^Play In this problem, .*\(os-test-7-bootstrap-87\)$/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Environments' }).getByRole('button')).toHaveText(['OS Interaction · 1 task']);
  await check(page, 'catalogue-os-titles');

  // Nothing played in this browser: "played by me" shows no task, and no environment button with a count of 0.
  await page.getByTestId('task-search').fill('');
  await page.getByLabel('My play').selectOption('played');
  await expect(page.getByTestId('match-count')).toHaveText(/^0 of /);
  await expect(page.getByRole('navigation', { name: 'Environments' }).getByRole('button')).toHaveCount(0);
  await expect(page.getByText('(0)')).toHaveCount(0);
  await page.getByLabel('My play').selectOption('');
  await expect(page.getByRole('navigation', { name: 'Environments' }).getByRole('button').first()).toHaveText(/ · \d+ tasks?$/);
});

test('Episodes: an import notice, and Scores with an excluded episode, pass axe and fit a phone', async ({ page }) => {
  test.setTimeout(90_000);
  const line = (id: string, extra: object = {}) =>
    JSON.stringify({
      format: 'agentplay-episode',
      version: 2,
      header: {
        format: 2, id, env: 'hanoi', task: 'hanoi-3', seed: 0, driver: { kind: 'human' }, actors: [{ kind: 'human' }], view: 'text', maxSteps: 30,
        initialObservation: 'start', startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', appVersion: 'test',
        outcome: { success: false, score: 0, finishReason: 'Given Up', steps: 1 }, ...extra,
      },
      steps: [{ episodeId: id, t: 1, action: 'a', observation: 'o', valid: true, reward: 0, score: 0, terminated: false, truncated: false, view: 'text', actor: { kind: 'human' }, ms: 0, at: '2026-01-01T00:00:01.000Z' }],
    });
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'edited.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from([line('nu-1', { colour: 'red' }), line('nu-2')].join('\n') + '\n') });
  await expect(importMessage(page).filter({ hasText: 'unknown field' })).toBeVisible();
  await check(page, 'import-notice');

  // A researcher excluded one of them (as the studies view stores it).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('agentplay');
        open.onsuccess = () => {
          const tx = open.result.transaction('exclusions', 'readwrite');
          tx.objectStore('exclusions').put({ key: 'episode:nu-2', reason: 'restarted on purpose', at: '2026-01-01T00:00:00.000Z' });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
  await page.goto('/#/scores');
  await expect(page.getByTestId('scores-summary')).toContainText('1 excluded');
  await check(page, 'scores-excluded');
});

test('An unknown task offers to import its task file; passes axe and fits a phone', async ({ page }) => {
  await page.goto('/#/play/db/db-file-999?seed=0');
  await expect(page.getByTestId('missing-task')).toBeVisible({ timeout: 15_000 });
  // A link to play a task is not an episode: the page says so in those words.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Task not available');
  await expect(page.getByTestId('missing-task')).toContainText('This link is to Database (AgentBench DB) task db-file-999');
  await expect(page.getByTestId('missing-task')).not.toContainText('This episode');
  await check(page, 'unknown-task');
});
