/**
 * A Node worker thread running a TypeScript module (the CLI's and tests' heavy engines: the
 * DB's sql.js, the OS's embedded shell), so a runaway is stopped by terminating the thread.
 * The module is loaded through tsx's `tsImport` (a devDependency), so this works under
 * vitest, tsx and plain node alike. Memory is bounded with V8's heap limits: a worker past
 * them is ended by Node (its 'error' event) instead of growing the whole process.
 * Node only; never imported by the app.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Default heap bound for an engine worker (MB of V8 old generation). */
export const WORKER_HEAP_MB = 512;

let tsxApi: string | null = null;

export function tsWorker(script: URL, heapMb = WORKER_HEAP_MB): Worker {
  tsxApi ??= pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const code = `const { tsImport } = await import(${JSON.stringify(tsxApi)});\nawait tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(script.href)});\n`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, heapMb / 4) },
  });
  // An engine worker never keeps the process alive (the CLI exits when its episodes are done).
  worker.unref();
  return worker;
}
