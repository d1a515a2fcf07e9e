/**
 * Browser wiring for the DB environment: each episode's database lives in its own Web Worker,
 * so a runaway statement is stopped by terminating the worker (executor.ts rebuilds it).
 *
 *   import { setDbExecutorFactory } from '../envs/db/executor.ts';
 *   import { browserDbExecutorFactory } from '../envs/db/browser.ts';
 *   setDbExecutorFactory(browserDbExecutorFactory);
 *
 * A reset should not pay for a worker's start and sql.js's wasm compile each time: the wasm is
 * compiled once per page and handed to every worker (a WebAssembly.Module crosses postMessage),
 * and one spare worker is kept started with sql.js loaded, so the next episode (or a rebuild
 * after a runaway statement) takes a warm worker and only creates its table.
 *
 * Browser only (it imports worker.ts and the wasm URL with vite's `?url`).
 */
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { hostExecutorFactory, type ExecutorFactory, type GuardOptions } from './executor.ts';
import { channelHost, type DbHost, type WireRequest, type WireResponse } from './service.ts';
import type { WasmMessage } from './worker.ts';

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** sql.js's wasm, compiled once for the page; null if it cannot be (each worker then loads it itself). */
function sqlWasm(): Promise<WebAssembly.Module | null> {
  compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl))
    .catch(async () => WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer()))
    .catch(() => null);
  return compiled;
}

/** A new worker, given the compiled wasm as soon as it is ready (requests sent before then wait in the worker). */
function startWorker(): Worker {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  void sqlWasm().then((module) => worker.postMessage({ wasm: module } satisfies WasmMessage));
  return worker;
}

let spare: Worker | null = null;

/** The spare worker (or a new one if there is none), with the next spare started behind it. */
function takeWorker(): Worker {
  const worker = spare ?? startWorker();
  spare = null;
  // Started after this one's requests are posted, so the two do not compete for the first answer.
  setTimeout(() => (spare ??= startWorker()), 0);
  return worker;
}

/** A DbHost in a module Web Worker running worker.ts (a warm spare when there is one). */
export function browserWorkerHost(): DbHost {
  const worker = takeWorker();
  return channelHost({
    post: (message: WireRequest) => worker.postMessage(message),
    onMessage: (listener) =>
      worker.addEventListener('message', (event: MessageEvent<WireResponse>) => {
        listener(event.data);
      }),
    onError: (listener) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        listener(event.message || 'the worker script failed');
      });
      worker.addEventListener('messageerror', () => listener('a message could not be read'));
    },
    terminate: () => worker.terminate(),
  });
}

/** Start the spare worker now (e.g. when a DB task's page opens), so even the first reset is warm. */
export function warmDbWorker(): void {
  spare ??= startWorker();
}

/** Executors in Web Workers with the given limits (default: 2 s per statement). */
export function browserExecutorFactory(options: GuardOptions = {}): ExecutorFactory {
  return hostExecutorFactory(browserWorkerHost, options);
}

export const browserDbExecutorFactory: ExecutorFactory = browserExecutorFactory();
