/**
 * The scores view: a file of mixed episodes (people, random, oracle, a model) imported, the
 * SmartPlay table with the published rows, the human source switched, CSV and SVG/PNG exported
 * and checked; the CSV is byte for byte what the CLI's `scores --csv` prints for the same file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const dir = mkdtempSync(join(tmpdir(), 'scores-e2e-'));
const file = join(dir, 'mixed.jsonl');
const cli = (args: string[]) => execFileSync('npx', ['tsx', 'scripts/cli.ts', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

test.beforeAll(() => {
  execFileSync('npx', ['tsx', 'tests/support/make-mixed-episodes.ts', file], { encoding: 'utf8' });
});

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; path: string }> {
  const downloading = page.waitForEvent('download');
  await click();
  const d = await downloading;
  return { name: d.suggestedFilename(), path: await d.path() };
}

/**
 * A whole-page screenshot as a person scrolling sees it: the view lays out and paints tables and
 * charts only as they come near the screen (content-visibility), which a one-shot capture of
 * the whole page does not do.
 */
async function wholePage(page: Page, path: string): Promise<void> {
  const style = await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  await page.screenshot({ path, fullPage: true });
  await style.evaluate((s) => (s as Element).remove());
}

async function screens(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await wholePage(page, `test-results/screens/${name}-desktop.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await wholePage(page, `test-results/screens/${name}-phone.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `test-results/screens/${name}-phone-top.png` });
  await page.getByTestId('table-smartplay').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/screens/${name}-phone-table.png` });
  await page.getByTestId('chart-normalised').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/screens/${name}-phone-chart.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('imported mixed episodes: the SmartPlay table with published rows, the human source switch, CSV and SVG exports match the CLI', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles(file);
  await expect(page.getByText(/Imported 45 episode\(s\)/)).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scores' }).click();
  const sp = page.getByTestId('table-smartplay');
  await expect(sp).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('scores-summary')).toContainText('44 episode(s) scored of 45 chosen (all episodes); left out: 1 practice.');

  // Computed rows per group, then the published rows, marked, with their source.
  await expect(sp.getByRole('row', { name: /^person ann 41\.00/ })).toBeVisible();
  await expect(sp.getByRole('row', { name: /^oracle 50\.00/ })).toBeVisible();
  await expect(sp.getByRole('row', { name: /^tiny-model 27\.00/ })).toBeVisible();
  await expect(sp.getByRole('row', { name: /^GPT-4-0613 published 45\.09 1\.00 39\.25 0\.91 2\.50 0\.83$/ })).toBeVisible();
  await expect(sp.getByText(/^Published rows: SmartPlay/)).toBeVisible();
  await expect(page.getByTestId('human-baseline')).toContainText('human baseline: the paper’s human scores');
  await expect(page.getByTestId('table-agentbench')).toContainText('OA');
  await expect(page.getByTestId('table-agentboard')).toContainText('grounding');
  await expect(page.getByTestId('chart-distribution').getByRole('img', { name: /^Score per episode/ })).toBeVisible();
  await expect(page.getByTestId('chart-time').getByRole('img', { name: /^Time on task/ })).toBeVisible();
  await screens(page, 'scores');
  for (const id of ['table-smartplay', 'table-agentbench', 'table-agentboard', 'chart-distribution', 'chart-normalised', 'chart-progress', 'chart-time']) {
    await page.getByTestId(id).screenshot({ path: `test-results/screens/scores-${id}.png` });
  }
  await page.locator('section.controls').screenshot({ path: 'test-results/screens/scores-controls.png' });

  // The whole report as CSV: the same bytes as the CLI on the same file.
  const all = await download(page, () => page.getByRole('button', { name: 'Download all figures (CSV)' }).click());
  expect(all.name).toMatch(/^agentplay-scores-.*\.csv$/);
  expect(await readFile(all.path, 'utf8')).toBe(cli(['scores', file, '--csv']));

  // Switch to the recorded human baseline: the pooled humans normalise to 1 on every game.
  await page.getByRole('radio', { name: 'our recorded human episodes' }).check();
  await expect(page.getByTestId('human-baseline')).toContainText('human baseline: our recorded human episodes');
  // Two episodes: their intervals say they rest on too few.
  await expect(sp.getByRole('row', { name: /^humans \(pooled\) 38\.50 \[36\.00, 41\.00\] n=2 too few 1\.00 \[1\.00, 1\.00\] n=2 too few 34\.00/ })).toBeVisible();
  await expect(sp.getByText('too few').first()).toHaveAttribute('title', 'n = 2: too few episodes for a 95% interval to mean much');
  const recorded = await download(page, () => page.getByRole('button', { name: 'Download all figures (CSV)' }).click());
  expect(await readFile(recorded.path, 'utf8')).toBe(cli(['scores', file, '--csv', '--human', 'recorded']));

  // One table's CSV: its computed and published figures.
  const spCsv = await download(page, () => page.getByRole('button', { name: 'Download SmartPlay CSV' }).click());
  const lines = (await readFile(spCsv.path, 'utf8')).trim().split('\n');
  expect(lines[0]).toBe('benchmark,group,set,metric,value,low,high,n,source');
  expect(lines.every((l, i) => i === 0 || l.startsWith('SmartPlay,'))).toBe(true);
  expect(lines).toContain('SmartPlay,humans,bandits-highlow,normalised,1,1,1,2,computed');
  expect(lines).toContain('SmartPlay,GPT-4-0613,bandits-highlow,score,45.09,,,,published');

  // A chart as SVG (standalone, titled, one dot per SmartPlay or AgentBoard episode) and as PNG.
  const chart = page.getByTestId('chart-distribution');
  const svg = await download(page, () => chart.getByRole('button', { name: 'SVG of Score per episode' }).click());
  expect(svg.name).toBe('agentplay-score-per-episode.svg');
  const text = readFileSync(svg.path, 'utf8');
  expect(text.startsWith('<?xml')).toBe(true);
  expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
  expect(text).toContain('<title>Score per episode</title>');
  expect(text).not.toContain('var(--');
  // SmartPlay 6 people + 9 random + 9 oracle + 4 model; AgentBoard (babyai, pddl) 3 + 3 + 1 person + 1 model = 36 dots.
  expect(text.match(/<circle/g)?.length).toBe(36);
  const png = await download(page, () => chart.getByRole('button', { name: 'PNG of Score per episode' }).click());
  expect(png.name).toBe('agentplay-score-per-episode.png');
  expect([...readFileSync(png.path).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // Hiding a group takes its row out of the table.
  await page.getByRole('group', { name: 'Groups shown' }).getByRole('checkbox', { name: /^random/ }).uncheck();
  await expect(sp.getByRole('row', { name: /^random / })).toHaveCount(0);
});

test('a file scored without storing it, filtered to one kind of player', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/#/scores');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
  await page.getByTestId('scores-file').setInputFiles(file);
  const sp = page.getByTestId('table-smartplay');
  await expect(sp).toBeVisible({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Who played' }).getByRole('checkbox', { name: 'models' }).check();
  await expect(page.getByTestId('scores-summary')).toContainText('7 episode(s) scored of 7 chosen (player model)');
  await expect(sp.getByRole('row', { name: /^tiny-model 27\.00/ })).toBeVisible();
  await expect(sp.getByRole('row', { name: /^oracle / })).toHaveCount(0);
  await expect(sp.getByRole('row', { name: /^GPT-4-0613 published/ })).toHaveCount(2);
  // The task list (plain options, for long lists) filters too, and keeps what was picked.
  const taskList = page.getByRole('listbox', { name: 'Task' });
  const firstTask = (await taskList.getByRole('option').first().textContent())!;
  await taskList.selectOption(firstTask);
  await expect(page.getByTestId('scores-summary')).toContainText(`(task ${firstTask}; player model)`);
  await expect(taskList.getByRole('option', { name: firstTask, exact: true })).toHaveJSProperty('selected', true);
  await page.getByRole('button', { name: 'Clear the filter' }).click();
  await page.getByRole('group', { name: 'Who played' }).getByRole('checkbox', { name: 'models' }).check();
  // The keyboard switches the human source (arrow keys in the radio group).
  await page.getByRole('radio', { name: 'the paper’s human scores' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'our recorded human episodes' })).toBeChecked();
  await expect(page.getByTestId('human-baseline')).toContainText('human baseline: our recorded human episodes');
  // Nothing was stored.
  await page.goto('/#/episodes');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
});

test('a game from no paper scores as itself, and an AgentBoard log scores as AgentBoard', async ({ page }) => {
  test.setTimeout(90_000);
  // Episodes of the test game (the custom suite), written by the CLI.
  const custom = join(dir, 'guess.jsonl');
  execFileSync('npx', ['tsx', 'scripts/cli.ts', 'run', '--env', 'guess', '--task', 'guess-9', '--agent', 'random', '--episodes', '6', '--out', custom], {
    encoding: 'utf8',
    env: { ...process.env, AGENTPLAY_ENVS: 'tests/envs/catalogue.ts' },
  });
  await page.goto('/#/scores');
  await page.getByTestId('scores-file').setInputFiles(custom);
  const table = page.getByTestId('table-custom');
  await expect(table).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('heading', { name: 'Custom' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Guess1to9-v0' })).toBeVisible();
  await expect(table.getByRole('row', { name: /^random / })).toContainText('n=6');
  // No paper's table, no published row beside it.
  await expect(page.getByTestId('table-smartplay')).toHaveCount(0);
  await expect(page.locator('tr.published')).toHaveCount(0);
  await screensAt(page, 'scores-custom-suite', 'table-custom');

  // AgentBoard's own log (a 12-problem PDDL subset run written by AgentBoard's code), picked as a file.
  await page.getByTestId('scores-file').setInputFiles('tests/fixtures/agentboard/pddl-subset/scripted-agent/logs/pddl.jsonl');
  const board = page.getByTestId('table-agentboard');
  await expect(board).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('scores-summary')).toContainText('12 episode(s) scored');
  await screensAt(page, 'scores-agentboard-log', 'table-agentboard');
});

test('a study filter: only the episodes recorded in the study chosen are scored', async ({ page }) => {
  test.setTimeout(90_000);
  // The mixed file with ann's episodes recorded in one study and bob's in another; models and policies in none.
  const studies = join(dir, 'studies.jsonl');
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) {
    const p = l.header.participant;
    if (p === 'ann') l.header.study = { id: 'pilot-1', title: 'Pilot study', position: 1, of: 4 };
    if (p === 'bob') l.header.study = { id: 'main-2', title: 'Main study', position: 1, of: 4 };
  }
  writeFileSync(studies, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  await page.goto('/#/scores');
  await page.getByTestId('scores-file').setInputFiles(studies);
  const sp = page.getByTestId('table-smartplay');
  await expect(sp).toBeVisible({ timeout: 30_000 });
  const study = page.getByRole('combobox', { name: 'Study' });
  await expect(study.getByRole('option')).toHaveText(['All studies and free play', 'Main study (main-2)', 'Pilot study (pilot-1)']);
  await expect(sp.getByRole('row', { name: /^person bob 36\.00/ })).toBeVisible();

  await study.selectOption({ label: 'Pilot study (pilot-1)' });
  await expect(page.getByTestId('scores-summary')).toContainText('4 episode(s) scored of 4 chosen (study Pilot study)');
  await expect(sp.getByRole('row', { name: /^person ann 41\.00/ })).toBeVisible();
  await expect(sp.getByRole('row', { name: /^person bob / })).toHaveCount(0);
  await expect(sp.getByRole('row', { name: /^oracle / })).toHaveCount(0);
  // One episode per figure: the interval is a single point, marked; the pooled humans' row is ann's alone.
  await expect(sp.getByRole('row', { name: /^humans \(pooled\) 41\.00 \[41\.00, 41\.00\] n=1 too few/ })).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('section.controls').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/scores-study-filter-${theme}-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await study.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/scores-study-filter-${theme}-phone.png` });
    await sp.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/scores-too-few-${theme}-phone.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back to all: bob counts again.
  await study.selectOption({ label: 'All studies and free play' });
  await expect(sp.getByRole('row', { name: /^person bob 36\.00/ })).toBeVisible();
  await expect(page.getByTestId('scores-summary')).toContainText('(all episodes)');
});

/** Desktop and phone screenshots, the phone one scrolled to the table. */
async function screensAt(page: Page, name: string, table: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await wholePage(page, `test-results/screens/${name}-desktop.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId(table).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/screens/${name}-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the charts’ code failing to load: the tables show, the charts say why, and the intervals still come', async ({ page }) => {
  // The intervals wait for the page to say its charts are drawn; a page that never can must not keep them waiting.
  await page.route(/\/assets\/charts-[^/]*\.js$/, (route) => route.abort());
  await page.goto('/#/scores');
  await expect(page.getByText('No episodes yet.')).toBeVisible();
  await page.getByTestId('scores-file').setInputFiles(file);
  await expect(page.getByTestId('table-smartplay')).toBeVisible();
  await expect(page.getByText(/The charts could not be loaded/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download all figures (CSV)' })).toBeEnabled({ timeout: 15_000 });
  await expect(page.getByTestId('intervals-pending')).toHaveCount(0);
  await expect(page.getByTestId('table-smartplay')).toContainText(/\[\d/);
});
