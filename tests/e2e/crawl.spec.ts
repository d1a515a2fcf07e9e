/**
 * Issue 28's held-out crawl: every kind of page, as a new user reaches it, passes axe-core in
 * the light and the dark theme, does not scroll sideways on a 390 px phone, and has a title of
 * its own. Screenshots go to test-results/screens/crawl-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { axe, fitsWidth, HANOI3_SOLUTION, PLAY_VIEWS } from './helpers.ts';


/** Visit, wait until the page's main heading shows, then check it in both themes and on a phone; returns its title. */
async function crawl(page: Page, url: string, name: string): Promise<string> {
  const titles: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    // A fresh load each time (the second visit would otherwise be only a hash change).
    await page.goto('about:blank');
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
    // A view may settle its address first (Scores writes its selection into it).
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(600);
    await axe(page, `${name} (${scheme})`);
    titles.push(await page.title());
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await fitsWidth(page, `${name} (${scheme})`);
    await page.screenshot({ path: `test-results/screens/crawl-${name}-${scheme}-phone.png` });
  }
  expect(titles[0], `${name}: the title does not depend on the theme`).toBe(titles[1]);
  return titles[0];
}

test('every play view: axe in light and dark, no sideways scroll on a phone, its own title', async ({ page }) => {
  test.setTimeout(600_000);
  const titles = new Map<string, string>();
  for (const { env, task } of PLAY_VIEWS) {
    const title = await crawl(page, `/#/play/${env}/${task}?seed=1`, `play-${env}`);
    expect(title).toBe(`${task} · ${title.split(' · ')[1]} · agentplay`);
    titles.set(env, title);
  }
  expect(new Set(titles.values()).size, [...titles.values()].join('\n')).toBe(PLAY_VIEWS.length);
});

/** Hanoi solved by hand: an episode to replay, compare and score. Returns its replay address. */
async function solvedHanoi(page: Page): Promise<string> {
  await page.goto('/#/play/hanoi/hanoi-3');
  for (const [i, action] of HANOI3_SOLUTION.entries()) {
    await page.getByRole('button', { name: action, exact: true }).click();
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
  return `/${await page.getByRole('link', { name: 'Replay this episode' }).getAttribute('href')}`;
}

/** Every other kind of page, and the address it is reached at (REPLAY stands for a finished episode's). */
const KINDS: [string, string][] = [
  ['catalogue', '/'],
  ['episodes', '/#/episodes'],
  ['replay', 'REPLAY'],
  ['compare', '/#/compare?task=hanoi-3'],
  ['watch', '/#/watch/hanoi/hanoi-3?seed=1'],
  ['scores', '/#/scores'],
  ['annotate', '/#/annotate'],
  ['annotate-task', '/#/annotate/babyai/babyai-0'],
  ['researcher', '/#/researcher'],
  ['settings', '/#/settings'],
  ['gallery', '/#/gallery'],
  ['study', '/#/study/smartplay-v0?participant=crawl'],
  ['studies', '/#/studies'],
];

for (const [name, url] of KINDS) {
  test(`${name}: axe in light and dark, no sideways scroll on a phone`, async ({ page }) => {
    test.setTimeout(240_000);
    const at = url === 'REPLAY' || name === 'compare' || name === 'scores' ? await solvedHanoi(page) : '';
    await crawl(page, url === 'REPLAY' ? at : url, name);
  });
}

test('each kind of page has a title of its own', async ({ page }) => {
  test.setTimeout(240_000);
  const replay = await solvedHanoi(page);
  const seen = new Map<string, string>();
  const shared: string[] = [];
  for (const [name, url] of KINDS) {
    await page.goto('about:blank');
    await page.goto(url === 'REPLAY' ? replay : url);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
    await page.waitForTimeout(500);
    const title = await page.title();
    if (seen.has(title)) shared.push(`${seen.get(title)} and ${name}: "${title}"`);
    seen.set(title, name);
  }
  expect(shared, 'page kinds sharing a title').toEqual([]);
});
