/**
 * Builds the wllama page (scripts/wllama-page) with vite and the project's
 * vite.config.ts, puts the project-made tiny GGUF beside it, and serves it with
 * `vite preview` (so the same cross-origin isolation headers as the app). Used by
 * tests/e2e/wllama.spec.ts and scripts/bench-wllama.ts.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTinyGguf } from './make-tiny-gguf.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE_DIR = join(ROOT, 'scripts/wllama-page');

export interface WllamaPageServer {
  /** The page's URL. */
  url: string;
  /** The tiny model's URL on the same server. */
  modelUrl: string;
  /** The tiny model on disk (for file-picker tests). */
  modelPath: string;
  close(): Promise<void>;
}

export async function serveWllamaPage(port = 4181): Promise<WllamaPageServer> {
  const { build, preview } = await import('vite');
  const modelPath = ensureTinyGguf();
  const configFile = join(ROOT, 'vite.config.ts');
  // One build folder per port, so the spec and the bench can run side by side.
  const OUT_DIR = join(ROOT, `tests/.cache/wllama-page-dist-${port}`);
  await build({ configFile, root: PAGE_DIR, logLevel: 'warn', build: { outDir: OUT_DIR, emptyOutDir: true } });
  mkdirSync(join(OUT_DIR, 'models'), { recursive: true });
  copyFileSync(modelPath, join(OUT_DIR, 'models/tiny.gguf'));
  const server = await preview({ configFile, root: PAGE_DIR, logLevel: 'warn', build: { outDir: OUT_DIR }, preview: { host: '127.0.0.1', port, strictPort: false } });
  const base = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
  return {
    url: base,
    modelUrl: new URL('models/tiny.gguf', base).href,
    modelPath,
    close: () => server.close(),
  };
}
