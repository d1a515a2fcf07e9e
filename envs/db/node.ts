/**
 * Node wiring for the DB environment: the databases live in worker threads, so a runaway
 * statement is stopped by terminating its thread, exactly as in the browser, and a worker's
 * memory is bounded by its heap limit (for the CLI, scripts and tests; never imported by the
 * app). The CLI installs it before any episode through the environment's Node side
 * (`node.useWorkers(true)`, the catalogue's `node` line):
 *
 *   setDbExecutorFactory(nodeWorkerExecutorFactory());
 *
 * The episodes in flight share a few warm workers, each database with its own number in its
 * worker, as in the browser (sharedWorkers.ts: a runaway's worker is ended and the other
 * databases in it are rebuilt elsewhere, unseen by their episodes). A worker per episode in
 * flight cost `eval` at concurrency 16 sixteen threads, each starting (tens of ms of CPU) and
 * each running sql.js's JavaScript too rarely for V8 to optimise it, with sixteen heaps to
 * collect: about 4–8 ms of CPU per database opened, against about 2 ms in two shared workers.
 * sql.js's wasm is compiled once per process and handed to each new worker (sqlFromModule.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { tsWorker } from '../core/nodeWorker.ts';
import type { EnvNode } from '../core/envNode.ts';
import { hostExecutorFactory, setDbExecutorFactory, type ExecutorFactory, type GuardOptions } from './executor.ts';
import { channelHost, type DbHost, type WireRequest, type WireResponse, type WorkerChannel } from './service.ts';
import { SharedDbWorkers, workersFor, type SharedWorkersOptions } from './sharedWorkers.ts';

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** sql.js's wasm, compiled once per process and handed to every worker; null if it cannot be (each worker loads it). */
function sqlWasm(): Promise<WebAssembly.Module | null> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => null);
  return compiled;
}

/** A new worker thread running the DB service (node-worker.ts), as a channel. */
export function nodeWorkerChannel(heapMb?: number): WorkerChannel {
  const worker = tsWorker(new URL('./node-worker.ts', import.meta.url), heapMb);
  void sqlWasm().then((wasm) => worker.postMessage({ wasm }));
  return {
    post: (message: WireRequest) => worker.postMessage(message),
    onMessage: (listener) => {
      worker.on('message', (message: WireResponse) => listener(message));
      // A message listener holds the process open again: a worker never does (the CLI exits when its episodes are done).
      worker.unref();
    },
    onError: (listener) => {
      worker.on('error', (err: unknown) => listener(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (exitCode: number) => listener(`the worker exited (${exitCode})`));
    },
    terminate: () => void worker.terminate(),
  };
}

/** Workers shared by the episodes in flight: one per core (at least two, at most four), each holding up to eight databases. */
export function nodeDbWorkers(options: Partial<SharedWorkersOptions> & { heapMb?: number } = {}): SharedDbWorkers {
  const { heapMb, ...rest } = options;
  return new SharedDbWorkers({ start: () => nodeWorkerChannel(heapMb), maxWorkers: workersFor(availableParallelism()), ...rest });
}

/** The workers the CLI's executors share. */
export const dbWorkers = nodeDbWorkers();

/** A DbHost in a new worker thread of its own (never reused: for tests and one-off use). */
export function nodeWorkerHost(heapMb?: number): DbHost {
  return channelHost(nodeWorkerChannel(heapMb));
}

/** Executors in shared worker threads with the given limits (default: 2 s per statement). */
export function nodeWorkerExecutorFactory(options: GuardOptions & { heapMb?: number; workers?: SharedDbWorkers } = {}): ExecutorFactory {
  const workers = options.workers ?? (options.heapMb === undefined ? dbWorkers : nodeDbWorkers({ heapMb: options.heapMb }));
  return hostExecutorFactory(() => workers.host(), options);
}

/** The DB environment's Node side: its databases in worker threads or in-process, and its runaway figures. */
export const node: EnvNode = {
  async useWorkers(on) {
    setDbExecutorFactory(on ? nodeWorkerExecutorFactory() : null);
  },
  runaway: () => import('./runaway.ts').then((m) => m.runaway),
};
