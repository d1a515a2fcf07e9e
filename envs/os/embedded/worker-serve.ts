/**
 * The shell side of the worker protocol: one embedded shell answering GuardedShell's requests,
 * one at a time and in order (the shell is a single session). Used by the browser entry
 * (shell-worker.ts) and the Node one (node-shell-worker.ts).
 */
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';
import { createEmbeddedShell, type EmbeddedShell } from './index.ts';

/**
 * just-bash loads each command's code on first use. A worker started after a kill would pay
 * that inside the replayed and the next commands' time limits (seconds on a loaded machine),
 * so a fresh worker loads the common ones first, in a throwaway instance with its own files.
 */
const WARM_UP = 'cat /dev/null; ls / >/dev/null; pwd >/dev/null; echo | grep x; echo | sed s/a/b/; echo | awk 1 >/dev/null; echo | wc -l >/dev/null; echo | head -1 >/dev/null; echo | tail -1 >/dev/null; echo | sort | uniq >/dev/null; echo | cut -c1 >/dev/null; echo | tr a b >/dev/null; find / -maxdepth 0 >/dev/null; printf "" ; mkdir -p /w; touch /w/f; cp /w/f /w/g; mv /w/g /w/h; chmod 644 /w/f; stat /w/f >/dev/null; rm -r /w; echo | xargs >/dev/null; echo | tee >/dev/null; basename /a >/dev/null; dirname /a >/dev/null; env >/dev/null; date >/dev/null; test 1; true';

async function warmUp(): Promise<void> {
  const { Bash } = await import('just-bash');
  await new Bash().exec(WARM_UP);
}

/** A worker asked for nothing this long after it started is a spare: it warms up at once. */
const SPARE_AFTER_MS = 20;
/** A worker that made its shell first warms up once no request has come for this long. */
const WARM_WHEN_IDLE_MS = 100;

/**
 * A handler for incoming requests that answers each through `post`, one at a time and in order.
 * The warm-up takes its turn among them, never beside one: a spare worker (spare.ts) warms up
 * while it waits, so it is warm when taken; a worker asked for a shell at once (a page opened on
 * a task) makes the shell and runs the task's init first and warms up once idle, unless the
 * request says the warm-up must come first (a worker restarted after a kill, before its replay).
 * `warmBeforeShell`: always warm up before the shell (Node's worker threads: one not yet warmed up
 * that ran past its heap limit took the whole process down instead of ending alone). `warm`: the
 * warm-up itself (tests give their own).
 */
export function serveShell(post: (reply: WorkerReply) => void, { warmBeforeShell = false, warm = warmUp } = {}): (request: WorkerRequest) => void {
  let shell: EmbeddedShell | null = null;
  let warmed = false;
  let chain = Promise.resolve();
  let waiting = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const warmInTurn = () => {
    if (warmed) return;
    warmed = true;
    chain = chain.then(() => warm().catch(() => undefined));
  };
  const handle = async (request: WorkerRequest): Promise<void> => {
    try {
      if (request.op === 'init') {
        shell?.dispose();
        shell = await createEmbeddedShell({ seed: request.seed, commandTimeoutMs: request.commandTimeoutMs });
        post({ id: request.id, ok: true, result: null });
        return;
      }
      if (request.op === 'drop') {
        shell?.dispose();
        shell = null;
        return;
      }
      if (!shell) throw new Error('the worker shell was not started');
      const result =
        request.op === 'exec'
          ? await shell.exec(request.command, { timeoutMs: request.timeoutMs })
          : request.op === 'run'
            ? await shell.run(request.script, request.args, { timeoutMs: request.timeoutMs })
            : await shell.readFile(request.path);
      post({ id: request.id, ok: true, result });
    } catch (err) {
      post({ id: request.id, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  const spareTimer = setTimeout(warmInTurn, SPARE_AFTER_MS);
  return (request) => {
    clearTimeout(spareTimer);
    clearTimeout(idleTimer);
    if (request.op === 'init' && (request.warmFirst || warmBeforeShell)) warmInTurn();
    waiting++;
    chain = chain.then(async () => {
      await handle(request);
      waiting--;
      if (waiting === 0 && !warmed) idleTimer = setTimeout(() => waiting === 0 && warmInTurn(), WARM_WHEN_IDLE_MS);
    });
  };
}
