/**
 * Node wiring for the DB environment: each episode's database in a worker thread, so a
 * runaway statement is stopped by terminating the thread, exactly as in the browser, and
 * its memory is bounded by the worker's heap limit (for the CLI, scripts and tests; never
 * imported by the app). The CLI installs it before any episode through the environment's Node
 * side (`node.useWorkers(true)`, the catalogue's `node` line):
 *
 *   setDbExecutorFactory(nodeWorkerExecutorFactory());
 *
 * Starting a worker (tsx, sql.js and its wasm) costs tens of ms of CPU, more than a whole
 * short episode, so a worker whose episode ended cleanly is kept and handed to the next
 * episode, which opens a fresh database in it (its `open` closes the old one first). A worker that
 * was terminated (a runaway statement, a cancelled step) is never reused: its episode's
 * rebuild starts a new one. sql.js's wasm is compiled once and handed to each new worker, as
 * the browser does (sqlFromModule.ts). Neither is one that may have written a file into sql.js's
 * in-memory file system (ATTACH, VACUUM INTO), which would outlive its database.
 */
import type { Worker } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tsWorker } from '../core/nodeWorker.ts';
import type { EnvNode } from '../core/envNode.ts';
import { hostExecutorFactory, setDbExecutorFactory, type ExecutorFactory, type GuardOptions } from './executor.ts';
import { channelHost, type DbHost, type WireRequest, type WireResponse } from './service.ts';

let compiled: Promise<WebAssembly.Module | null> | null = null;

/** sql.js's wasm, compiled once per process and handed to every worker; null if it cannot be (each worker loads it). */
function sqlWasm(): Promise<WebAssembly.Module | null> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => null);
  return compiled;
}

/** Statements that can leave a file behind in the worker's sql.js file system. */
const WRITES_FILES = /\b(ATTACH|VACUUM)\b/i;

type Listener = Parameters<Worker['on']>[1];

/** Started DB workers waiting for their next episode. */
export class DbWorkerPool {
  private readonly idle: Worker[] = [];
  /** Workers started so far (a reused worker is not counted again). */
  started = 0;

  constructor(
    private readonly heapMb?: number,
    /** At most this many idle workers are kept (the rest are ended). */
    private readonly keepIdle = 16,
  ) {}

  take(): Worker {
    const reused = this.idle.pop();
    if (reused) return reused;
    this.started++;
    const worker = tsWorker(new URL('./node-worker.ts', import.meta.url), this.heapMb);
    void sqlWasm().then((wasm) => worker.postMessage({ wasm }));
    // An idle worker that dies is dropped from the pool.
    worker.once('exit', () => this.drop(worker));
    return worker;
  }

  give(worker: Worker): void {
    if (this.idle.length < this.keepIdle) this.idle.push(worker);
    else void worker.terminate();
  }

  private drop(worker: Worker): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
  }

  /** End every idle worker (tests; the CLI needs not: idle workers never keep the process alive). */
  clear(): void {
    for (const worker of this.idle.splice(0)) void worker.terminate();
  }

  /** A DbHost on a worker from this pool; `release` gives the worker back once its database is closed. */
  host(): DbHost {
    const worker = this.take();
    const listeners: [string, Listener][] = [];
    const on = (event: string, listener: Listener): void => {
      worker.on(event, listener);
      listeners.push([event, listener]);
    };
    const detach = (): void => {
      for (const [event, listener] of listeners.splice(0)) worker.off(event, listener);
    };
    let reusable = true;
    let inFlight = 0;
    const channel = channelHost({
      post: (message: WireRequest) => worker.postMessage(message),
      onMessage: (listener) => on('message', (message: WireResponse) => listener(message)),
      onError: (listener) => {
        on('error', (err: unknown) => listener(err instanceof Error ? err.message : String(err)));
        on('exit', (exitCode: number) => listener(`the worker exited (${exitCode})`));
      },
      terminate: () => {
        reusable = false;
        void worker.terminate();
      },
    });
    const terminate = (): void => {
      channel.terminate();
      detach();
    };
    return {
      async request(req) {
        if (req.op === 'exec' && WRITES_FILES.test(req.sql)) reusable = false;
        inFlight++;
        try {
          return await channel.request(req);
        } catch (err) {
          reusable = false;
          throw err;
        } finally {
          inFlight--;
        }
      },
      terminate,
      release: () => {
        // Busy (a statement still running), failed or possibly holding files: not for another episode.
        if (!reusable || inFlight > 0) return terminate();
        reusable = false;
        // Idle at once, with no answer pending on this host's channel: the next episode's `open`
        // replaces the database (a close first would leave the worker out of the pool for a round
        // trip, and the runner's next episode, starting at once, would start a new worker).
        detach();
        this.give(worker);
      },
    };
  }
}

/** The pool the CLI's executors share. */
export const dbWorkers = new DbWorkerPool();

/** A DbHost in a new worker thread running node-worker.ts (never reused: for tests and one-off use). */
export function nodeWorkerHost(heapMb?: number): DbHost {
  const host = new DbWorkerPool(heapMb, 0).host();
  return { request: (req) => host.request(req), terminate: () => host.terminate() };
}

/** Executors in worker threads with the given limits (default: 2 s per statement), reusing idle workers. */
export function nodeWorkerExecutorFactory(options: GuardOptions & { heapMb?: number; pool?: DbWorkerPool } = {}): ExecutorFactory {
  const pool = options.pool ?? (options.heapMb === undefined ? dbWorkers : new DbWorkerPool(options.heapMb));
  return hostExecutorFactory(() => pool.host(), options);
}

/** The DB environment's Node side: its databases in worker threads or in-process, and its runaway figures. */
export const node: EnvNode = {
  async useWorkers(on) {
    setDbExecutorFactory(on ? nodeWorkerExecutorFactory() : null);
  },
  runaway: () => import('./runaway.ts').then((m) => m.runaway),
};
