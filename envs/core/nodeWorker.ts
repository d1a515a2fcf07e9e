/**
 * A Node worker thread running a TypeScript module (the CLI's and tests' heavy engines: the
 * DB's sql.js, the OS's embedded shell), so a runaway is stopped by terminating the thread.
 * Memory is bounded with V8's heap limits: a worker past them is ended by Node (its 'error'
 * event) instead of growing the whole process. Node only; never imported by the app.
 *
 * Loading the module through tsx's `tsImport` in each worker costs about 0.7 s of CPU (tsx's
 * loader and the transform of the whole module graph, again in every thread), more than a
 * short episode. So the module is bundled once per process with esbuild (tsx's own compiler,
 * a devDependency like tsx) into plain JavaScript under node_modules/.cache, packages left as
 * imports, and each worker loads that file. If bundling fails, workers fall back to tsx.
 * A worker inherits the process's flags, and under `tsx` (or `node --import tsx`) those load
 * tsx's loader into every thread (about half of a worker's start-up CPU): plain JavaScript
 * needs none, so a bundled worker starts without them.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Default heap bound for an engine worker (MB of V8 old generation). */
export const WORKER_HEAP_MB = 512;

const require = createRequire(import.meta.url);
let tsxApi: string | null = null;
const bundles = new Map<string, URL | null>();

/** The worker module as one JavaScript file (built once per process), or null when esbuild cannot build it. */
function bundled(script: URL): URL | null {
  if (bundles.has(script.href)) return bundles.get(script.href)!;
  let out: URL | null = null;
  try {
    const esbuild = require('esbuild') as typeof import('esbuild');
    const built = esbuild.buildSync({
      entryPoints: [fileURLToPath(script)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    });
    const code = built.outputFiles[0].contents;
    // Inside the project's node_modules, so the packages left as imports resolve from there.
    const dir = join(dirname(require.resolve('esbuild/package.json')), '..', '.cache', 'agentplay-workers');
    const file = join(dir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, file); // atomic: another process building the same bundle writes the same bytes
    }
    out = pathToFileURL(file);
  } catch {
    out = null;
  }
  bundles.set(script.href, out);
  return out;
}

/** A worker through tsx (the fallback): slower to start, no build step. */
function tsxWorkerUrl(script: URL): URL {
  tsxApi ??= pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const code = `const { tsImport } = await import(${JSON.stringify(tsxApi)});\nawait tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(script.href)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Flags that load a module before the program, with their values. */
const PRELOAD_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/** The process's flags without those that load tsx (a bundled worker is plain JavaScript). */
export function flagsWithoutTsx(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    if (!PRELOAD_FLAGS.has(flag)) {
      out.push(arg);
      continue;
    }
    const value = eq < 0 ? (argv[i + 1] ?? '') : arg.slice(eq + 1);
    if (eq < 0) i++;
    if (!/(^|[/\\])tsx([/\\]|$)/.test(value)) out.push(...(eq < 0 ? [arg, value] : [arg]));
  }
  return out;
}

export function tsWorker(script: URL, heapMb = WORKER_HEAP_MB): Worker {
  const bundle = bundled(script);
  const worker = new Worker(bundle ?? tsxWorkerUrl(script), {
    ...(bundle ? { execArgv: flagsWithoutTsx(process.execArgv) } : {}),
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, heapMb / 4) },
  });
  // An engine worker never keeps the process alive (the CLI exits when its episodes are done).
  worker.unref();
  return worker;
}
