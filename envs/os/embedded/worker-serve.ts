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

/**
 * Then the interpreter's own paths, compiled by running them: the loops, arithmetic, arrays,
 * appends, command substitutions and device reads the tasks' init scripts are made of (a stock
 * log of 401 appended lines, hundreds of touched files named by printf, /dev/urandom through tr).
 * A task's first init in a worker ran on code V8 had not yet optimised: stock-00's took about
 * 115 ms against 45 ms once warm. Each step is its own command in a throwaway shell with the
 * app's files and commands, short enough that a request waits for one step at most.
 */
export const WARM_STEPS = [
  ...Array.from({ length: 3 }, () => 'cd /tmp; a=(p q r); for ((i=1; i<=100; i++)); do x=${a[$RANDOM % ${#a[@]}]}; n=$((RANDOM % 100 + i)); echo "$x | $n" >> w.log; done'),
  'cd /tmp; for i in 1 2 3 4 5 6 7 8; do for j in a b c d e; do touch "w-$(printf \'%02d\' $i)-$j.txt"; done; done',
  'cd /tmp; for f in w-0*; do tr -dc \'a-z0-9\' < /dev/urandom | head -c 64 > "$f"; done; cat w-0* | wc -c >/dev/null',
  'cd /tmp; c=0; while read -r l; do case "$l" in p*) c=$((c+1)) ;; *) : ;; esac; done < w.log; [ "$c" -gt 0 ]',
  'cd /tmp; sort w.log | uniq -c | sort -rn | head -3 >/dev/null; grep -c q w.log >/dev/null; awk -F"|" \'{s+=$2} END {print s}\' w.log >/dev/null; cut -d" " -f1 w.log | sort -u >/dev/null',
];

/** A warm-up in two parts: loading the commands (always whole), then WARM_STEPS until `stop` says a request waits. */
export type WarmUp = (stop: () => boolean) => Promise<'done' | 'stopped'>;

/** The app's warm-up (one per worker: it remembers that the commands are loaded). */
function appWarmUp(): WarmUp {
  let loaded = false;
  return async (stop) => {
    if (!loaded) {
      const { Bash } = await import('just-bash');
      await new Bash().exec(WARM_UP);
      loaded = true;
    }
    if (stop()) return 'stopped';
    const shell = await createEmbeddedShell({ seed: 1 });
    try {
      // In order on one shell (later steps read what earlier ones wrote); stopped midway, the
      // next warm-up runs them all again on a new shell.
      for (const step of WARM_STEPS) {
        // A macrotask between steps lets a request's message in; `stop` then sees it.
        await new Promise((r) => setTimeout(r, 0));
        if (stop()) return 'stopped';
        await shell.exec(step);
      }
      return 'done';
    } finally {
      shell.dispose();
    }
  };
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
 * warm-up itself (tests give their own). A warm-up stops where a request is waiting (`stop`): its
 * first part (the commands) always runs whole, the rest is left for the next idle moment.
 */
export function serveShell(post: (reply: WorkerReply) => void, { warmBeforeShell = false, warm = appWarmUp() }: { warmBeforeShell?: boolean; warm?: WarmUp } = {}): (request: WorkerRequest) => void {
  let shell: EmbeddedShell | null = null;
  /** cold: not warmed up (or stopped midway); queued: in the chain or running; warm: done. */
  let warmth: 'cold' | 'queued' | 'warm' = 'cold';
  let chain = Promise.resolve();
  let waiting = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const warmInTurn = () => {
    if (warmth !== 'cold') return;
    warmth = 'queued';
    chain = chain.then(async () => {
      // A warm-up that failed is not tried again: the first real request meets the failure and answers it.
      warmth = (await warm(() => waiting > 0).catch(() => 'done' as const)) === 'done' ? 'warm' : 'cold';
    });
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
      if (waiting === 0 && warmth === 'cold') idleTimer = setTimeout(() => waiting === 0 && warmInTurn(), WARM_WHEN_IDLE_MS);
    });
  };
}
