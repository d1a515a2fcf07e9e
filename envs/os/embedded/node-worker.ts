/**
 * The embedded shell in a Node worker thread (the CLI and tests), for GuardedShell: stopped
 * from outside by terminating the thread, memory bounded by its heap limit.
 */
import { tsWorker } from '../../core/nodeWorker.ts';
import type { ShellFactory } from '../shell.ts';
import { GuardedShell, type GuardedShellOptions } from './guarded.ts';
import { HEAP_BOUND_REACHED, type WorkerPort, type WorkerReply } from './worker-protocol.ts';
import { buffered, withSpare } from './spare.ts';

type NodePort = WorkerPort & { keepAlive(alive: boolean): void };

function startNodeWorker(heapMb: number | undefined, deliver: (reply: WorkerReply) => void, died: (why: string) => void): Omit<NodePort, 'onMessage' | 'onExit'> {
  const worker = tsWorker(new URL('./node-shell-worker.ts', import.meta.url), heapMb);
  worker.on('message', (m: WorkerReply) => deliver(m));
  // Past its heap limit Node ends the worker with ERR_WORKER_OUT_OF_MEMORY ('error', then 'exit').
  worker.on('error', (err) => died((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? HEAP_BOUND_REACHED : err instanceof Error ? err.message : String(err)));
  worker.on('exit', (code) => died(`the shell worker exited (${code})`));
  return {
    post: (m) => worker.postMessage(m),
    terminate: () => void worker.terminate(),
    keepAlive: (alive) => (alive ? worker.ref() : worker.unref()),
  };
}

/** A shell worker thread, started now. */
export function nodeWorkerPort(heapMb?: number): WorkerPort {
  return buffered((deliver, died) => startNodeWorker(heapMb, deliver, died));
}

/**
 * Each episode's embedded shell in its own guarded worker thread (the CLI's default), with the
 * next episode's worker started ahead (spare.ts); a waiting spare does not keep Node running.
 */
export function nodeGuardedShellFactory(options: Omit<GuardedShellOptions, 'seed' | 'spawn' | 'release'> & { heapMb?: number } = {}): ShellFactory {
  const workers = withSpare(
    (deliver, died) => startNodeWorker(options.heapMb, deliver, died),
    (port, alive) => (port as NodePort).keepAlive(alive),
  );
  return async ({ seed }) => new GuardedShell({ ...options, seed, spawn: workers.take, release: workers.release });
}
