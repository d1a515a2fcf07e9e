/**
 * Careless files and dead ends in Chromium (issue 16 item 10): an import that holds fields this
 * app does not know stores the episode and names what it left out; resuming an unfinished
 * episode of a task this page does not know says so instead of loading forever.
 */
import { expect, test } from '@playwright/test';
import { screens } from './helpers.ts';


function episodeLine(id: string, task: string, extra: { header?: object; line?: object; step?: object } = {}): string {
  const header = {
    format: 2,
    id,
    env: 'hanoi',
    task,
    seed: 0,
    driver: { kind: 'human' },
    actors: [{ kind: 'human' }],
    view: 'text',
    maxSteps: 30,
    initialObservation: 'start',
    startedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    appVersion: 'test',
    ...extra.header,
  };
  const step = { episodeId: id, t: 1, action: 'a', observation: 'o', valid: true, reward: 0, score: 0, terminated: false, truncated: false, view: 'text', actor: { kind: 'human' }, ms: 0, at: '2026-01-01T00:00:01.000Z', ...extra.step };
  return JSON.stringify({ format: 'agentplay-episode', version: 2, header, steps: [step], ...extra.line });
}

test('an import names the unknown fields it left out, and stores the rest', async ({ page }) => {
  const text = [
    episodeLine('odd-fields-1', 'hanoi-3', { header: { colour: 'red' }, line: { comment: 'hand-edited' } }),
    episodeLine('odd-fields-2', 'hanoi-3', { step: { mood: 'calm' } }),
  ].join('\n');
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'edited.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text + '\n') });
  // The notice, whether or not verify-on-import has added its report yet (these made-up steps do not replay,
  // so the report turns the notice into an alert; a fast machine gets there before this line looks).
  await expect(page.getByText(/^Imported 2 episode\(s\) from edited\.jsonl\./)).toContainText(
    'Imported 2 episode(s) from edited.jsonl. 3 unknown fields ignored: comment (line 1), header.colour (line 1), steps[0].mood (line 2).',
  );
  await screens(page, 'import-notice');
  // What was stored holds none of them.
  const stored = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('agentplay');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['episodes', 'steps']);
          const out: unknown[] = [];
          tx.objectStore('episodes').getAll().onsuccess = (e) => out.push((e.target as IDBRequest).result);
          tx.objectStore('steps').getAll().onsuccess = (e) => out.push((e.target as IDBRequest).result);
          tx.oncomplete = () => {
            open.result.close();
            resolve(JSON.stringify(out));
          };
        };
      }),
  );
  expect(stored).toContain('odd-fields-2');
  expect(stored).not.toMatch(/colour|hand-edited|mood/);
});

test('resuming an unfinished episode of a task this page does not know says so', async ({ page }) => {
  await page.goto('/#/episodes');
  await page.getByTestId('import-input').setInputFiles({ name: 'lost.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(episodeLine('lost-task-1', 'hanoi-99') + '\n') });
  await expect(page.getByText('Imported 1 episode(s) from lost.jsonl.')).toBeVisible();
  await page.goto('/#/resume/lost-task-1?go=1');
  await expect(page.getByRole('heading', { name: 'Episode not available' })).toBeVisible();
  // The page names the task it does not know (and offers ways out), whatever its wording.
  await expect(page.getByRole('main')).toContainText('hanoi-99');
  await expect(page.getByRole('link', { name: 'Back to the tasks' })).toBeVisible();
});
