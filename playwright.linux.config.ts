import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';
import { osImageDir } from './envs/os/linux/imageDir.ts';

/**
 * Browser tests of the Linux backend (issue 19), run by `npm run test:linux` after it has built
 * the image (npm run os:image): the app is served with the image under /os-image/, so these
 * tests boot real Debian in the v86 emulator. The main suite serves no image (playwright.config.ts).
 */
const PORT = Number(process.env.E2E_LINUX_PORT ?? 4183);
const IMAGE_DIR = osImageDir();

export default defineConfig({
  ...base,
  testDir: 'tests/e2e-linux',
  // A restore fetches and unpacks the 66 MB state; commands run in an emulated CPU.
  timeout: 180_000,
  // One emulator already keeps most of two cores busy: one spec file at a time.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  use: { ...base.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: {
    command: `VITE_TEST_ENVS=1 npx vite build --logLevel warn --outDir dist-linux-e2e && OS_IMAGE_DIR=${IMAGE_DIR} npx vite preview --outDir dist-linux-e2e --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
