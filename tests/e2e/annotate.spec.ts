import { expect, test, type Page } from '@playwright/test';
import { axe, storedSteps, waitForStoredSteps, screens } from './helpers.ts';

/**
 * Issue 13, by keyboard only: an annotator writes a two-subgoal set for Hanoi on a
 * replay, sees it re-score the stored episodes, edits a pattern, checks the set by
 * playing and flags a step; a second annotator writes another set; agreement shows κ and
 * its queue jumps to the contested step; a rating study with two raters gives κ and r.
 */



/** Play Hanoi3Disk with the number keys (1 AB, 2 AC, 3 BA, 4 BC, 5 CA, 6 CB). */
async function playByKeys(page: Page, seed: number, keys: string): Promise<void> {
  await page.goto(`/#/play/hanoi/hanoi-3?seed=${seed}`);
  await expect(page.getByTestId('step-count')).toContainText('0 /');
  for (const [i, k] of [...keys].entries()) {
    await page.keyboard.press(k);
    await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${i + 1} /`));
  }
}

async function setAnnotator(page: Page, name: string): Promise<void> {
  await page.keyboard.press('a');
  await expect(page.getByTestId('annotator')).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('draft-author')).toHaveText(name);
}

const firedCounts = (page: Page) => page.getByTestId('fired-count').allTextContents();

test('annotators write, check and compare Hanoi subgoal sets, and rate trajectories, by keyboard', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  // Three stored episodes: solved; A→C, A→B then given up; A→B, B→A then given up.
  await playByKeys(page, 1, '2162342');
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await waitForStoredSteps(page, 7);
  await playByKeys(page, 2, '21');
  await page.getByRole('button', { name: 'Give up…' }).press('Enter');
  await page.getByRole('button', { name: 'Yes, give up' }).press('Enter');
  await expect(page.getByTestId('outcome')).toBeVisible();
  await playByKeys(page, 3, '13');
  await page.getByRole('button', { name: 'Give up…' }).press('Enter');
  await page.getByRole('button', { name: 'Yes, give up' }).press('Enter');
  await expect(page.getByTestId('outcome')).toBeVisible();
  await waitForStoredSteps(page, 11);

  // Alice opens the task's subgoals and the solved episode (the oldest: third in the list).
  await page.goto('/#/annotate/hanoi/hanoi-3');
  await expect(page.getByTestId('annotate-episodes').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('key-legend')).toContainText('select an episode');
  await setAnnotator(page, 'alice');
  await screens(page, 'annotate-task-empty');
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await page.keyboard.press('o');
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 0 of 7');

  // A subgoal at step 1 and one at the last step, each with a proposed pattern.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 1 of 7');
  await page.keyboard.press('m');
  await expect(page.getByTestId('subgoal-row')).toHaveCount(1);
  await page.keyboard.press('End');
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 7 of 7');
  await page.keyboard.press('m');
  await expect(page.getByTestId('subgoal-row')).toHaveCount(2);
  await expect(page.getByTestId('step-progress')).toContainText('100%');
  // Re-scored over the three stored episodes: the last subgoal is reached only in the solved one.
  await expect(page.getByTestId('check-summary')).toContainText('Re-scored 3 stored episode(s)');
  const before = await firedCounts(page);
  expect(before[1]).toBe('1');
  await screens(page, 'annotate-episode');

  // Edit subgoal 1's pattern: only episodes that moved a disk onto rod C reach it.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('e');
  await expect(page.getByTestId('subgoal-input')).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('to the top of rod c');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('subgoal-matcher').first()).toHaveText('to the top of rod c');
  await expect.poll(() => firedCounts(page)).toEqual(['2', '1']);
  expect(before[0]).not.toBe('2');
  await page.keyboard.press('s');
  await expect(page.getByTestId('annotate-message')).toContainText('Saved as version 1 by alice (2 subgoals)');

  // Check by playing: the draft scores each step live; flag the first step.
  await page.keyboard.press('p');
  await expect(page.getByTestId('live-progress')).toHaveText('0%');
  await page.keyboard.press('2'); // A→C reaches subgoal 1
  await expect(page.getByTestId('live-progress')).toHaveText('50%');
  await page.keyboard.press('f');
  await expect(page.getByTestId('flag-note')).toBeFocused();
  await page.keyboard.type('moving onto C is not progress yet');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('check-message')).toHaveText('Flagged step 1.');
  await expect(page.getByTestId('flags')).toContainText('moving onto C is not progress yet');
  await screens(page, 'annotate-check');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('flags')).toContainText('step 1');
  await expect(page.getByTestId('annotate-episodes').locator('li')).toHaveCount(4);

  // Bob writes his own set on the same solved episode, at steps 2 and 7.
  await setAnnotator(page, 'bob');
  await expect(page.getByTestId('subgoal-row')).toHaveCount(0);
  for (let i = 0; i < 3; i++) await page.keyboard.press(']');
  await page.keyboard.press('o');
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 0 of 7');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('m');
  await page.keyboard.press('End');
  await page.keyboard.press('m');
  await expect(page.getByTestId('subgoal-row')).toHaveCount(2);
  await page.keyboard.press('s');
  await expect(page.getByTestId('annotate-message')).toContainText('Saved as version 2 by bob');

  // Agreement: κ per subgoal, and the queue jumps to a contested step.
  await page.keyboard.press('g');
  await expect(page.getByTestId('agreement-compares')).toContainText('v1 (alice), v2 (bob)');
  expect(await page.getByTestId('kappa').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('agreement-subgoals')).toContainText("Cohen's κ");
  const first = page.getByTestId('disagreements').locator('li').first();
  await expect(first).toBeVisible();
  const [, episode, step] = /episode (\w+), step (\d+)/.exec((await first.textContent()) ?? '') ?? [];
  await screens(page, 'annotate-agreement');
  await page.keyboard.press('Enter');
  // It opens the set and subgoal the disagreement is about (read-only), naming the other side.
  await expect(page).toHaveURL(new RegExp(`#/annotate/hanoi/hanoi-3/${episode}[\\w-]*\\?step=${step}&set=hanoi%2Fhanoi-3%2Fv[12]&subgoal=\\d&vs=hanoi%2Fhanoi-3%2Fv[12]`));
  await expect(page.getByTestId('annotate-position')).toHaveText(new RegExp(`^Step ${step} of`));
  await expect(page.getByTestId('viewed-set')).toContainText('(read-only)');
  await expect(page.getByTestId('viewed-subgoal').and(page.locator('[aria-current=true]'))).toHaveCount(1);
  // Back to the draft at the same step: subgoal 1 selected; J walks on to its next finding.
  await page.getByTestId('back-to-draft').click();
  await expect(page.getByTestId('subgoal-row').first()).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(page).not.toHaveURL(new RegExp(`${episode}[\\w-]*\\?step=${step}&`));
  await expect(page.getByTestId('subgoal-row').first()).toHaveAttribute('aria-current', 'true');

  // The rating study: three trajectories, two raters, blind to scores.
  await page.keyboard.press('r');
  await expect(page.getByText('No study yet')).toBeVisible();
  await page.keyboard.press('n');
  await expect(page.getByTestId('rate-position')).toContainText('trajectory 1 of 3');
  await expect(page.getByTestId('rate-trajectory')).not.toContainText('score');
  // The task's goal is in view, not only inside the folded instructions.
  await expect(page.getByTestId('rate-goal')).toBeVisible();
  await expect(page.getByTestId('rate-goal')).not.toContainText('see the instructions below');
  await screens(page, 'annotate-rate');
  for (const k of ['1', '3', '5']) await page.keyboard.press(k);
  await expect(page.getByTestId('rate-position')).toContainText('rated 3');
  await page.keyboard.press('a');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('alice');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-position')).toContainText('Rater alice · trajectory 1 of 3 · rated 0');
  for (const k of ['2', '3', '5']) await page.keyboard.press(k);
  await expect(page.getByTestId('rate-position')).toContainText('rated 3');
  await page.keyboard.press('v');
  const results = page.getByTestId('rate-results');
  await expect(results).toContainText('2 rater(s) · 3 trajectories rated by all');
  await expect(page.getByTestId('study-kappa')).toHaveText(/^-?\d\.\d{3}$/);
  await expect(page.getByTestId('study-pearson')).toHaveCount(2);
  await expect(page.getByTestId('study-pearson').first()).toHaveText(/^-?\d\.\d{3}$/);
  await screens(page, 'annotate-rate-results');
});

test('an AgentBoard test.jsonl row imports as a set, exports with its author, and once chosen scores new episodes', async ({ page }) => {
  const row = '{"id": 0, "task": "hanoi", "goal": "Move every disk to rod C", "subgoals": ["to the top of rod c", "C: |bottom, [2, 1, 0]"], "difficulty": "easy"}\n';
  await page.goto('/#/annotate/hanoi/hanoi-3');
  await expect(page.getByText('No subgoals yet')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('i');
  await (await chooser).setFiles({ name: 'test.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(row) });
  await expect(page.getByTestId('annotate-message')).toHaveText('Imported 1 set(s) from test.jsonl.');
  await expect(page.getByTestId('sets')).toContainText('v1');

  // The row comes back as it was, plus who made version 1 here (a field AgentBoard ignores).
  const download = page.waitForEvent('download');
  await page.keyboard.press('b');
  const file = await (await download).path();
  const { readFileSync } = await import('node:fs');
  const exported = readFileSync(file, 'utf8');
  expect(exported.startsWith(row.slice(0, -2) + ', "agentplay": {"task": "hanoi-3", "author": "annotator-1", "version": 1, ')).toBe(true);

  // Choose it to score the task (C focuses the choice; the arrow key picks the set).
  await page.keyboard.press('c');
  await expect(page.getByTestId('scoring-set')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('scoring-set')).toHaveValue('hanoi/hanoi-3/v1');

  await page.goto('/#/play/hanoi/hanoi-3?seed=5');
  await expect(page.getByTestId('step-count')).toContainText('0 /');
  // The Play page says which set scores it.
  await expect(page.getByTestId('scoring-set-note')).toContainText('Subgoal set scoring this task: version 1 by annotator-1');
  await page.keyboard.press('2');
  await waitForStoredSteps(page, 1);
  const [step] = (await storedSteps(page)) as unknown as { subgoalProgress?: unknown }[];
  expect(step.subgoalProgress).toEqual({ set: 'hanoi/hanoi-3/v1', progress: 0.5 });
});

test("AgentBoard's own set is version 1 of its tasks, and its goal-literal predicates are answered from replayed states", async ({ page }) => {
  await page.goto('/#/play/pddl/pddl-0?seed=0');
  await expect(page.getByTestId('step-count')).toContainText('0 /');
  await page.keyboard.press('1');
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await waitForStoredSteps(page, 1);

  await page.goto('/#/annotate/pddl/pddl-0');
  await expect(page.getByTestId('sets')).toContainText('agentboard');
  await expect(page.getByTestId('draft-author')).toHaveText('annotator-1');
  await expect(page.getByText('from version 1')).toBeVisible();
  await expect(page.getByTestId('check-summary')).toContainText('Re-scored 1 stored episode(s)');
  await expect(page.getByTestId('check-summary')).not.toContainText('Predicates nobody answered');
  expect(await page.getByTestId('subgoal-row').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('subgoal-matcher').first()).toHaveText(/^@goal-literal text=/);
});

test('AgentBoard test.jsonl round trip: two annotators\' versions and AgentBoard\'s own set come back as they were, byte for byte', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const { readFileSync } = await import('node:fs');
  await page.goto('/#/annotate/babyai/babyai-0');
  await expect(page.getByText('from version 1')).toBeVisible();
  for (const [name, version] of [['alice', 2], ['bob', 3]] as const) {
    await setAnnotator(page, name);
    await page.keyboard.press('s');
    await expect(page.getByTestId('annotate-message')).toContainText(`Saved as version ${version} by ${name}`);
  }
  const download = page.waitForEvent('download');
  await page.keyboard.press('b');
  const first = readFileSync(await (await download).path(), 'utf8');
  const rows = first.trim().split('\n').map((l) => JSON.parse(l));
  // Every row is problem 0 with its goal; AgentBoard's own row has no authorship, ours do.
  expect(rows.map((r) => [r.id, r.task, r.agentplay?.author ?? null, r.agentplay?.version ?? null])).toEqual([
    [0, 'babyai', null, null],
    [0, 'babyai', 'alice', 2],
    [0, 'babyai', 'bob', 3],
  ]);
  expect(rows.every((r) => r.goal === rows[0].goal && r.goal.length > 0)).toBe(true);

  // A colleague's fresh browser imports the file: the same sets, same authors and versions; none relabelled.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/#/annotate/babyai/babyai-0');
  await expect(other.getByText('from version 1')).toBeVisible();
  const chooser = other.waitForEvent('filechooser');
  await other.keyboard.press('i');
  await (await chooser).setFiles({ name: 'test.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(first) });
  await expect(other.getByTestId('annotate-message')).toHaveText("Imported 2 set(s) from test.jsonl; 1 row(s) are AgentBoard's own set, already built in.");
  await expect(other.getByTestId('sets').locator('tbody tr')).toHaveText([/v1\s*agentboard/, /v2\s*alice/, /v3\s*bob/]);
  const again = other.waitForEvent('download');
  await other.keyboard.press('b');
  expect(readFileSync(await (await again).path(), 'utf8')).toBe(first);
  await other.context().close();
});

/** Two Hanoi episodes: solved (seed 1), and A→C, A→B given up (seed 2). */
async function twoEpisodes(page: Page): Promise<void> {
  await playByKeys(page, 1, '2162342');
  await expect(page.getByTestId('outcome')).toContainText('Solved!');
  await playByKeys(page, 2, '21');
  await page.getByRole('button', { name: 'Give up…' }).press('Enter');
  await page.getByRole('button', { name: 'Yes, give up' }).press('Enter');
  await expect(page.getByTestId('outcome')).toBeVisible();
  await waitForStoredSteps(page, 9);
}

const setLine = (author: string, version: number, patterns: string[]) =>
  JSON.stringify({ format: 1, env: 'hanoi', task: 'hanoi-3', author, version, parentVersion: null, createdAt: '2026-01-01T00:00:00.000Z', crediting: 'subgoal', subgoals: patterns.map((p) => ({ label: p, matcher: { kind: 'pattern', pattern: p } })) }) + '\n';

test('agreement pairs two annotators\' subgoals by what they match, not by position, and keeps its selection across reloads', async ({ page }) => {
  test.setTimeout(90_000);
  await twoEpisodes(page);
  // Alice: "onto C" then "solved"; Bob (v3) lists them the other way round, plus one that never fires; Bob's v2 is a draft of one subgoal.
  const onto = 'to the top of rod c';
  const solved = 'C: |bottom, [2, 1, 0]';
  const file = setLine('alice', 1, [onto, solved]) + setLine('bob', 2, [solved]) + setLine('bob', 3, [solved, onto, 'a purple dragon']);
  await page.goto('/#/annotate/hanoi/hanoi-3');
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import…').click();
  await (await chooser).setFiles({ name: 'sets.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  await expect(page.getByTestId('annotate-message')).toContainText('Imported 3 set(s)');

  await page.goto('/#/agreement/hanoi/hanoi-3');
  await expect(page.getByTestId('agreement-compares')).toContainText('v1 (alice), v3 (bob)');
  const rows = page.getByTestId('agreement-subgoals').locator('tbody tr');
  // Alice's 1 pairs with Bob's 2 and her 2 with his 1: each pair reached on the same steps, κ undefined-free.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`1. ${onto}`);
  await expect(rows.nth(0)).toContainText(`2. ${onto}`);
  await expect(rows.nth(1)).toContainText(`2. ${solved}`);
  await expect(rows.nth(1)).toContainText(`1. ${solved}`);
  await expect(rows.nth(0).locator('td').nth(3)).toHaveText('2 / 2 (100%)');
  // Both reach "onto C" in every episode: κ has nothing to beat, and says so in words.
  await expect(rows.nth(0).getByTestId('kappa')).toHaveText('not defined: both reached it in every episode (100% agreement)');
  await expect(page.locator('main')).not.toContainText(/\bundefined\b|NaN/);
  // Paired subgoals agree everywhere: only the unpaired dragon could disagree, and it never fires.
  await expect(page.getByTestId('disagreements').locator('li')).toHaveCount(0);
  await expect(page.getByTestId('unmatched')).toContainText('v3 (bob) 3. a purple dragon');
  await expect(page.getByTestId('set-within')).toHaveText('3 / 3 (100%)');
  await screens(page, 'annotate-agreement-aligned');

  // By keyboard: tick Bob's v2 with Space and untick v3; + then works at once (no Tab needed to leave the box).
  const boxes = page.locator('fieldset.choose input[type=checkbox]');
  await boxes.nth(1).focus();
  await page.keyboard.press('Space');
  await boxes.nth(2).focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('agreement-compares')).toContainText('v1 (alice), v2 (bob)');
  await expect(page.getByTestId('agreement-k')).toHaveValue('1');
  await page.keyboard.press('+');
  await expect(page.getByTestId('agreement-k')).toHaveValue('2');
  await page.reload();
  await expect(page.getByTestId('agreement-compares')).toContainText('v1 (alice), v2 (bob)');
  await expect(boxes.nth(2)).not.toBeChecked();
});

test('the disagreement queue pairs subgoals as the κ table does, and opens the set, episode and step it is about', async ({ page }) => {
  test.setTimeout(90_000);
  await twoEpisodes(page);
  // Carol marks "disks 1 and 0 on B" (solved episode, step 3); Dave "disk 1 alone on B" (step 2 in both episodes).
  const carol = 'B: |bottom, [1, 0]';
  const dave = 'B: |bottom, [1]';
  await page.goto('/#/annotate/hanoi/hanoi-3');
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import…').click();
  await (await chooser).setFiles({ name: 'sets.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(setLine('carol', 1, [carol]) + setLine('dave', 2, [dave])) });
  await expect(page.getByTestId('annotate-message')).toContainText('Imported 2 set(s)');

  await page.goto('/#/agreement/hanoi/hanoi-3');
  await expect(page.getByTestId('agreement-subgoals').locator('tbody tr')).toHaveCount(1);
  // Within ±1 in the solved episode (steps 3 and 2); in the other only Dave's is reached: one disagreement, not three by position.
  const items = page.getByTestId('disagreements').locator('li');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`step 2: v2 (dave) 1. ${dave}: reached at step 2 · v1 (carol) 1. ${carol}: never reached`);
  const [, episode] = /episode (\w+)/.exec((await items.first().textContent()) ?? '') ?? [];
  await screens(page, 'annotate-agreement-queue');
  await axe(page, 'agreement with its queue');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/annotate/hanoi/hanoi-3/${episode}[\\w-]*\\?step=2&set=hanoi%2Fhanoi-3%2Fv2&subgoal=1&vs=hanoi%2Fhanoi-3%2Fv1&vsSubgoal=1$`));
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 2 of 2');
  await expect(page.getByTestId('viewed-set')).toContainText('Set v2 by dave (read-only)');
  await expect(page.getByTestId('disagreement')).toContainText(`v2 by dave's subgoal 1 “${dave}” is reached at step 2; v1 by carol's paired subgoal 1 “${carol}” is never reached here.`);
  await expect(page.getByTestId('viewed-subgoal').first()).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('step-progress')).toContainText('Progress under v2 by dave after this step: 100%');
  // Read-only: the legend lists no editor keys (they do nothing here), only stepping, the view and the way back.
  await expect(page.getByTestId('key-legend')).toContainText('step through the episode');
  await expect(page.getByTestId('key-legend')).not.toContainText('edit its matcher');
  await expect(page.getByTestId('key-legend')).not.toContainText('a subgoal is reached at this step');
  await screens(page, 'annotate-disagreement');
  await axe(page, 'episode page showing a set read-only');
  // Stepping keeps the viewed set in the address (a reload shows the same).
  await page.keyboard.press('ArrowLeft');
  await page.reload();
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 1 of 2');
  await expect(page.getByTestId('viewed-set')).toContainText('Set v2 by dave');
  await page.getByTestId('back-to-draft').click();
  await expect(page.getByTestId('draft-author')).toBeVisible();
  await expect(page.getByTestId('viewed-set')).toHaveCount(0);
  await expect(page.getByTestId('key-legend')).toContainText('edit its matcher');
});

test("checking by playing: the game panel shows the draft's progress, the same figure as the draft, and names the game's own", async ({ page }) => {
  // A draft of AgentBoard's two BabyAI subgoals plus a third: one reached is 1 of 3 for the draft, 1 of 2 for the game's own set.
  const patterns = ['There is a red ball **', ' There is a red ball ** right in front of you 1 steps away.', 'purple dragon'];
  const line = JSON.stringify({ format: 1, env: 'babyai', task: 'babyai-0', author: 'annotator-1', version: 2, parentVersion: 1, createdAt: '2026-01-01T00:00:00.000Z', crediting: 'subgoal', subgoals: patterns.map((p) => ({ label: p, matcher: { kind: 'pattern', pattern: p } })) });
  await page.goto('/#/annotate/babyai/babyai-0');
  const chooser = page.waitForEvent('filechooser');
  await page.getByText('Import…').click();
  await (await chooser).setFiles({ name: 'set.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(line + '\n') });
  await expect(page.getByTestId('annotate-message')).toContainText('Imported 1 set(s)');
  await page.reload();
  await expect(page.getByTestId('subgoal-row')).toHaveCount(3);

  await page.goto('/#/check/babyai/babyai-0');
  await expect(page.getByTestId('live-progress')).toHaveText('0%');
  await expect(page.getByTestId('step-count')).toContainText('0 /');
  await page.keyboard.press('1'); // turn left: a red ball comes into view
  await expect(page.getByTestId('step-count')).toHaveText(/^1 \//);
  await expect(page.getByTestId('live-progress')).toHaveText('33%');
  await expect(page.getByTestId('score')).toHaveText('33%');
  await expect(page.getByTestId('own-score')).toHaveText("AgentBoard's own set (2 subgoals): 50%");
  await screens(page, 'annotate-check-babyai');
  await axe(page, 'checking by playing');
});

test('authoring by touch alone on a phone: mark, a proposal that would duplicate, edit, merge, rename, reorder, delete, save', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await twoEpisodes(page);
  await page.goto('/#/annotate/hanoi/hanoi-3');
  // The key legend is folded; the crediting rule is one plain sentence.
  await expect(page.getByTestId('key-legend')).not.toHaveAttribute('open', '');
  await expect(page.getByText('at most one per step')).toBeVisible();
  // The solved episode is the older one: second in the list.
  await page.getByTestId('annotate-episodes').locator('li').nth(1).getByRole('link').tap();
  await expect(page.getByTestId('annotate-position')).toHaveText('Step 0 of 7');
  await page.getByRole('button', { name: 'Next →' }).tap();
  await page.getByTestId('mark-step').tap();
  await expect(page.getByTestId('subgoal-row')).toHaveCount(1);
  // Marking the same step again must not add a copy of subgoal 1 (the smallest pattern would be the same text).
  await page.getByTestId('mark-step').tap();
  const matchers = await page.getByTestId('subgoal-matcher').allTextContents();
  expect(new Set(matchers).size).toBe(matchers.length);
  await expect(page.getByTestId('subgoal-twin')).toHaveCount(0);
  await expect(page.getByTestId('annotate-message')).toContainText(/skipped “[^”]+” \(same firings as subgoal|No proposal would count at step 1/);
  await page.getByRole('button', { name: 'Next →' }).tap();
  await page.getByRole('button', { name: 'Next →' }).tap();
  await page.getByTestId('mark-step').tap();
  const n = await page.getByTestId('subgoal-row').count();
  expect(n).toBeGreaterThanOrEqual(2);
  await screens(page, 'annotate-touch-marked');
  await page.setViewportSize({ width: 390, height: 844 });

  // Edit the last subgoal's pattern into a copy of the first: the check says so and offers to merge.
  const first = (await page.getByTestId('subgoal-matcher').first().textContent()) ?? '';
  await page.getByTestId('subgoal-label').last().tap();
  await page.getByTestId('edit-matcher').tap();
  await page.getByTestId('subgoal-input').fill(first);
  await page.getByTestId('edit-keep').tap();
  await expect(page.getByTestId('subgoal-twin')).toHaveCount(2);
  await expect(page.getByTestId('subgoal-twin').last()).toContainText('matches on exactly the same steps as subgoal 1');
  await screens(page, 'annotate-touch-duplicate');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('merge').last().tap();
  await expect(page.getByTestId('subgoal-row')).toHaveCount(n - 1);
  await expect(page.getByTestId('subgoal-twin')).toHaveCount(0);

  // Rename, move down, delete, save: buttons only.
  await page.getByTestId('subgoal-label').first().tap();
  await page.getByTestId('rename').tap();
  await page.getByTestId('subgoal-input').fill('first disk onto C');
  await page.getByTestId('edit-keep').tap();
  await expect(page.getByTestId('subgoal-label').first()).toHaveText('first disk onto C');
  if (n - 1 >= 2) {
    await page.getByRole('button', { name: 'Move subgoal 1 down' }).tap();
    await expect(page.getByTestId('subgoal-label').nth(1)).toHaveText('first disk onto C');
    await page.getByTestId('delete-subgoal').tap();
    await expect(page.getByTestId('subgoal-row')).toHaveCount(n - 2);
  }
  await page.getByTestId('save-draft').tap();
  await expect(page.getByTestId('annotate-message')).toContainText('Saved as version 1 by annotator-1');
  await context.close();
});
