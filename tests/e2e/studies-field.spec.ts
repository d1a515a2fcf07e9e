import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { playHanoi, serveStudy, startCollector, studyFile } from './studyFixtures.ts';

/**
 * Studies as they meet the field (issue 28): an endpoint that stays down, a study file
 * naming a task that does not exist, a mistyped study link, the Studies page, and the
 * study's task header on a phone.
 */

const SHOTS = 'test-results/screens';

async function shot(page: Page, name: string, scheme: 'light' | 'dark', size: 'desktop' | 'phone'): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize(size === 'desktop' ? { width: 1280, height: 800 } : { width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/${name}-${size}-${scheme}.png`, fullPage: true });
}

test.use({ viewport: { width: 1280, height: 800 } });

test('when the endpoint stays down the participant stays on the end screen, is told so and offered the file; once it is back the results go out once and only then the redirect', async ({ page }) => {
  test.setTimeout(90_000);
  let down = true;
  const collector = await startCollector(() => down);
  try {
    await serveStudy(page, 'e2e-down', studyFile('e2e-down', {
      tasks: [{ env: 'hanoi', task: 'hanoi-3', seed: 1, label: 'Hanoi' }],
      end: { message: 'Thank you for taking part.', code: 'DOWN-CODE', redirect: `http://127.0.0.1:${collector.port}/done?cc={code}` },
      results: { endpoint: `http://127.0.0.1:${collector.port}/collect`, retryMs: 100 },
    }));
    await page.goto('/#/study/e2e-down?PROLIFIC_PID=pd1');
    await page.getByRole('button', { name: 'I agree' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    await playHanoi(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('completion-code')).toHaveText('DOWN-CODE');

    const undelivered = page.getByTestId('undelivered');
    await expect(undelivered).toBeVisible({ timeout: 15_000 });
    await expect(undelivered).toContainText('Your results could not be sent');
    await expect(page.getByTestId('delivery')).toContainText('Still trying to send your results (the last try failed: http: HTTP 500)');
    await expect(undelivered).toContainText('download your results file');
    await expect(undelivered).toContainText('send it to the researcher');
    await expect(undelivered.getByRole('button', { name: 'I have the file: leave this page' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) for (const size of ['desktop', 'phone'] as const) await shot(page, 'study-undelivered', scheme, size);
    await page.setViewportSize({ width: 1280, height: 800 });

    // No countdown, no redirect: well past the 5 s a delivered study waits before sending the person back.
    await page.waitForTimeout(7000);
    expect(page.url()).toContain('#/study/e2e-down');
    await expect(page.getByText(/Taking you back/)).toHaveCount(0);
    expect(collector.failures()).toBeGreaterThanOrEqual(4);
    expect(collector.received).toHaveLength(0);

    // The file offered is the episode played.
    const downloadPromise = page.waitForEvent('download');
    await undelivered.getByRole('button', { name: 'Download your results' }).click();
    const lines = readFileSync(await (await downloadPromise).path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0].header).toMatchObject({ participant: 'pd1', task: 'hanoi-3', outcome: { finishReason: 'Complete' } });

    // The endpoint comes back: a retry on request delivers the episode once, with its Idempotency-Key, then the redirect comes.
    down = false;
    await undelivered.getByRole('button', { name: 'Try sending again' }).click();
    await expect(page.getByTestId('delivery')).toHaveText('All results reached the researcher.', { timeout: 15_000 });
    await expect(page.getByTestId('undelivered')).toHaveCount(0);
    await page.waitForURL(`http://127.0.0.1:${collector.port}/done?cc=DOWN-CODE`, { timeout: 20_000 });
    expect(collector.received).toHaveLength(1);
    expect(collector.keys).toEqual([lines[0].header.id]);
  } finally {
    collector.server.close();
  }
});

test('a study file naming a task that does not exist is refused at load with the field, before any consent', async ({ page }) => {
  await serveStudy(page, 'e2e-unknown-task', studyFile('e2e-unknown-task', {
    tasks: [
      { env: 'hanoi', task: 'hanoi-3', practice: true },
      { env: 'hanoi', task: 'hanoi-3' },
      { env: 'rps', task: 'rps-basic' },
      { env: 'hanoi', task: 'hanoi-99' },
      { env: 'hanio', task: 'hanoi-3' },
    ],
  }));
  await page.goto('/#/study/e2e-unknown-task?participant=u-9');
  await expect(page.getByRole('heading', { name: 'This study cannot start' })).toBeVisible();
  const errors = page.getByTestId('study-errors');
  await expect(errors).toContainText('tasks[3].task: unknown task "hanoi-99" (hanoi has hanoi-3, hanoi-4)');
  await expect(errors).toContainText('tasks[4].env: unknown environment "hanio"');
  await expect(page.getByRole('button', { name: 'I agree' })).toHaveCount(0);
});

test('a study name that does not exist says "not found"; moving to another study address clears it without a reload', async ({ page }) => {
  await page.goto('/#/study/no-such-study');
  await expect(page.getByRole('heading', { name: 'Study not found' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('There is no study file at');
  await expect(page.getByRole('alert')).toContainText('studies/no-such-study.json');
  await expect(page.getByText(/not JSON|Unexpected token/)).toHaveCount(0);

  // Corrected in the address bar: the study opens on the same page, the error gone.
  await page.evaluate(() => (location.hash = '#/study/smartplay-v0?participant=nav-1'));
  await expect(page.getByRole('heading', { name: 'SmartPlay v0 games: a human baseline' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Study not found' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);

  // And back to a wrong one: the old study is not left on screen.
  await page.evaluate(() => (location.hash = '#/study/another-missing'));
  await expect(page.getByRole('heading', { name: 'Study not found' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('studies/another-missing.json');
  await expect(page.getByRole('heading', { name: 'SmartPlay v0 games: a human baseline' })).toHaveCount(0);
});

test('the Studies page lists the served studies and those opened before, each with its link, Try it and Copy link', async ({ page, context }) => {
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // A study opened before by its file's URL.
  await page.route('**/elsewhere/field-study.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: studyFile('field-by-url', {}) }));
  await page.goto('/#/study/x?src=/elsewhere/field-study.json&participant=f1');
  await expect(page.getByRole('heading', { name: 'Tower of Hanoi study' })).toBeVisible();

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Studies' }).click();
  await expect(page).toHaveURL(/#\/studies$/);
  await expect(page).toHaveTitle('Studies · agentplay');
  await expect(page.getByRole('heading', { level: 1, name: 'Studies' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Studies' })).toHaveAttribute('aria-current', 'page');

  const served = page.getByTestId('served-studies');
  await expect(served.getByRole('heading', { name: 'SmartPlay v0 games: a human baseline' })).toBeVisible();
  await expect(served).toContainText('7 scored episodes, 1 practice');
  await expect(served).toContainText('no results endpoint');
  const base = page.url().split('#')[0];
  await expect(served.getByRole('textbox', { name: 'Link to SmartPlay v0 games: a human baseline' })).toHaveValue(`${base}#/study/smartplay-v0`);

  const opened = page.getByTestId('opened-studies');
  await expect(opened.getByRole('heading', { name: 'Tower of Hanoi study' })).toBeVisible();
  await expect(opened.getByRole('textbox', { name: 'Link to Tower of Hanoi study' })).toHaveValue(`${base}#/study/x?src=${encodeURIComponent('/elsewhere/field-study.json')}`);
  await expect(opened.getByRole('heading', { name: 'SmartPlay v0 games: a human baseline' })).toHaveCount(0); // listed once, as served

  await served.getByRole('button', { name: 'Copy the link to SmartPlay v0 games: a human baseline' }).click();
  await expect(served.getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}#/study/smartplay-v0`);

  for (const scheme of ['light', 'dark'] as const) for (const size of ['desktop', 'phone'] as const) await shot(page, 'studies-page', scheme, size);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Try it: a fresh run as a test participant, from the consent.
  await served.getByRole('button', { name: 'Try SmartPlay v0 games: a human baseline' }).click();
  await expect(page).toHaveURL(/#\/study\/smartplay-v0\?participant=try-[0-9a-f]{8}$/);
  await expect(page.getByRole('heading', { name: 'Consent' })).toBeVisible();
  await expect(page.getByTestId('consent')).toContainText('your results stay in this browser');

  // The researcher's results page links back.
  await page.goto('/#/researcher');
  await expect(page).toHaveTitle('Study results · agentplay');
  await page.getByRole('link', { name: 'Studies', exact: true }).last().click();
  await expect(page).toHaveURL(/#\/studies$/);
});

test('the study task header on a phone keeps its label on one line (light and dark)', async ({ page }) => {
  test.setTimeout(60_000); // a practice game and four screenshots
  await page.goto('/#/study/smartplay-v0?participant=phone-1');
  await page.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await playHanoi(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('study-progress')).toHaveText('Task 1 of 7');
  await page.getByRole('button', { name: 'Pull slot machine 1.', exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \/ 50/);

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    // A step scrolls the page to the action bar; the header is judged at the top of the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    const label = page.getByTestId('study-progress');
    const box = await label.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.45;
      return { width: r.width, height: r.height, line, where: el.parentElement!.getBoundingClientRect().width };
    });
    expect(box.height).toBeLessThan(box.line * 1.5); // one line, not "Ta / sk 1 / of / 7"
    expect(box.where).toBeGreaterThan(200); // the label's line has room beside or above the timer and Pause
    await expect(page.getByRole('button', { name: /^Pause/ })).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/study-header-phone-${scheme}.png` });
    await shot(page, 'study-task', scheme, 'desktop');
  }
});
