/**
 * The browser's shell workers: a module Web Worker running shell-worker.ts, and the one a page opened
 * on an OS task's Play link starts as it boots (the catalogue's `opening`), before the Play view and
 * the OS's code have loaded, so just-bash downloads and compiles while the page loads. Kept apart
 * from guarded.ts so the catalogue can start one without loading it; the page's pool (guarded.ts
 * browserWorkers) takes the early one as its first waiting worker.
 */
import type { WorkerPort, WorkerReply } from './worker-protocol.ts';
import { buffered } from './spare.ts';

/** A browser module worker running shell-worker.ts. */
export function startBrowserWorker(deliver: (reply: WorkerReply) => void, died: (why: string) => void): Omit<WorkerPort, 'onMessage' | 'onExit'> {
  const worker = new Worker(new URL('./shell-worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (e) => deliver(e.data as WorkerReply));
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    died(event.message || 'the shell worker failed');
  });
  return { post: (m) => worker.postMessage(m), terminate: () => worker.terminate() };
}

let early: WorkerPort | null = null;

/** Starts the early worker (once); buffered, so a failure while it loads reaches whoever takes it. */
export function startEarlyWorker(): void {
  if (typeof Worker !== 'undefined') early ??= buffered(startBrowserWorker);
}

/** The early worker, once (null if none was started or it was taken). */
export function takeEarlyWorker(): WorkerPort | null {
  const taken = early;
  early = null;
  return taken;
}
