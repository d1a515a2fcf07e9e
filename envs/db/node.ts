/**
 * Node wiring for the DB environment: each episode's database in a worker thread, so a
 * runaway statement is stopped by terminating the thread, exactly as in the browser, and
 * its memory is bounded by the worker's heap limit (for the CLI, scripts and tests; never
 * imported by the app). The CLI installs it before any episode:
 *
 *   import { setDbExecutorFactory } from './envs/db/executor.ts';
 *   import { nodeWorkerExecutorFactory } from './envs/db/node.ts';
 *   setDbExecutorFactory(nodeWorkerExecutorFactory());
 */
import { tsWorker } from '../core/nodeWorker.ts';
import { hostExecutorFactory, type ExecutorFactory, type GuardOptions } from './executor.ts';
import { channelHost, type DbHost, type WireRequest, type WireResponse } from './service.ts';

/** A DbHost in a new worker thread running node-worker.ts. */
export function nodeWorkerHost(heapMb?: number): DbHost {
  const worker = tsWorker(new URL('./node-worker.ts', import.meta.url), heapMb);
  return channelHost({
    post: (message: WireRequest) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', (message: WireResponse) => listener(message)),
    onError: (listener) => {
      worker.on('error', (err) => listener(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (exitCode) => listener(`the worker exited (${exitCode})`));
    },
    terminate: () => void worker.terminate(),
  });
}

/** Executors in worker threads with the given limits (default: 2 s per statement). */
export function nodeWorkerExecutorFactory(options: GuardOptions & { heapMb?: number } = {}): ExecutorFactory {
  return hostExecutorFactory(() => nodeWorkerHost(options.heapMb), options);
}
