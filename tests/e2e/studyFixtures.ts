/** What the study browser tests share: a results endpoint, a study file served to the page, moves, the clock's reading. */
import { expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { HANOI3_SOLUTION, screens } from './helpers.ts';

/**
 * A local results endpoint: fails the first `failFirst` POSTs with 500 (or, given a function, every
 * POST while it says so), then stores each body and its Idempotency-Key.
 */
export function startCollector(failFirst: number | (() => boolean)): Promise<{ server: Server; port: number; received: string[]; keys: string[]; failures: () => number }> {
  const received: string[] = [];
  const keys: string[] = [];
  const fails = typeof failFirst === 'function' ? failFirst : () => failures < failFirst;
  let failures = 0;
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key', 'Access-Control-Allow-Methods': 'POST, OPTIONS' };
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    if (req.method === 'GET' && req.url?.startsWith('/done')) return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Back at the panel</h1>');
    if (req.method !== 'POST') return res.writeHead(404, cors).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (fails()) {
        failures++;
        return res.writeHead(500, cors).end('try later');
      }
      received.push(body);
      keys.push(String(req.headers['idempotency-key'] ?? ''));
      res.writeHead(200, cors).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    resolve({ server, port: typeof address === 'object' && address ? address.port : 0, received, keys, failures: () => failures });
  }));
}

export function studyFile(id: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    format: 'agentplay-study',
    version: 1,
    id,
    title: 'Tower of Hanoi study',
    consent: 'You will play Tower of Hanoi. Your actions and times are recorded.\n\nPress I agree to take part.',
    instructions: 'Move all disks to rod C. A practice game comes first.',
    tasks: [
      { env: 'hanoi', task: 'hanoi-3', seed: 0, practice: true, label: 'Hanoi (practice)' },
      { env: 'hanoi', task: 'hanoi-3', seed: { per: 'attempt', base: 1 }, attempts: 2, label: 'Hanoi' },
    ],
    views: 'text',
    timer: true,
    end: { message: 'Thank you for taking part.', code: 'E2E-CODE' },
    ...extra,
  });
}

export async function serveStudy(page: Page, id: string, body: string, delayMs = () => 0): Promise<void> {
  await page.route(`**/studies/${id}.json`, async (route) => {
    const wait = delayMs();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await route.fulfill({ status: 200, contentType: 'application/json', body, headers: { 'Cross-Origin-Resource-Policy': 'same-origin' } });
  });
}

export async function move(page: Page, action: string, step: number): Promise<void> {
  await page.getByRole('button', { name: action, exact: true }).click();
  await expect(page.getByTestId('step-count')).toHaveText(new RegExp(`^${step} /`));
}

export async function activeMs(page: Page): Promise<number> {
  return Number(await page.getByTestId('study-timer').getAttribute('data-active-ms'));
}

export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  // Page Visibility as a hidden tab reports it (headless Chromium has no other tab to switch to).
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

export const studyScreens = (page: Page, name: string) => screens(page, `study-${name}`);

export async function playHanoi(page: Page, from = 0): Promise<void> {
  const last = HANOI3_SOLUTION.length - 1;
  for (let i = from; i < last; i++) await move(page, HANOI3_SOLUTION[i], i + 1);
  // The last move ends the episode: the study shows its own "Task finished" screen.
  await page.getByRole('button', { name: HANOI3_SOLUTION[last], exact: true }).click();
  // The end in the game's own words and the score with its ceiling (not "(Complete)").
  await expect(page.getByTestId('task-done-words')).toHaveText('All 3 disks are on rod C: the tower is moved.');
  await expect(page.getByTestId('task-done')).toContainText('Score 3 / 3 after 7 steps.');
}
