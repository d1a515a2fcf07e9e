/**
 * The scores view on a file of many episodes: a strip of more than 400 dots is painted as one
 * canvas, and shows the dots the SVG circles of its download show (compared pixel by pixel, at
 * desktop and phone sizes); a file's lines are checked in two passes, and a line bad only in a
 * field scoring does not read still takes the scores away, named as an import names it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { parseExportFile, toJsonl } from '../../runtime/jsonl.ts';
import { syntheticEpisodes } from '../../runtime/scores/synthetic.ts';

const dir = mkdtempSync(join(tmpdir(), 'scores-many-e2e-'));
/** 600 episodes of one SmartPlay game: its strip of dots is over the 400 painted as SVG circles. */
const EPISODES = 600;
const text = toJsonl(syntheticEpisodes(EPISODES, [{ env: 'hanoi', task: 'hanoi-3', table: 'smartplay' }]));
const file = join(dir, 'many.jsonl');
writeFileSync(file, text);

/** The file with line `n` (1-based) changed by `edit`, written as `name`. */
function withLine(name: string, n: number, edit: (line: Record<string, any>) => void): { path: string; text: string } {
  const lines = text.split('\n');
  const value = JSON.parse(lines[n - 1]);
  edit(value);
  lines[n - 1] = JSON.stringify(value);
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n'));
  return { path, text: lines.join('\n') };
}

/** What an import says of a file's first bad line ("Line N: …"). */
function importSays(t: string): string {
  try {
    parseExportFile(t);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the file imports without a complaint');
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto('/#/scores');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
  await page.getByTestId('scores-file').setInputFiles(path);
}

/**
 * The chart on screen and the downloaded SVG, each drawn on white at its own size: how many
 * pixels either inks (grey below 200) and how many of those differ by more than 96 grey levels.
 * The screen's dots are a canvas inside the SVG (not serialisable): the copy drawn here shows that
 * canvas's pixels as an image in its place. `shiftDown` moves the download's drawing down that
 * many pixels (the control).
 */
async function compare(page: Page, downloaded: string, shiftDown = 0): Promise<{ inked: number; differ: number; canvasesOnScreen: number; circlesInFile: number }> {
  return page.evaluate(
    async ({ downloaded, shiftDown }) => {
      const shown = document.querySelector<SVGSVGElement>('[data-testid="chart-distribution"] .plot > svg')!;
      const copy = shown.cloneNode(true) as SVGSVGElement;
      copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      copy.style.color = getComputedStyle(shown).color;
      const canvases = [...shown.querySelectorAll('foreignObject > canvas')] as HTMLCanvasElement[];
      for (const [i, holder] of [...copy.querySelectorAll('foreignObject')].entries()) {
        const image = document.createElementNS('http://www.w3.org/2000/svg', 'image');
        for (const a of ['x', 'y', 'width', 'height']) image.setAttribute(a, holder.getAttribute(a) ?? '0');
        image.setAttribute('href', canvases[i].toDataURL());
        holder.replaceWith(image);
      }
      const width = Number(shown.getAttribute('width'));
      const height = Number(shown.getAttribute('height'));
      const grey = async (svgText: string, dy: number) => {
        const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
        const img = new Image();
        img.src = url;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, width, height);
        ctx.drawImage(img, 0, dy, width, height);
        URL.revokeObjectURL(url);
        const data = ctx.getImageData(0, 0, width, height).data;
        const out = new Float32Array(width * height);
        for (let p = 0; p < out.length; p++) out[p] = (data[4 * p] + data[4 * p + 1] + data[4 * p + 2]) / 3;
        return out;
      };
      const a = await grey(new XMLSerializer().serializeToString(copy), 0);
      const b = await grey(downloaded, shiftDown);
      let inked = 0;
      let differ = 0;
      for (let p = 0; p < a.length; p++) {
        if (a[p] >= 200 && b[p] >= 200) continue;
        inked++;
        if (Math.abs(a[p] - b[p]) > 96) differ++;
      }
      const parsed = new DOMParser().parseFromString(downloaded, 'image/svg+xml');
      return { inked, differ, canvasesOnScreen: canvases.length, circlesInFile: parsed.querySelectorAll('circle').length };
    },
    { downloaded, shiftDown },
  );
}

for (const [size, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`a strip of ${EPISODES} dots is painted as one canvas with the dots its SVG download draws as circles (${size})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await open(page, file);
    const chart = page.getByTestId('chart-distribution');
    await expect(page.getByTestId('scores-summary')).toContainText('charts drawn', { timeout: 60_000 });
    await expect(page.getByTestId('scores-source')).toContainText(/Every field checked in \d+ ms/, { timeout: 60_000 });
    // Again and again: the tables above it are laid out only as they come near (content-visibility), which moves it down.
    for (let i = 0; i < 3; i++) {
      await chart.scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    await page.screenshot({ path: `test-results/screens/scores-many-dots-${size}.png` });
    const downloading = page.waitForEvent('download');
    await chart.getByRole('button', { name: /^SVG/ }).click();
    const svg = readFileSync(await (await downloading).path(), 'utf8');

    const same = await compare(page, svg);
    // On screen one canvas, no circle per dot; in the file a circle per dot (and none for the rest of the chart).
    expect(same.canvasesOnScreen).toBe(1);
    expect(same.circlesInFile).toBe(EPISODES);
    // A dot of radius 3.5 inks about 40 pixels: the strip inks thousands, and the two drawings agree on nearly all.
    expect(same.inked).toBeGreaterThan(2000);
    expect(same.differ / same.inked).toBeLessThan(0.05);
    // The control: the same comparison with the file's drawing moved down half a row finds them apart.
    const moved = await compare(page, svg, 13);
    expect(moved.differ / moved.inked).toBeGreaterThan(0.3);
  });
}

test('a line bad only in a field scoring does not read: the scores show, then the whole check names it as an import does and takes them away', async ({ page }) => {
  test.setTimeout(90_000);
  const bad = withLine('bad-observation.jsonl', 450, (l) => (l.steps[2].observation = 5));
  await open(page, bad.path);
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(`bad-observation.jsonl, ${importSays(bad.text).replace(/^Line/, 'line')}`, { timeout: 60_000 });
  await expect(alert).toContainText('line 450: steps[2].observation');
  await expect(page.getByTestId('scores-result')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/scores-bad-line-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/scores-bad-line-phone.png' });
});

test('a line bad in a field scoring reads is refused before any scores, after an earlier line bad elsewhere', async ({ page }) => {
  test.setTimeout(90_000);
  withLine('two-bad.jsonl', 500, (l) => (l.steps[0].valid = 'yes'));
  const lines = readFileSync(join(dir, 'two-bad.jsonl'), 'utf8').split('\n');
  const early = JSON.parse(lines[99]);
  early.header.appVersion = 7;
  lines[99] = JSON.stringify(early);
  writeFileSync(join(dir, 'two-bad.jsonl'), lines.join('\n'));
  await open(page, join(dir, 'two-bad.jsonl'));
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(`two-bad.jsonl, ${importSays(lines.join('\n')).replace(/^Line/, 'line')}`, { timeout: 60_000 });
  await expect(alert).toContainText('line 100: header.appVersion');
  await expect(page.getByTestId('scores-result')).toHaveCount(0);
});

/**
 * The scores view opened with its file readers (parsing workers) counted as they start, and how
 * many a file is read with: one per core, up to four; none on one core (the scoring worker reads it).
 */
async function openCountingReaders(page: Page): Promise<{ started: string[]; readers: number }> {
  const started: string[] = [];
  page.on('worker', (w) => {
    if (w.url().includes('parse.worker')) started.push(w.url());
  });
  await page.goto('/#/scores');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  return { started, readers: cores > 1 ? Math.min(4, cores) : 0 };
}

test('the pointer resting on "Score a file…" starts the file readers; the file chosen then starts none', async ({ page }) => {
  test.setTimeout(90_000);
  const { started, readers } = await openCountingReaders(page);
  await page.waitForTimeout(300);
  expect(started).toHaveLength(0);
  await page.getByText('Score a file…').hover();
  await expect.poll(() => started.length).toBe(readers);
  await page.getByTestId('scores-file').setInputFiles(file);
  await expect(page.getByTestId('scores-summary')).toContainText('charts drawn', { timeout: 60_000 });
  await expect(page.getByTestId('scores-summary')).toContainText(`${EPISODES} episode(s) scored`);
  await expect(page.getByTestId('scores-source')).toContainText(/Every field checked in \d+ ms/, { timeout: 60_000 });
  expect(started).toHaveLength(readers);
});

test('the keyboard’s focus staying on "Score a file…" starts the file readers too', async ({ page }) => {
  const { started, readers } = await openCountingReaders(page);
  expect(started).toHaveLength(0);
  // Tab from the store's button to the file button (its input has the focus).
  await page.getByRole('button', { name: 'All stored episodes' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('scores-file')).toBeFocused();
  await expect.poll(() => started.length).toBe(readers);
});

test('switching the human baseline keeps the per-episode charts and redraws those it changes', async ({ page }) => {
  test.setTimeout(90_000);
  await open(page, file);
  const summary = page.getByTestId('scores-summary');
  const csv = page.getByRole('button', { name: 'Download all figures (CSV)' });
  await expect(summary).toContainText('charts drawn', { timeout: 60_000 });
  await expect(csv).toBeEnabled({ timeout: 60_000 });
  const chart = (id: string) => page.locator(`[data-testid="chart-${id}"] .plot > svg`).elementHandle();
  // The tables are drawn a slice a task: in the end every group (all played Hanoi) has its row in
  // SmartPlay's table and in its capability table, with the published rows after them.
  const groups = await page.locator('fieldset.groups input[type=checkbox]').count();
  expect(groups).toBeGreaterThan(5);
  const tables = page.getByTestId('table-smartplay').locator('table');
  const complete = async () => {
    for (const k of [0, 1]) {
      await expect(tables.nth(k).locator('tbody tr:not(.published)')).toHaveCount(groups);
      await expect(tables.nth(k).locator('tbody tr.published').first()).toBeAttached();
    }
  };
  await complete();
  const dots = await chart('distribution');
  const normalised = await chart('normalised');
  await page.getByRole('radio', { name: 'our recorded human episodes' }).check();
  await expect(page.getByTestId('human-baseline')).toContainText('our recorded human episodes');
  await expect(summary).toContainText('charts drawn', { timeout: 60_000 });
  await expect(csv).toBeEnabled({ timeout: 60_000 });
  // The points do not depend on the baseline: the dots stay as drawn; the normalised scores are drawn anew.
  expect(await dots!.evaluate((n) => n.isConnected)).toBe(true);
  expect(await normalised!.evaluate((n) => n.isConnected)).toBe(false);
  await expect(page.getByTestId('chart-normalised').locator('.plot > svg')).toBeVisible();
  // The same groups: their rows were swapped in place, none lost.
  await complete();
});
