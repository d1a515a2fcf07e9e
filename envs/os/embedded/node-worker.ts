/**
 * The embedded shell in a Node worker thread (the CLI and tests), for GuardedShell: stopped
 * from outside by terminating the thread, memory bounded by its heap limit.
 */
import { tsWorker } from '../../core/nodeWorker.ts';
import type { ShellFactory } from '../shell.ts';
import { GuardedShell, type GuardedShellOptions } from './guarded.ts';
import type { WorkerPort, WorkerReply } from './worker-protocol.ts';

export function nodeWorkerPort(heapMb?: number): WorkerPort {
  const worker = tsWorker(new URL('./node-shell-worker.ts', import.meta.url), heapMb);
  return {
    post: (m) => worker.postMessage(m),
    onMessage: (listener) => worker.on('message', (m: WorkerReply) => listener(m)),
    // Past its heap limit Node ends the worker with ERR_WORKER_OUT_OF_MEMORY ('error', then 'exit').
    onExit: (listener) => {
      worker.on('error', (err) => listener(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (code) => listener(`the shell worker exited (${code})`));
    },
    terminate: () => void worker.terminate(),
  };
}

/** Each episode's embedded shell in its own guarded worker thread (the CLI's default). */
export function nodeGuardedShellFactory(options: Omit<GuardedShellOptions, 'seed' | 'spawn'> & { heapMb?: number } = {}): ShellFactory {
  return async ({ seed }) => new GuardedShell({ ...options, seed, spawn: () => nodeWorkerPort(options.heapMb) });
}
