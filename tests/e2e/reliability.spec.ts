import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { HANOI3_SOLUTION, act, storedSteps, screens } from './helpers.ts';

/**
 * Issue 16, items 4 and 5: a closed or reloaded tab never loses a step the page showed
 * as played (the step counter counts stored steps; later ones show as "saving…"), and
 * one tab drives an episode (a second tab is read-only until it takes the episode over).
 */



interface Shown {
  /** The episode on screen (from the #/resume/ID address), once stored. */
  episodeId: string | null;
  /** The step counter's figure: steps the page shows as played and kept. */
  steps: number;
  /** Steps played but still shown as "saving…". */
  saving: number;
}

/**
 * Every change of the step counter, reported by the page as it happens (a MutationObserver
 * calling an exposed function), so the test knows the last figure the page showed before it died.
 */
/** `most`: the most steps the page showed as played (stored or saving) in the episode on screen. */
async function watchCounter(page: Page): Promise<{ last: () => Shown; most: () => number }> {
  let last: Shown = { episodeId: null, steps: 0, saving: 0 };
  let most = 0;
  await page.exposeFunction('__counterShown', (shown: Shown) => {
    if (shown.episodeId !== last.episodeId) most = 0; // the batch moved on to its next episode
    if (shown.steps >= last.steps || shown.episodeId !== last.episodeId) last = shown;
    most = Math.max(most, shown.steps + shown.saving);
  });
  await page.addInitScript(() => {
    const report = (): void => {
      const counter = document.querySelector('[data-testid="step-count"]');
      if (!counter) return;
      const id = /#\/resume\/([^?]+)/.exec(location.hash)?.[1] ?? null;
      const saving = Number(/\d+/.exec(document.querySelector('[data-testid="saving"]')?.textContent ?? '0')?.[0] ?? 0);
      (window as unknown as { __counterShown: (s: Shown) => void }).__counterShown({ episodeId: id, steps: Number(counter.textContent!.split('/')[0]), saving });
    };
    new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return { last: () => last, most: () => most };
}

function stepsOf(all: Awaited<ReturnType<typeof storedSteps>>, episodeId: string): number[] {
  return all.filter((s) => s.episodeId === episodeId).map((s) => s.t).sort((a, b) => a - b);
}

test('closing the tab 30–100 ms into a fast random-driver batch keeps every step the page showed', async ({ context }) => {
  test.setTimeout(120_000);
  const trials: { close: string; shown: Shown; played: number }[] = [];
  // Closed a fixed time after the batch's first stored step, or the moment the page first shows k steps.
  const plans: ({ afterMs: number } | { atShown: number })[] = [30, 50, 70, 100, 60].map((afterMs) => ({ afterMs }));
  plans.push(...[5, 15, 25, 35, 45].map((atShown) => ({ atShown })));
  for (const plan of plans) {
    const page = await context.newPage();
    const counter = await watchCounter(page);
    await page.goto(`/#/watch/bandits/bandits-highlow?seed=${600 + trials.length}`);
    await page.getByLabel('Random policy (uniform over valid actions)').check();
    await page.getByLabel('Episodes (seeds').fill('3');
    await page.getByLabel('Pause between actions (ms)').fill('0');
    await page.getByRole('button', { name: 'Start' }).click();
    if ('afterMs' in plan) {
      // The batch has started once its first episode is stored (the address becomes #/resume/ID).
      await page.waitForURL(/#\/resume\//);
      await page.waitForTimeout(plan.afterMs);
    } else {
      const until = Date.now() + 10_000;
      while (counter.most() < plan.atShown && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await page.close({ runBeforeUnload: false });
    trials.push({ close: 'afterMs' in plan ? `${plan.afterMs} ms` : `at ${plan.atShown} shown`, shown: counter.last(), played: counter.most() });
  }

  const check = await context.newPage();
  await check.goto('/');
  const all = await storedSteps(check);
  const rows = trials.map(({ close, shown, played }) => {
    const kept = shown.episodeId ? stepsOf(all, shown.episodeId) : [];
    return { close, episode: shown.episodeId?.slice(0, 8) ?? '(none yet)', shown: shown.steps, savingShown: shown.saving, mostPlayedShown: played, kept: kept.length, gapless: kept.every((t, i) => t === i + 1) };
  });
  console.log('Tab closed during a random-driver batch (Bandits, 50 steps an episode):');
  console.table(rows);
  for (const row of rows) {
    expect(row.kept, `closed ${row.close}: the page showed ${row.shown} steps`).toBeGreaterThanOrEqual(row.shown);
    expect(row.gapless).toBe(true);
  }
  expect(rows.some((r) => r.shown > 0)).toBe(true); // the batch was under way when the tab closed
});

test('a burst of 30 key presses in Hanoi, then a reload: every step the page showed is stored', async ({ page }) => {
  const counter = await watchCounter(page);
  await page.goto('/#/play/hanoi/hanoi-3?seed=9');
  await expect(page.getByTestId('step-count')).toContainText('0 /');
  // 30 moves, legal and illegal alike (each is a step), as fast as the keyboard sends them.
  const keys = '2' + '163524'.repeat(5).slice(0, 29);
  for (const key of keys.slice(0, 10)) await page.keyboard.press(key);
  // The rest as one burst, faster than any hand: 20 key presses in one task, then straight away a reload.
  // The page reads its own counter once it has drawn the burst, so the figure is the one on screen as it reloads.
  const shownAtReload = await page.evaluate(async (burst) => {
    for (const key of burst) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    return Number(document.querySelector('[data-testid="step-count"]')!.textContent!.split('/')[0]);
  }, keys.slice(10));
  const before = { ...counter.last(), steps: Math.max(counter.last().steps, shownAtReload) };
  await page.reload();
  await page.waitForTimeout(300);
  const shown = counter.last();
  const id = shown.episodeId ?? before.episodeId;
  expect(id).not.toBeNull();
  const kept = stepsOf(await storedSteps(page), id!);
  console.log(`Hanoi burst of 30 key presses then reload: page showed ${before.steps} stored (+${before.saving} saving), most played ${counter.most()}; stored after reload ${kept.length}`);
  expect(kept.length).toBeGreaterThanOrEqual(before.steps);
  expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => i + 1));
});

async function openSecond(context: BrowserContext, address: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(address);
  return page;
}

test('one episode in two tabs: the second is read-only until it takes over; the first then stops; the trajectory replays', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('/#/play/hanoi/hanoi-3?seed=4');
  await act(first, HANOI3_SOLUTION[0], 1);
  await act(first, HANOI3_SOLUTION[1], 2);
  await expect(first).toHaveURL(/#\/resume\//);
  const id = /#\/resume\/([^?]+)/.exec(first.url())![1];

  // The resume link in a second tab: shown, read-only, with a way to take over.
  const second = await openSecond(context, `/#/resume/${id}?go=1`);
  await expect(second.getByTestId('read-only')).toContainText('This episode is open in another tab');
  await expect(second.getByTestId('step-count')).toHaveText(/^2 \//);
  await expect(second.getByRole('button', { name: HANOI3_SOLUTION[2], exact: true })).toHaveCount(0);
  await second.keyboard.press('6'); // keys do nothing either
  await expect(second.getByTestId('step-count')).toHaveText(/^2 \//);
  await screens(second, 'two-tabs-read-only');

  // The first tab plays on meanwhile; taking over picks that up from the store.
  await act(first, HANOI3_SOLUTION[2], 3);
  await second.getByRole('button', { name: 'Take over' }).click();
  await expect(second.getByTestId('read-only')).toHaveCount(0);
  await expect(second.getByTestId('step-count')).toHaveText(/^3 \//);
  await expect(first.getByTestId('read-only')).toContainText('taken over by another tab');
  await expect(first.getByRole('button', { name: HANOI3_SOLUTION[3], exact: true })).toHaveCount(0);
  await first.keyboard.press('2');
  await expect(first.getByTestId('step-count')).toHaveText(/^3 \//);
  await screens(first, 'two-tabs-taken-over');

  for (const [i, move] of HANOI3_SOLUTION.slice(3).entries()) await act(second, move, i + 4);
  await expect(second.getByTestId('outcome')).toContainText('Solved!');
  const steps = (await storedSteps(second)).filter((s) => s.episodeId === id).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION);
  expect(steps.map((s) => s.t)).toEqual([1, 2, 3, 4, 5, 6, 7]);

  // The stored trajectory replays: the app's verifier steps the environment through it again.
  await second.goto(`/#/replay/${id}`);
  await second.getByTestId('verify').click();
  await expect(second.getByTestId('verify-result')).toHaveText('✓ Verified: all 7 steps match the environment.');
});

test('taking an episode back: the first tab takes over again and plays on from what the second stored', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('/#/play/hanoi/hanoi-3?seed=4');
  await act(first, HANOI3_SOLUTION[0], 1);
  await expect(first).toHaveURL(/#\/resume\//);
  const id = /#\/resume\/([^?]+)/.exec(first.url())![1];
  const second = await openSecond(context, `/#/resume/${id}?go=1`);
  await second.getByRole('button', { name: 'Take over' }).click();
  await expect(first.getByTestId('read-only')).toBeVisible();
  await act(second, HANOI3_SOLUTION[1], 2);
  await first.getByRole('button', { name: 'Take over' }).click();
  await expect(second.getByTestId('read-only')).toContainText('taken over by another tab');
  await expect(first.getByTestId('step-count')).toHaveText(/^2 \//);
  await act(first, HANOI3_SOLUTION[2], 3);
  const steps = (await storedSteps(first)).filter((s) => s.episodeId === id).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION.slice(0, 3));
});

test('a watched run taken over by another tab: its driver stops and says so', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('/#/watch/bandits/bandits-highlow?seed=31');
  await first.getByLabel('Random policy (uniform over valid actions)').check();
  await first.getByLabel('Pause between actions (ms)').fill('150');
  await first.getByRole('button', { name: 'Start' }).click();
  await first.waitForURL(/#\/resume\//);
  const id = /#\/resume\/([^?]+)/.exec(first.url())![1];

  const second = await openSecond(context, `/#/resume/${id}?go=1`);
  await expect(second.getByTestId('read-only')).toContainText('This episode is open in another tab');
  await second.getByRole('button', { name: 'Take over' }).click();
  await expect(second.getByTestId('read-only')).toHaveCount(0);
  await expect(first.getByTestId('read-only')).toContainText('taken over by another tab');
  await expect(first.getByTestId('driver-status')).toContainText('Stopped: another tab took this episode over.');
  await expect(first.getByTestId('driver-status')).not.toContainText('carry on by hand');
  // The first tab plays no more: what the second tab took over is all that is stored.
  const taken = Number((await second.getByTestId('step-count').textContent())!.split('/')[0]);
  await first.waitForTimeout(500);
  const steps = (await storedSteps(second)).filter((s) => s.episodeId === id).map((s) => s.t).sort((a, b) => a - b);
  expect(steps).toEqual(Array.from({ length: taken }, (_, i) => i + 1));
  await screens(first, 'watch-taken-over');
});
