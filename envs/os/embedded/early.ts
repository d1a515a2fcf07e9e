/**
 * A shell worker started as a page opens on an OS task (the catalogue's `opening`), before the
 * Play view and the OS's code have loaded: its just-bash download, compile and warm-up overlap the
 * page's own loading. The first worker the page's pool starts is this one (guarded.ts).
 */
let early: { worker: Worker; failed: string | null } | null = null;

export function startEarlyWorker(): void {
  if (early || typeof Worker === 'undefined') return;
  const worker = new Worker(new URL('./shell-worker.ts', import.meta.url), { type: 'module' });
  const started = { worker, failed: null as string | null };
  // Kept for the pool, which reports it when it takes this worker (guarded.ts startBrowserWorker).
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    started.failed ??= event.message || 'the shell worker failed';
  });
  early = started;
}

/** The worker started early, once (null if none): with what it reported before anyone listened. */
export function takeEarlyWorker(): { worker: Worker; failed: string | null } | null {
  const taken = early;
  early = null;
  return taken;
}
