import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.ts';

/**
 * Browser tests run in real Chromium against the built app (vite build + preview).
 * Which Chromium: CHROMIUM_PATH if set; else Debian's /usr/bin/chromium when present
 * (this project's CI); else Playwright's own browser (after `npx playwright install chromium`).
 */
// E2E_PORT / E2E_MODEL_PORT let several checkouts run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);
export const FAKE_MODEL_PORT = Number(process.env.E2E_MODEL_PORT ?? 5999);

export default defineConfig({
  testDir: 'tests/e2e',
  // Two spec files at once (tests within a file stay in order): on this 2-core machine, quiet, the 164
  // tests took 8.3 min against 11.9 min one file at a time (2026-11-28, two runs). Beside other heavy
  // work (load 13–20) 7 of 153 once ran past their timeouts: E2E_WORKERS=1 runs one file at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    acceptDownloads: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      // No Linux image is served unless E2E_OS_IMAGE_DIR names one: the suite behaves the same on a
      // machine that has built it (npm run os:image) as in CI, where none exists.
      command: `VITE_TEST_ENVS=1 npx vite build --logLevel warn && OS_IMAGE_DIR=${process.env.E2E_OS_IMAGE_DIR ?? 'tests/.cache/no-os-image'} npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
    {
      // The local OpenAI-compatible server the model-driver tests talk to (loopback only).
      command: `npx tsx tests/support/fake-openai-server.ts --port ${FAKE_MODEL_PORT}`,
      port: FAKE_MODEL_PORT,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
