/// <reference types="vitest/config" />
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// Cross-origin isolation: WebContainer (the OS task's optional real shell) boots only on an
// isolated page. Every asset here is same-origin, so nothing else is affected.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The environments' parts of the dev and preview servers (e.g. the Linux OS backend's image under
 * /os-image/), from the catalogue. It is loaded with tsx where it lies rather than bundled into this
 * config, so its Node-only imports (`nodeOnly`, relative to envs/index.ts) resolve and compile.
 */
async function envPlugins(): Promise<Plugin[]> {
  const { entries }: typeof import('./envs/index.ts') = await tsImport('./envs/index.ts', import.meta.url);
  return (await Promise.all(entries().map((e) => e.vitePlugins?.() ?? []))).flat();
}

/**
 * `virtual:extra-envs`: catalogue lines the build adds (src/main.ts registers them). None, except in
 * the browser tests' build (VITE_TEST_ENVS=1): their own environments (tests/envs/catalogue.ts), so
 * the app's modules never import a test module and a production build holds no trace of one.
 */
function extraEnvs(): Plugin {
  const id = 'virtual:extra-envs';
  const tests = fileURLToPath(new URL('./tests/envs/catalogue.ts', import.meta.url));
  return {
    name: 'agentplay-extra-envs',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load: (key) => {
      if (key !== `\0${id}`) return null;
      return process.env.VITE_TEST_ENVS === '1' ? `import line from ${JSON.stringify(tests)};\nexport default [line];` : 'export default [];';
    },
  };
}

export default defineConfig(async (): Promise<UserConfig> => ({
  plugins: [svelte(), extraEnvs(), ...(await envPlugins())],
  server: { headers: isolation },
  preview: { headers: isolation },
  // Workers that load the catalogue (the replay verifier, the scores worker) see its lazy `ui` imports, so they compile Svelte too.
  worker: { format: 'es', plugins: () => [svelte({ emitCss: false }), extraEnvs()] },
  // Lazily imported deps: pre-bundle them so `vite dev` does not reload the page on first use.
  optimizeDeps: {
    include: ['just-bash', 'sql.js', 'xstate', 'idb', 'valibot', '@xterm/xterm', '@codemirror/view', '@codemirror/state', '@codemirror/language', '@codemirror/autocomplete', '@codemirror/commands', '@codemirror/lang-sql'],
  },
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: { target: 'es2022' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // Tests that start the CLI as a child process take seconds on a loaded 2-core machine:
    // the default 5 s failed them under load without anything being wrong.
    testTimeout: 30_000,
    // One test file per core. Vitest's default leaves a core for itself (cores − 1): one file at a time on
    // CI's two cores, 208 s for the suite against 131 s with two (2026-11-29, quiet machine).
    maxWorkers: availableParallelism(),
  },
}));
