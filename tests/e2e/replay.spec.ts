/**
 * Replay, compare, verify, hand-off, share links and the demo build, in Chromium.
 * Episodes are made with the CLI (the same environment code) and imported through the
 * Episodes page, as a person would bring them in.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { HANOI, HANOI3_SOLUTION, act, screens, storedHeaders, importMessage } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = join(root, 'test-results', 'replay-e2e');
mkdirSync(scratch, { recursive: true });

type Episode = { format: string; version: number; header: Record<string, any>; steps: Record<string, any>[] };

/** One episode played by the CLI from these actions (hanoi-3 unless told). */
function cliEpisode(id: string, actions: string[], seed = 1, task = 'hanoi-3', env = 'hanoi'): Episode {
  const out = join(scratch, `${id}.jsonl`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'run', '--env', env, '--task', task, '--seed', String(seed), '--input', 'raw', '--out', out], {
    cwd: root,
    input: actions.join('\n') + '\n',
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const e: Episode = JSON.parse(readFileSync(out, 'utf8').trim());
  e.header.id = id;
  for (const s of e.steps) s.episodeId = id;
  return e;
}

/** The episode as if a model had played it: driver, actors, and a model turn on each step. */
function asModel(e: Episode, model = 'fake-model'): Episode {
  const actor = { kind: 'model', name: model };
  e.header.driver = { kind: 'model', name: model, engine: 'fake', protocol: 'smartplay' };
  e.header.actors = [actor];
  for (const s of e.steps) {
    s.actor = actor;
    const messages = [{ role: 'user', content: `What do you do at step ${s.t}?` }];
    s.model = { model, calls: [{ messages, reply: s.action, tokens: { prompt: 10, completion: 5 }, latencyMs: 120, finishReason: 'stop', retries: 0 }], reply: s.action, tokens: { prompt: 10, completion: 5 }, latencyMs: 120 };
  }
  return e;
}

/** The episode as if a person had played it. */
function asHuman(e: Episode): Episode {
  e.header.driver = { kind: 'human' };
  e.header.actors = [{ kind: 'human' }];
  for (const s of e.steps) s.actor = { kind: 'human' };
  return e;
}

async function importEpisodes(page: Page, episodes: Episode[]): Promise<void> {
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'episodes.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(episodes.map((e) => JSON.stringify(e)).join('\n') + '\n') });
  // The import verifies each episode first (in a worker): seconds when another test loads the machine.
  await expect(importMessage(page)).toContainText(`Imported ${episodes.length} episode(s)`, { timeout: 20_000 });
}


/** Click the timeline at step `t` (cells are equal: step 0 … total). */
async function timelinePoint(page: Page, t: number, total: number, nth = 0): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('timeline').nth(nth).boundingBox())!;
  return { x: box.x + ((t + 0.5) * box.width) / (total + 1), y: box.y + box.height / 2 };
}

const position = (page: Page) => page.getByTestId('replay-position');

test('a replay is scrubbed by mouse and keyboard, with its marks visible', async ({ page }) => {
  // An illegal move first (invalid, reward -1), then the solution (progress marks).
  const e = cliEpisode('scrub', [HANOI.BA, ...HANOI3_SOLUTION]);
  await importEpisodes(page, [e]);
  await page.goto('/#/replay/scrub?step=2');
  await expect(position(page)).toHaveText('Step 2 of 8');
  const timeline = page.getByTestId('timeline');
  await expect(timeline.locator('[data-t="1"] [data-mark="invalid"]')).toBeVisible();
  await expect(timeline.locator('[data-mark="progress"]').first()).toBeVisible();
  await expect(timeline.locator('[data-t="1"]')).toHaveAttribute('title', /invalid action, reward -1/);

  // Mouse: a click, then a drag.
  const p4 = await timelinePoint(page, 4, 8);
  await page.mouse.click(p4.x, p4.y);
  await expect(position(page)).toHaveText('Step 4 of 8');
  await expect(page.getByTestId('replay-action')).toHaveText(HANOI3_SOLUTION[2]);
  await expect(page).toHaveURL(/#\/replay\/scrub\?step=4$/);
  const p1 = await timelinePoint(page, 1, 8);
  const p6 = await timelinePoint(page, 6, 8);
  await page.mouse.move(p1.x, p1.y);
  await page.mouse.down();
  await expect(position(page)).toHaveText('Step 1 of 8');
  await expect(page.getByTestId('replay-valid')).toHaveText('no');
  await page.mouse.move(p6.x, p6.y, { steps: 5 });
  await page.mouse.up();
  await expect(position(page)).toHaveText('Step 6 of 8');

  // Keys.
  await page.keyboard.press('ArrowRight');
  await expect(position(page)).toHaveText('Step 7 of 8');
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(position(page)).toHaveText('Step 5 of 8');
  await page.keyboard.press('j');
  await expect(position(page)).toHaveText('Step 6 of 8');
  await page.keyboard.press('End');
  await expect(position(page)).toHaveText('Step 8 of 8');
  await expect(page.getByTestId('replay-score')).toHaveText('3');
  await page.keyboard.press('Home');
  await expect(position(page)).toHaveText('Step 0 of 8');
  await expect(timeline).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByTestId('replay-diff')).toHaveCount(0);

  // Autoplay at 8×: it runs to the end and stops.
  await page.getByTestId('replay-speed').selectOption('8');
  await page.getByTestId('replay-play').click();
  await expect(position(page)).toHaveText('Step 8 of 8', { timeout: 5000 });
  await expect(page.getByTestId('replay-play')).toHaveText(/Play/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('replay-diff')).toContainText('+ - C: |bottom, [2, 1], top|');
  await screens(page, 'replay');
});

test('a model step shows the exact messages and raw reply beside the visual view', async ({ page }) => {
  await importEpisodes(page, [asModel(cliEpisode('model-view', HANOI3_SOLUTION.slice(0, 3)))]);
  await page.goto('/#/replay/model-view?step=2');
  const calls = page.getByTestId('replay-model');
  await expect(calls).toContainText('What do you do at step 2?');
  await expect(calls.getByTestId('model-reply')).toHaveText(HANOI3_SOLUTION[1]);
  const board = await page.locator('.board').boundingBox();
  const side = await calls.boundingBox();
  expect(side!.x).toBeGreaterThan(board!.x + board!.width - 1); // beside, not below
  await screens(page, 'replay-model');
});

test('two episodes side by side: synchronised stepping and the divergence mark on the right step', async ({ page }) => {
  const a = asHuman(cliEpisode('cmp-a', HANOI3_SOLUTION));
  // Same first two moves, then a different third one.
  const b = asModel(cliEpisode('cmp-b', [HANOI3_SOLUTION[0], HANOI3_SOLUTION[1], HANOI.BC, HANOI.CB, HANOI.BC]));
  await importEpisodes(page, [a, b]);
  await page.goto('/#/replay/cmp-a');
  await page.getByTestId('compare-link').click();
  await expect(page.getByTestId('compare-pair')).toHaveText('Compare the best human with fake-model');
  await page.getByTestId('compare-pair').click();
  await expect(page).toHaveURL(/#\/compare\/cmp-a\/cmp-b$/);
  await expect(page.getByTestId('compare-summary')).toContainText('step 3');
  const columns = page.getByTestId('compare-episode');
  await expect(columns).toHaveCount(2);
  for (const k of [0, 1]) {
    await expect(columns.nth(k).locator('[data-t="3"] [data-mark="flag"]')).toBeVisible();
    await expect(columns.nth(k).locator('[data-mark="flag"]')).toHaveCount(1);
    await expect(columns.nth(k).locator('[data-mark="loop"]')).toHaveCount(k === 0 ? 0 : 1); // b's step 5 repeats step 3's observation
  }
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('compare-position')).toHaveText('Step 2 of 7');
  await expect(columns.nth(0).getByTestId('compare-action')).toHaveText(HANOI3_SOLUTION[1]);
  await expect(columns.nth(1).getByTestId('compare-action')).toHaveText(HANOI3_SOLUTION[1]);
  await page.keyboard.press('j');
  await expect(columns.nth(0).getByTestId('compare-action')).toHaveText(HANOI3_SOLUTION[2]);
  await expect(columns.nth(1).getByTestId('compare-action')).toHaveText(HANOI.BC);
  await expect(columns.nth(1).getByTestId('compare-action')).toHaveClass(/differs/);
  // A click on either timeline moves both.
  const p5 = await timelinePoint(page, 5, 5, 1);
  await page.mouse.click(p5.x, p5.y);
  await expect(page.getByTestId('compare-position')).toHaveText(/^Step 5 of 7$/);
  await page.keyboard.press('End');
  await expect(columns.nth(1)).toContainText('This episode ended after step 5.');
  await page.keyboard.press('d');
  await expect(page.getByTestId('compare-position')).toHaveText('Step 3 of 7');
  await expect(page).toHaveURL(/#\/compare\/cmp-a\/cmp-b\?step=3$/);
  await screens(page, 'compare');
});

test('verification: an untouched episode passes and a tampered one fails at the tampered step', async ({ page }) => {
  // Importing now verifies too (on by default), which takes a while on a loaded machine.
  test.setTimeout(60_000);
  const good = cliEpisode('verify-good', HANOI3_SOLUTION);
  const bad = cliEpisode('verify-bad', HANOI3_SOLUTION, 2);
  bad.steps[3].observation = bad.steps[3].observation.replace('[2]', '[2, 9]');
  await importEpisodes(page, [good, bad]);

  await page.goto('/#/replay/verify-good');
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('verify-result')).toHaveText('✓ Verified: all 7 steps match the environment.');

  await page.goto('/#/replay/verify-bad');
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('verify-result')).toContainText('✗ Diverges at step 4 (observation).');
  await expect(page.getByTestId('verify-recorded')).toHaveText(bad.steps[3].observation);
  await expect(page.getByTestId('verify-expected')).toHaveText(good.steps[3].observation); // Hanoi's observations do not depend on the seed
  await expect(page.getByTestId('timeline').locator('[data-t="4"] [data-mark="flag"]')).toBeVisible();
  await page.getByRole('button', { name: 'Go to step 4' }).click();
  await expect(position(page)).toHaveText('Step 4 of 7');
  await screens(page, 'verify');
});

function storedStepsOf(page: Page, id: string): Promise<Record<string, any>[]> {
  return page.evaluate(
    (id) =>
      new Promise((resolve) => {
        const open = indexedDB.open('agentplay');
        open.onsuccess = () => {
          const req = open.result.transaction('steps').objectStore('steps').index('by-episode').getAll(id);
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result);
          };
        };
      }),
    id,
  );
}

test('a person takes over a model run at step 3; the new episode records the branch and who acted', async ({ page }) => {
  await importEpisodes(page, [asModel(cliEpisode('handoff-model', HANOI3_SOLUTION.slice(0, 5)))]);
  await page.goto('/#/replay/handoff-model?step=3');
  await page.getByTestId('take-over').click();
  await expect(page.getByTestId('step-count')).toContainText('3 /');
  await act(page, HANOI3_SOLUTION[3], 4);
  await expect(page).toHaveURL(/#\/resume\//);
  const newId = decodeURIComponent(page.url().split('#/resume/')[1]);
  await expect.poll(async () => (await storedStepsOf(page, newId)).length).toBe(4);
  const header = (await storedHeaders(page)).find((h) => h.id === newId)!;
  expect(header.branch).toEqual({ episodeId: 'handoff-model', step: 3 });
  expect(header.actors).toEqual([{ kind: 'model', name: 'fake-model' }, { kind: 'human' }]);
  const steps = (await storedStepsOf(page, newId)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.actor.kind)).toEqual(['model', 'model', 'model', 'human']);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION.slice(0, 4));

  // Its replay shows the hand-off on the timeline.
  await page.goto(`/#/replay/${encodeURIComponent(newId)}?step=4`);
  await expect(page.getByTestId('replay-summary')).toContainText('continues episode handoff- from step 3');
  await expect(page.getByTestId('replay-actor')).toHaveText('person');
  await expect(page.getByTestId('replay-handoff')).toBeVisible();
  await expect(page.getByTestId('timeline').locator('[data-t="4"]')).toHaveClass(/handoff/);
});

test('a driver continues a person\'s run from step 2 (Watch with a branch)', async ({ page }) => {
  await importEpisodes(page, [asHuman(cliEpisode('handoff-person', HANOI3_SOLUTION.slice(0, 4)))]);
  await page.goto('/#/replay/handoff-person?step=2');
  await page.getByTestId('driver-continue').click();
  await page.getByLabel('Oracle (privileged: sees the hidden state)').check();
  await page.getByLabel('Pause between actions (ms)').fill('0');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  const newId = decodeURIComponent(page.url().split('#/resume/')[1]);
  await expect.poll(async () => (await storedStepsOf(page, newId)).length).toBe(7);
  const header = (await storedHeaders(page)).find((h) => h.id === newId)!;
  expect(header.branch).toEqual({ episodeId: 'handoff-person', step: 2 });
  expect(header.actors.map((a: { kind: string }) => a.kind)).toEqual(['human', 'oracle']);
  const steps = (await storedStepsOf(page, newId)).sort((a, b) => a.t - b.t);
  expect(steps.map((s) => s.actor.kind)).toEqual(['human', 'human', 'oracle', 'oracle', 'oracle', 'oracle', 'oracle']);
  expect(steps.map((s) => s.action)).toEqual(HANOI3_SOLUTION);
});

test('a share link opens read-only in a fresh browser context and shows the same steps', async ({ page, browser }) => {
  await importEpisodes(page, [cliEpisode('shared', [HANOI.BA, ...HANOI3_SOLUTION])]);
  await page.goto('/#/replay/shared?step=5');
  const action = await page.getByTestId('replay-action').textContent();
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/#\/shared\/[A-Za-z0-9_-]+$/);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(`${url}?step=5`);
  await expect(other.getByTestId('shared-notice')).toBeVisible();
  await expect(other.getByTestId('replay-position')).toHaveText('Step 5 of 8');
  await expect(other.getByTestId('replay-action')).toHaveText(action!);
  await expect(other.getByTestId('replay-summary')).toContainText('read-only');
  await expect(other.getByTestId('take-over')).toHaveCount(0);
  await other.keyboard.press('End');
  await expect(other.getByTestId('replay-score')).toHaveText('3');
  await other.getByTestId('verify').click();
  await expect(other.getByTestId('verify-result')).toContainText('Verified');
  expect(await other.evaluate(() => indexedDB.databases())).toEqual([]);
  await screens(other, 'shared');
  await fresh.close();
});

test('an AgentBoard log imports as model episodes and is verified on import; a tampered one names its step', async ({ page }) => {
  test.setTimeout(90_000);
  const make = (name: string, args: string[]) => {
    const file = join(scratch, name);
    mkdirSync(join(file, '..'), { recursive: true });
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/make-agentboard-log.ts', file, ...args], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return file;
  };
  const good = make('babyai.jsonl', ['0', '1']);
  await page.goto('/#/episodes');
  // On by default: episodes of environments that replay exactly are checked as they come in.
  await expect(page.getByTestId('verify-on-import')).toBeChecked();
  await page.getByTestId('log-model').fill('gpt-4');
  await page.getByTestId('import-input').setInputFiles(good);
  await expect(page.getByRole('status')).toHaveText(/Imported 2 episode\(s\) from babyai.jsonl \(an AgentBoard log\)\. Verified 2 of 2\./, { timeout: 15_000 });
  await expect(page.getByTestId('episode-list')).toContainText('gpt-4 (model)');

  const bad = make('tampered/babyai.jsonl', ['--tamper', '1', '2']);
  await page.getByTestId('log-model').fill('gpt-5');
  await page.getByTestId('import-input').setInputFiles(bad);
  await expect(page.getByRole('alert')).toContainText('Verified 0 of 1. babyai-2', { timeout: 15_000 });
  await expect(page.getByRole('alert')).toContainText('diverges at step 2 (observation)');
  await expect(page.getByRole('alert')).toContainText('recorded You see a purple dragon.');

  // The failure stays visible after the message is gone: in the list (after a reload), in the replay; and it can be hidden.
  await page.reload();
  const marked = page.getByTestId('episode-list').locator('tr', { has: page.getByTestId('verify-failed') });
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('gpt-5 (model)');
  await expect(page.getByTestId('episode-list').locator('tbody tr')).toHaveCount(3);
  await page.getByTestId('hide-failed').check();
  await expect(page.getByTestId('episode-list').locator('tbody tr')).toHaveCount(2);
  await expect(page.getByTestId('verify-failed')).toHaveCount(0);
  await page.getByTestId('hide-failed').uncheck();
  await marked.getByRole('link', { name: 'Replay' }).click();
  await expect(page.getByTestId('replay-verify-failed')).toContainText('diverges at step 2');

  // Scores say so too, and can leave it out.
  await page.goto('/#/scores');
  await expect(page.getByTestId('scores-failed-verification')).toContainText('1 of these episode(s) failed verification');
  await expect(page.getByTestId('scores-summary')).toContainText('of 3 chosen');
  await page.getByTestId('scores-without-failed').check();
  await expect(page.getByTestId('scores-summary')).toContainText('of 2 chosen (without episodes that failed verification)');
  await screens(page, 'scores-failed-verification');

  // The mark is kept with the episode: exported, and a fresh browser importing the file (without verifying) shows it.
  await page.goto('/#/episodes');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all' }).click();
  const exported = readFileSync(await (await download).path(), 'utf8');
  expect(exported.split('\n').filter((l) => l.includes('"verification":{"at"')).length).toBe(3);
  const other = await (await page.context().browser()!.newContext()).newPage();
  await other.goto('/#/episodes');
  await other.getByTestId('verify-on-import').uncheck();
  await other.getByTestId('import-input').setInputFiles({ name: 'export.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(exported) });
  await expect(other.getByRole('status')).toContainText('Imported 3 episode(s)');
  const kept = other.getByTestId('episode-list').locator('tr', { has: other.getByTestId('verify-failed') });
  await expect(kept).toHaveCount(1);
  await expect(kept).toContainText('gpt-5 (model)');
  await other.context().close();
});

test('verify on import checks only environments that replay exactly, and says why the others were not checked', async ({ page }) => {
  test.setTimeout(60_000);
  // A Hanoi episode, and the same actions labelled as an episode of the DB task (whose statements run under a wall-clock limit):
  // verified, it would diverge at once; by default it is not verified, and the list says why.
  const hanoi = cliEpisode('exact-hanoi', [HANOI.AC, HANOI.AB]);
  const db = cliEpisode('inexact-db', [HANOI.AC]);
  db.header.env = 'db';
  db.header.task = 'db-dev-003';
  await page.goto('/#/episodes');
  await expect(page.getByTestId('verify-on-import')).toBeChecked();
  await expect(page.getByTestId('verify-inexact')).not.toBeChecked();
  await page.getByTestId('import-input').setInputFiles({ name: 'two.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${JSON.stringify(hanoi)}\n${JSON.stringify(db)}\n`) });
  const status = page.getByRole('status');
  await expect(status).toContainText('Verified 1 of 1.', { timeout: 15_000 });
  await expect(status).toContainText('Not verified: db-dev-003 (inexact-db), because a statement is stopped after 2 s of wall-clock time');
  const row = page.getByTestId('episode-list').locator('tr[data-episode="inexact-db"]');
  await expect(row.getByTestId('verify-skipped')).toContainText('not verified on import: a statement is stopped after 2 s');
  await expect(page.getByTestId('verify-failed')).toHaveCount(0);
  await screens(page, 'episodes-verify-skipped');
  await row.getByRole('link', { name: 'Replay' }).click();
  await expect(page.getByTestId('replay-verify-skipped')).toContainText('not verified on import');
  // Checked from its replay, as the import's message suggests: the mark on the stored episode follows the verdict.
  await page.getByTestId('verify').click();
  await expect(page.getByTestId('verify-result')).toContainText('Diverges at step 0');
  await expect(page.getByTestId('replay-verify-failed')).toContainText('diverges at step 0');
  await expect(page.getByTestId('replay-verify-skipped')).toHaveCount(0);
  await screens(page, 'replay-verify-marks-episode');
  await page.goto('/#/episodes');
  await expect(page.getByTestId('episode-list').locator('tr[data-episode="inexact-db"]').getByTestId('verify-failed')).toHaveCount(1);
  await expect(page.getByTestId('episode-list').locator('tr[data-episode="inexact-db"]').getByTestId('verify-skipped')).toHaveCount(0);
  // The Hanoi episode, verified on import, says so in its replay.
  await page.getByTestId('episode-list').locator('tr[data-episode="exact-hanoi"]').getByRole('link', { name: 'Replay' }).click();
  await expect(page.getByTestId('replay-verified')).toBeVisible();
});

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.jsonl': 'application/x-ndjson', '.svg': 'image/svg+xml' };

/** A plain static file server (no special headers), like any static host. */
function serveStatic(dir: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname));
    if (path.endsWith('/')) path += 'index.html';
    const file = join(dir, path);
    try {
      if (!file.startsWith(dir) || !statSync(file).isFile()) throw new Error();
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })));
}

test('the demo build serves from a subfolder of a static server and replays its episodes with IndexedDB unused', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = cliEpisode('demo-a', HANOI3_SOLUTION);
  const b = asModel(cliEpisode('demo-b', [HANOI3_SOLUTION[0], HANOI.CB, HANOI.BC]));
  writeFileSync(join(scratch, 'demo.jsonl'), [a, b].map((e) => JSON.stringify(e)).join('\n') + '\n');
  const site = join(scratch, 'site');
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-demo.ts', '--episodes', join(scratch, 'demo.jsonl'), '--out', join(site, 'sub', 'demo')], { cwd: root, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  expect(built.stdout).toContain('Built the demo with 2 episode(s)');
  const { server, port } = await serveStatic(site);
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${port}/sub/demo/`);
    await expect(page.getByRole('heading', { name: 'Episodes in this demo' })).toBeVisible();
    await expect(page.getByTestId('gallery-replay')).toHaveCount(2);
    await screens(page, 'demo-gallery');
    await page.getByTestId('gallery-replay').first().click();
    await expect(page.getByTestId('replay-summary')).toContainText('read-only');
    await page.keyboard.press('End');
    await expect(page.getByTestId('replay-position')).toHaveText(/Step (7 of 7|3 of 3)/);
    await page.goto(`http://127.0.0.1:${port}/sub/demo/#/compare/demo-a/demo-b`);
    await expect(page.getByTestId('compare-summary')).toContainText('step 2');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('compare-position')).toHaveText('Step 1 of 7');
    // Pages that would record fall back to the gallery.
    await page.goto(`http://127.0.0.1:${port}/sub/demo/#/play/hanoi/hanoi-3`);
    await expect(page.getByRole('heading', { name: 'Episodes in this demo' })).toBeVisible();
    expect(await page.evaluate(() => indexedDB.databases())).toEqual([]);
  } finally {
    await context.close();
    server.close();
  }
});
