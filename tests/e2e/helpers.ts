import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

export const HANOI = {
  AB: 'Move the top disk of rod A to the top of rod B',
  AC: 'Move the top disk of rod A to the top of rod C',
  BA: 'Move the top disk of rod B to the top of rod A',
  BC: 'Move the top disk of rod B to the top of rod C',
  CA: 'Move the top disk of rod C to the top of rod A',
  CB: 'Move the top disk of rod C to the top of rod B',
};

/** The 7-move solution of Hanoi3Disk. */
export const HANOI3_SOLUTION = [HANOI.AC, HANOI.AB, HANOI.CB, HANOI.AC, HANOI.BA, HANOI.BC, HANOI.AC];

/** Open the catalogue and start a task with a given seed, as a person would. */
export async function startTask(page: Page, taskName: string, seed: number): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Seed', { exact: true }).fill(String(seed));
  await page.getByRole('link', { name: `Play ${taskName}`, exact: true }).click();
  await expect(page.getByTestId('step-count')).toContainText('0 /');
}

export async function act(page: Page, action: string, expectedStep: number): Promise<void> {
  await page.getByRole('button', { name: action, exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${expectedStep} /`));
}

/** Every record of one of the app's IndexedDB stores ('steps', 'episodes', …), read straight from the database the app writes. */
export function storedRecords(page: Page, store: string): Promise<any[]> {
  return page.evaluate(
    (name) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('agentplay');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

/** Steps stored in IndexedDB for every episode. */
export function storedSteps(page: Page): Promise<{ episodeId: string; t: number; action: string; observation: string; view: string }[]> {
  return storedRecords(page, 'steps') as never;
}

/** Every stored episode header. */
export function storedHeaders(page: Page): Promise<any[]> {
  return storedRecords(page, 'episodes');
}

/** Wait until `n` steps are stored (writes land asynchronously after each step). */
export async function waitForStoredSteps(page: Page, n: number): Promise<void> {
  await expect.poll(async () => (await storedSteps(page)).length).toBe(n);
}

/** Screenshots of the page as it is, at desktop (1280×800) and phone (390×844) sizes, into test-results/screens/NAME-{desktop,phone}.png. */
export async function screens(page: Page, name: string): Promise<void> {
  const dir = 'test-results/screens';
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${dir}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** This browser forgets the task files it kept (as one that never imported them); reload to forget registered tasks too. */
export async function forgetTaskFiles(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('agentplay');
        open.onsuccess = () => {
          const tx = open.result.transaction('taskFiles', 'readwrite');
          tx.objectStore('taskFiles').clear();
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      }),
  );
}

/** axe-core finds no accessibility violation on the page as it is. */
export async function axe(page: Page, where: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(found, `axe-core on ${where}`).toEqual([]);
}

/** One task per environment of the catalogue: the play views the layout, crawl and experience tests visit. */
export const PLAY_VIEWS: readonly { env: string; task: string }[] = [
  { env: 'hanoi', task: 'hanoi-3' },
  { env: 'bandits', task: 'bandits-highlow' },
  { env: 'rps', task: 'rps-basic' },
  { env: 'messenger', task: 'messenger-l2' },
  { env: 'babyai', task: 'babyai-0' },
  { env: 'pddl', task: 'pddl-20' },
  { env: 'db', task: 'db-dev-003' },
  { env: 'os', task: 'os-dev-24' },
  { env: 'crafter', task: 'crafter' },
  { env: 'alfworld', task: 'alfworld-std-00' },
];

/** Every visible control lies inside the viewport, and nothing scrolls sideways. */
export async function fitsWidth(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll<HTMLElement>('button, a, input, textarea, select, [role="button"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // Controls inside a region that scrolls on its own (a table of rounds) are reachable by scrolling it.
      if (el.closest('.xterm-helpers, .xterm-screen')) continue;
      if (r.right > width + 1 || r.left < -1) out.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" at ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return out;
  });
  expect(overflow, `controls outside a ${await page.evaluate(() => window.innerWidth)} px screen on ${where}`).toEqual([]);
}

/**
 * The Episodes page's import message: a status while it says what was imported, an alert once
 * verification (on by default) finds an episode that does not replay. Tests that only ask what was
 * imported read either: a quick verification could turn it into an alert between two polls.
 */
export function importMessage(page: Page): Locator {
  return page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: /imported/i });
}
