/**
 * Browser wiring for the DB environment: each episode's database lives in a Web Worker, so a
 * runaway statement is stopped by terminating the worker (executor.ts rebuilds its episode;
 * the other episodes' databases in that worker are moved, see sharedWorkers.ts).
 *
 *   import { setDbExecutorFactory } from '../envs/db/executor.ts';
 *   import { browserDbExecutorFactory } from '../envs/db/browser.ts';
 *   setDbExecutorFactory(browserDbExecutorFactory);
 *
 * A reset should not pay for a worker's start and sql.js's wasm compile each time: the wasm is
 * compiled once per page and handed to every worker (a WebAssembly.Module crosses postMessage),
 * workers live on after their episodes, and an episode opened while none is idle shares a warm
 * one, with a spare started behind it; so a reset (or a rebuild after a runaway statement)
 * mostly only creates its table. The first worker is started when the environment loads
 * (`warmDbWorkers`, once the page is idle), not at the first reset: a page that shows a DB task
 * before its episode starts (the catalogue, a batch being set up) has it warm by then.
 *
 * Browser only (it imports worker.ts and the wasm URL with vite's `?url`).
 */
import { whenPageIdle } from '../core/idle.ts';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { hostExecutorFactory, type ExecutorFactory, type GuardOptions } from './executor.ts';
import type { DbHost, WireRequest, WireResponse, WorkerChannel } from './service.ts';
import { SharedDbWorkers, workersFor } from './sharedWorkers.ts';
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
function startWorker(): WorkerChannel {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  void sqlWasm().then((module) => worker.postMessage({ wasm: module } satisfies WasmMessage));
  return {
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
  };
}

/** The page's DB workers, shared by the episodes open at once (up to one per core, at most four). */
const workers = new SharedDbWorkers({
  start: startWorker,
  maxWorkers: workersFor(globalThis.navigator?.hardwareConcurrency ?? 2),
});

/**
 * Starts the page's first DB worker when the page is next idle, unless one is idle or starting
 * (an episode that opens sooner starts it itself, as before; see sharedWorkers.ts `warm`). In a
 * page only: a worker that loads the environment (the scores worker loads every environment its
 * episodes name, a replay verifier's) seldom opens an episode, and a spare there costs the CPU it
 * works with.
 */
export function warmDbWorkers(): void {
  if (typeof document === 'undefined') return;
  whenPageIdle(() => workers.warm());
}

/** Ends every DB worker and forgets the compiled wasm: the page as it was before the environment loaded (the benchmark's cold start). */
export function stopDbWorkers(): void {
  workers.clear();
  compiled = null;
}

/** A DbHost for one episode's database, in a warm worker when there is one (sharedWorkers.ts). */
export function browserWorkerHost(): DbHost {
  return workers.host();
}

/** Executors in Web Workers with the given limits (default: 2 s per statement). */
export function browserExecutorFactory(options: GuardOptions = {}): ExecutorFactory {
  return hostExecutorFactory(browserWorkerHost, options);
}

export const browserDbExecutorFactory: ExecutorFactory = browserExecutorFactory();
