/**
 * The benchmarks' own logs imported on the Episodes page: which environment a file is of comes
 * from each environment's catalogue `logs` line (AgentBoard: the file's name; AgentBench picked
 * without its folder layout: the opening turns).
 */
import { expect, test } from '@playwright/test';
import { importMessage } from './helpers.ts';

test('an AgentBoard log and a picked AgentBench runs.jsonl import, each into the environment its name or text says', async ({ page }) => {
  await page.goto('/#/episodes');
  // A record names its problem as AgentBoard writes it: the gym id and the goal line (the importer matches by both).
  const goal = 'go to the red ball';
  const log = JSON.stringify({ id: 0, task_name: 'BabyAI-GoToRedBallGrey-v0', goal, difficulty: 'easy', is_done: false, progress_rate: 0, grounding_acc: 1, score_change_record: [], trajectory: { 'Interaction Turn 0': { Goal: goal, Observation: 'x', Action: 'turn left', 'Progress Rate': 0 } } }, null, 2);
  await page.getByTestId('import-input').setInputFiles({ name: 'babyai.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(log + '\n') });
  // The first log a page imports loads the environments' log lines and the matched environment's problems: seconds
  // on a busy 2-core machine (one full-suite run took over 5 s here; alone it takes about 1).
  await expect(importMessage(page)).toContainText('Imported 1 episode(s) from babyai.jsonl (an AgentBoard log)', { timeout: 15_000 });
  await expect(page.getByText('babyai-0').first()).toBeVisible();
  const run = { index: 3, error: null, info: null, output: { index: 3, status: 'completed', result: { is_correct: false }, history: [{ role: 'user', content: 'I will ask you a question, then you should help me operate a MySQL database with SQL to answer the question.' }, { role: 'agent', content: 'Ok.' }, { role: 'user', content: 'q' }, { role: 'agent', content: 'Action: Answer\nFinal Answer: ["x"]' }] }, time: { timestamp: 1, str: '' } };
  await page.getByTestId('import-input').setInputFiles({ name: 'picked.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(JSON.stringify(run) + '\n') });
  await expect(importMessage(page)).toContainText('Imported 1 episode(s) from picked.jsonl (an AgentBench runs.jsonl)', { timeout: 15_000 });
  await expect(page.getByText('db-dev-003').first()).toBeVisible();
});
