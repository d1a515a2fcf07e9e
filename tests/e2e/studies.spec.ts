import { expect, test } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { HANOI3_SOLUTION, storedHeaders } from './helpers.ts';
import { activeMs, move, playHanoi, serveStudy, setHidden, startCollector, studyFile, studyScreens } from './studyFixtures.ts';

/**
 * A participant's whole study in Chromium: Prolific parameters, consent, practice and
 * scored tasks, a reload mid-task, a hidden tab, an idle spell, Pause, the end (code,
 * download, redirect) and the results reaching a local HTTP endpoint and a JATOS stub
 * exactly once each.
 */


test.use({ viewport: { width: 1280, height: 800 } });

test('a participant runs a study from a Prolific link: reload, hidden tab, idle; results reach the endpoint once though it fails twice; code, download, redirect', async ({ page }) => {
  test.setTimeout(180_000);
  const collector = await startCollector(2);
  try {
    let delay = 0;
    await serveStudy(page, 'e2e-flow', studyFile('e2e-flow', {
      idleSeconds: 1.5,
      end: { message: 'Thank you for taking part.', code: 'E2E-CODE', redirect: `http://127.0.0.1:${collector.port}/done?cc={code}` },
      results: { endpoint: `http://127.0.0.1:${collector.port}/collect`, retryMs: 200 },
    }), () => delay);
    // When each page load first showed the task's action buttons (the moment the participant can act again).
    await page.addInitScript(() => {
      const w = window as unknown as { taskShownAt: number | null };
      w.taskShownAt = null;
      new MutationObserver(() => {
        if (w.taskShownAt === null && document.querySelector('[data-testid="step-count"]') && [...document.querySelectorAll('button')].some((b) => b.textContent?.includes('Move the top disk'))) w.taskShownAt = Date.now();
      }).observe(document, { childList: true, subtree: true });
    });
    // While `delay` is set, the page's code loads slowly too (the task's view arrives after the clock is restored).
    await page.route('**/assets/*.js', async (route) => {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      await route.continue();
    });

    await page.goto('/#/study/e2e-flow?PROLIFIC_PID=pp1&STUDY_ID=st1&SESSION_ID=se1');
    await expect(page.getByRole('heading', { name: 'Consent' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0); // no way out into the app
    await studyScreens(page, 'consent');
    await page.getByRole('button', { name: 'I agree' }).click();
    await expect(page.getByRole('heading', { name: 'Instructions' })).toBeVisible();
    await page.getByRole('button', { name: 'Start' }).click();

    // Practice.
    await expect(page.getByTestId('study-progress')).toHaveText('Practice 1 of 1');
    await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 30/);
    await expect(page.getByRole('group', { name: 'View' })).toHaveCount(0); // text only, like the model
    await studyScreens(page, 'task');
    await playHanoi(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Scored task 1: three moves, then a (slow) reload.
    await expect(page.getByTestId('study-progress')).toHaveText('Task 1 of 2');
    for (let i = 0; i < 3; i++) await move(page, HANOI3_SOLUTION[i], i + 1);
    await page.waitForTimeout(600);
    const beforeReload = await activeMs(page);
    delay = 1500; // the page is away at least this long, and its code comes slowly
    await page.reload();
    await expect(page.getByTestId('step-count')).toHaveText(/^3 \/ 30/, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: HANOI3_SOLUTION[3], exact: true })).toBeVisible({ timeout: 15_000 });
    delay = 0;
    await expect(page.getByTestId('study-progress')).toHaveText('Task 1 of 2');
    await page.waitForTimeout(300);
    const afterReload = await activeMs(page);
    expect(afterReload).toBeGreaterThanOrEqual(beforeReload);
    // The time away and the slow loading (3 s and more) are not on the clock (the reading lags the page by Playwright's polling).
    expect(afterReload - beforeReload).toBeLessThan(2500);
    const shownAgainAt = await page.evaluate(() => (window as unknown as { taskShownAt: number | null }).taskShownAt);
    expect(shownAgainAt).not.toBeNull();

    // A hidden tab stops the clock.
    await setHidden(page, true);
    const hiddenAt = await activeMs(page);
    await page.waitForTimeout(1500);
    expect(await activeMs(page)).toBeLessThan(hiddenAt + 300);
    await setHidden(page, false);
    await move(page, HANOI3_SOLUTION[3], 4);

    // Idle past the threshold (1.5 s) records an idle pause.
    await page.waitForTimeout(2600);
    await move(page, HANOI3_SOLUTION[4], 5);
    await playHanoi(page, 5);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Scored task 2, then the end.
    await expect(page.getByTestId('study-progress')).toHaveText('Task 2 of 2');
    await playHanoi(page);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('completion-code')).toHaveText('E2E-CODE');
    await expect(page.getByTestId('delivery')).toHaveText('All results reached the researcher.', { timeout: 15_000 });
    await studyScreens(page, 'end');

    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download your results' }).click();
    const download = await downloadPromise;
    const text = readFileSync(await download.path(), 'utf8');
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/study-results.jsonl', text);

    // The redirect carries the code.
    await page.waitForURL(`http://127.0.0.1:${collector.port}/done?cc=E2E-CODE`, { timeout: 20_000 });

    // The downloaded file: every episode, with participant, attempt, practice, think time per step, pauses.
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    const byKey = new Map(lines.map((l) => [`${l.header.practice ? 'practice' : 'scored'}-${l.header.attempt}`, l]));
    expect([...byKey.keys()].sort()).toEqual(['practice-1', 'scored-1', 'scored-2']);
    for (const l of lines) {
      expect([l.header.participant, l.header.participantSource]).toEqual(['pp1', 'prolific']);
      expect(l.header.study).toMatchObject({ id: 'e2e-flow', of: 3, prolific: { PROLIFIC_PID: 'pp1', STUDY_ID: 'st1', SESSION_ID: 'se1' } });
      expect(l.header.outcome.finishReason).toBe('Complete');
      expect(l.steps).toHaveLength(7);
      for (const s of l.steps) {
        expect(s.timing.thinkMs).toBeGreaterThanOrEqual(0);
        expect(s.timing.thinkMs + s.timing.pausedMs).toBeCloseTo(s.timing.sentAt - s.timing.shownAt, 0);
      }
      expect(l.header.time.activeMs).toBeLessThanOrEqual(l.header.time.wallMs);
      const thought = l.steps.reduce((a: number, s: any) => a + s.timing.thinkMs, 0);
      expect(Math.abs(l.header.time.activeMs - thought)).toBeLessThan(1000);
    }
    const scored = byKey.get('scored-1');
    const pauses = scored.header.pauses as { reason: string; from: number; to: number; step: number }[];
    const hidden = pauses.filter((p) => p.reason === 'hidden' && p.step === 4);
    expect(hidden).toHaveLength(1); // the hidden tab
    expect(hidden[0].to - hidden[0].from).toBeGreaterThanOrEqual(1400);
    const reload = pauses.filter((p) => p.reason === 'reload');
    expect(reload).toHaveLength(1); // the reload, from the page going away until the task showed again
    expect(reload[0].step).toBe(4);
    expect(reload[0].to - reload[0].from).toBeGreaterThanOrEqual(2900); // the study file and the task's view, 1.5 s each
    expect(reload[0].to).toBeGreaterThanOrEqual(shownAgainAt! - 50); // it lasts until the task was on screen again, not until the clock was restored
    const idle = pauses.filter((p) => p.reason === 'idle');
    expect(idle).toHaveLength(1);
    expect(idle[0].step).toBe(5);
    expect(idle[0].to - idle[0].from).toBeGreaterThan(800);
    expect(scored.steps[3].timing.pausedMs).toBeGreaterThanOrEqual(2800);
    expect(scored.steps[4].timing.pausedMs).toBeGreaterThan(800);
    expect(scored.steps[4].timing.thinkMs).toBeLessThan(scored.steps[4].timing.sentAt - scored.steps[4].timing.shownAt - 800);
    expect(scored.header.signals.map((s: any) => s.kind)).toContain('hidden');

    // The endpoint: two failures, then each episode exactly once.
    expect(collector.failures()).toBe(2);
    const ids = collector.received.map((b) => JSON.parse(b.trim()).header.id);
    expect(ids.sort()).toEqual(lines.map((l) => l.header.id).sort());

    // The researcher imports the file, excludes an episode with a reason, and gets the clean set.
    await page.goto('/#/researcher');
    await page.getByTestId('import-results').setInputFiles('test-results/study-results.jsonl');
    await expect(page.getByTestId('participants')).toContainText('pp1');
    await expect(page.getByTestId('clean-count')).toContainText('2 finished, scored episode(s)');
    await page.getByText('Episodes (3)').click();
    const secondAttempt = page.getByTestId('study-episodes').locator('tr', { hasText: 'hanoi-3' }).filter({ hasNotText: 'practice' }).nth(1);
    await secondAttempt.getByRole('textbox').fill('restarted on purpose');
    await secondAttempt.getByRole('button', { name: 'Exclude' }).click();
    await expect(secondAttempt).toContainText('Excluded: restarted on purpose');
    await expect(page.getByTestId('clean-count')).toContainText('1 finished, scored episode(s)');
    await page.reload();
    // The imported results are kept in this browser, and so is the exclusion.
    await expect(page.getByTestId('participants')).toContainText('pp1');
    await expect(page.getByTestId('clean-count')).toContainText('1 finished, scored episode(s)');
    await page.getByTestId('import-results').setInputFiles('test-results/study-results.jsonl'); // the same file again adds nothing
    await expect(page.getByTestId('clean-count')).toContainText('1 finished, scored episode(s)');
    await studyScreens(page, 'researcher');
    // The scores of this browser's episodes leave the excluded one out, and say so.
    await page.goto('/#/scores');
    await expect(page.getByTestId('scores-summary')).toContainText('1 excluded', { timeout: 20_000 });
  } finally {
    collector.server.close();
  }
});

const JATOS_STUB = `
window.jatos = (() => {
  const log = (c) => { const a = JSON.parse(localStorage.getItem('jatosStubCalls') || '[]'); a.push(c); localStorage.setItem('jatosStubCalls', JSON.stringify(a)); };
  return {
    onLoad(cb) { setTimeout(cb, 10); },
    appendResultData(d) { log({ fn: 'appendResultData', data: String(d) }); return Promise.resolve(); },
    submitResultData(d) { log({ fn: 'submitResultData', data: String(d) }); return Promise.resolve(); },
    endStudy(successful, message) { log({ fn: 'endStudy', successful, message }); },
    urlQueryParameters: {},
  };
})();`;

test('inside JATOS each finished episode is appended once (also across a reload), Pause hides the task and is recorded, the study ends through jatos.endStudy', async ({ page }) => {
  test.setTimeout(90_000);
  await page.route('**/jatos.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: JATOS_STUB }));
  await serveStudy(page, 'e2e-jatos', studyFile('e2e-jatos', { participant: 'entered', timer: false }));

  await page.goto('/?jatos=1#/study/e2e-jatos');
  await page.getByLabel('Your participant id').fill('lab-07');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await playHanoi(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('study-timer')).toBeHidden(); // this study hides the timer

  // Scored 1: Pause hides the task.
  await move(page, HANOI3_SOLUTION[0], 1);
  await page.keyboard.press('Escape'); // the Pause key
  await expect(page.getByTestId('paused')).toBeVisible();
  await expect(page.getByRole('button', { name: HANOI3_SOLUTION[1], exact: true })).toHaveCount(0);
  await expect(page.getByTestId('text-view')).toHaveCount(0);
  await studyScreens(page, 'paused');
  await page.waitForTimeout(1000);
  await page.keyboard.press('Enter'); // Resume has the focus
  await playHanoi(page, 1);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Scored 2: reload mid-task (the participant id is remembered), then finish.
  await move(page, HANOI3_SOLUTION[0], 1);
  await move(page, HANOI3_SOLUTION[1], 2);
  await page.reload();
  await expect(page.getByTestId('step-count')).toHaveText(/^2 \/ 30/);
  await playHanoi(page, 2);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('study-end')).toBeVisible();

  await expect.poll(async () => (await page.evaluate(() => JSON.parse(localStorage.getItem('jatosStubCalls') || '[]'))).filter((c: any) => c.fn === 'endStudy').length, { timeout: 30_000 }).toBe(1);
  const calls = await page.evaluate(() => JSON.parse(localStorage.getItem('jatosStubCalls') || '[]'));
  const appended = calls.filter((c: any) => c.fn === 'appendResultData').map((c: any) => JSON.parse(c.data.trim()));
  expect(appended).toHaveLength(3);
  expect(new Set(appended.map((l: any) => l.header.id)).size).toBe(3);
  expect(appended.every((l: any) => l.header.participant === 'lab-07' && l.header.participantSource === 'entered')).toBe(true);
  expect(calls.at(-1)).toEqual({ fn: 'endStudy', successful: true, message: 'completed E2E-CODE' });

  const headers = await storedHeaders(page);
  const scored1 = headers.find((h) => !h.practice && h.attempt === 1);
  const button = scored1.pauses.filter((p: any) => p.reason === 'button');
  expect(button).toHaveLength(1);
  expect(button[0].step).toBe(2);
  expect(button[0].to - button[0].from).toBeGreaterThanOrEqual(900);
});

test('settings show the browser\'s participant id; editing it labels free play with that id and counts attempts', async ({ page }) => {
  await page.goto('/#/settings');
  const input = page.getByTestId('browser-participant');
  await expect(input).toHaveValue(/^p-[0-9a-f]{8}$/);
  await input.fill('tester-3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText('recorded as tester-3');
  await studyScreens(page, 'settings');
  for (const attempt of [1, 2]) {
    await page.goto('/');
    await page.getByRole('link', { name: 'Play Hanoi3Disk-v0', exact: true }).click();
    await move(page, HANOI3_SOLUTION[0], 1);
    await expect.poll(async () => (await storedHeaders(page)).filter((h) => h.participant === 'tester-3').map((h) => h.attempt).sort()).toEqual(attempt === 1 ? [1] : [1, 2]);
  }
});

test('a study file with mistakes is refused with errors naming the fields', async ({ page }) => {
  await serveStudy(page, 'e2e-bad', JSON.stringify({ format: 'agentplay-study', version: 1, id: 'e2e-bad', title: 'Bad', consent: 'c', instructions: 'i', order: 'random', tasks: [{ env: 'hanoi', task: 'hanoi-3', attempts: 0 }], end: {} }));
  await page.goto('/#/study/e2e-bad');
  await expect(page.getByRole('heading', { name: 'This study cannot start' })).toBeVisible();
  const errors = page.getByTestId('study-errors');
  await expect(errors).toContainText('order: expected "fixed", "shuffled" or "latin-square"');
  await expect(errors).toContainText('tasks[0].attempts: expected a number of at least 1');
  await expect(errors).toContainText('end.message: missing');
});

test('the example study (SmartPlay v0, the README link) opens with its consent, practice first, text only', async ({ page }) => {
  await page.goto('/#/study/smartplay-v0?participant=readme-check');
  await expect(page.getByRole('heading', { name: 'SmartPlay v0 games: a human baseline' })).toBeVisible();
  await page.getByRole('button', { name: 'I agree' }).click();
  await expect(page.getByTestId('instructions')).toContainText('1 practice task(s) and 7 scored task(s)');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('study-progress')).toHaveText('Practice 1 of 1');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 30/);
  await expect(page.getByRole('group', { name: 'View' })).toHaveCount(0);
  await playHanoi(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('study-progress')).toHaveText('Task 1 of 7');
  await expect(page.getByTestId('step-count')).toHaveText(/^0 \/ 50/);
  // An episode is stored from its first step.
  await page.getByRole('button', { name: 'Pull slot machine 1.', exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \/ 50/);
  await expect.poll(async () => (await storedHeaders(page)).some((h) => h.task === 'bandits-highlow')).toBe(true);
  const scored = (await storedHeaders(page)).find((h) => h.task === 'bandits-highlow');
  expect(scored).toMatchObject({ participant: 'readme-check', participantSource: 'link', attempt: 1, practice: false, seed: 1, study: { id: 'smartplay-v0', position: 2, of: 8 } });
});

test('a task past its time limit ends as given up; a break comes between scored tasks; pastes and devtools-sized windows are recorded', async ({ page }) => {
  test.setTimeout(60_000);
  await serveStudy(page, 'e2e-limits', studyFile('e2e-limits', {
    tasks: [{ env: 'hanoi', task: 'hanoi-3', seed: 0, attempts: 2, timeLimitSeconds: 2 }],
    breaks: { every: 1, minSeconds: 1 },
  }));
  await page.goto('/#/study/e2e-limits?participant=limits-1');
  await page.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('study-timer')).toContainText('of 0:02');

  // A paste into the action box, and a window whose outer size outgrows its inner size (docked devtools).
  await page.getByLabel('Or type the exact text a model would send').focus();
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.setData('text/plain', 'Move the top disk');
    document.getElementById('free-action')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    Object.defineProperty(window, 'outerWidth', { configurable: true, get: () => window.innerWidth + 400 });
    window.dispatchEvent(new Event('resize'));
  });
  await move(page, HANOI3_SOLUTION[0], 1);
  await expect(page.getByTestId('task-done')).toContainText('Time is up for this task', { timeout: 5000 });
  await expect(page.getByTestId('task-done')).toContainText('Score 1 / 3 after 1 step.');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByTestId('break')).toContainText('1 of 2 scored tasks done');
  const resume = page.getByRole('button', { name: /^Continue/ });
  await expect(resume).toBeDisabled();
  await expect(resume).toBeEnabled({ timeout: 3000 });
  await resume.click();
  await expect(page.getByTestId('study-progress')).toHaveText('Task 2 of 2');

  const first = (await storedHeaders(page)).find((h) => h.attempt === 1);
  expect(first.outcome.finishReason).toBe('Given Up');
  expect(first.study.timedOut).toBe(true);
  expect(first.time.activeMs).toBeGreaterThanOrEqual(2000);
  expect(first.signals.map((s: any) => [s.kind, s.step, s.detail ?? ''])).toEqual([
    ['paste', 1, '17 characters'],
    ['devtools-resize', 1, expect.stringMatching(/^inner \d+×\d+, outer \d+×\d+$/)],
  ]);
});

test('free play records the person\'s think time per step and the episode\'s active time, net of a hidden tab', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Play Hanoi3Disk-v0', exact: true }).click();
  await move(page, HANOI3_SOLUTION[0], 1);
  await setHidden(page, true);
  await page.waitForTimeout(1200);
  await setHidden(page, false);
  await move(page, HANOI3_SOLUTION[1], 2);
  await expect.poll(async () => (await storedHeaders(page))[0]?.time?.activeMs ?? null).not.toBeNull();
  const steps = await page.evaluate(() => new Promise<any[]>((resolve) => {
    const open = indexedDB.open('agentplay');
    open.onsuccess = () => {
      const req = open.result.transaction('steps').objectStore('steps').getAll();
      req.onsuccess = () => { open.result.close(); resolve(req.result); };
    };
  }));
  expect(steps.map((s) => s.t).sort()).toEqual([1, 2]);
  const second = steps.find((s) => s.t === 2);
  expect(second.timing.pausedMs).toBeGreaterThanOrEqual(1150);
  expect(second.timing.thinkMs).toBeLessThan(second.timing.sentAt - second.timing.shownAt - 1150);
  const [header] = await storedHeaders(page);
  expect(header.pauses.map((p: any) => [p.reason, p.step])).toEqual([['hidden', 2]]);
  expect(header.participantSource).toBe('browser');
  expect(header.attempt).toBe(1);
});

test('a study file given by URL (?src=) runs the same way', async ({ page }) => {
  await page.route('**/elsewhere/my-study.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: studyFile('by-url', {}) }));
  await page.goto('/#/study/x?src=/elsewhere/my-study.json&participant=u1');
  await expect(page.getByRole('heading', { name: 'Tower of Hanoi study' })).toBeVisible();
  await page.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('study-progress')).toHaveText('Practice 1 of 1');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
});
