/**
 * One shell worker waiting for the next shell: a spare started ahead of need, or a worker an ended
 * shell gave back. Starting a worker (loading just-bash and running its commands once,
 * worker-serve.ts) took most of an OS reset in the browser; with one waiting, a reset only seeds
 * the shell and runs the task's init. The next shell takes it, and the following spare is started
 * once the taken one is idle, so a run of episodes finds one ready.
 */
import type { WorkerPort, WorkerReply } from './worker-protocol.ts';

/**
 * Wraps a port so that what it reports before anyone listens (a worker that failed while
 * loading, still a spare) is not lost: messages and a death are kept and handed to the
 * listeners when they are added. A new listener replaces the one before (a worker handed on).
 */
export function buffered(start: (deliver: (reply: WorkerReply) => void, died: (why: string) => void) => Omit<WorkerPort, 'onMessage' | 'onExit'>): WorkerPort {
  const replies: WorkerReply[] = [];
  let death: string | null = null;
  let onReply: ((reply: WorkerReply) => void) | null = null;
  let onDeath: ((why: string) => void) | null = null;
  const port = start(
    (reply) => (onReply ? onReply(reply) : replies.push(reply)),
    (why) => {
      death ??= why;
      onDeath?.(why);
    },
  );
  return {
    ...port,
    onMessage(listener) {
      onReply = listener;
      for (const reply of replies.splice(0)) listener(reply);
    },
    onExit(listener) {
      onDeath = listener;
      if (death !== null) listener(death);
    },
  };
}

/** A worker handed out is idle once it has answered everything asked of it and nothing more came for this long. */
const IDLE_MS = 100;

/**
 * The port, with `then` called once, when the worker has answered every request sent to it and
 * none came for IDLE_MS (or when it is terminated first); `cancel` forgets `then`.
 */
function watchIdle(port: WorkerPort, then: () => void): { port: WorkerPort; cancel(): void } {
  let outstanding = 0;
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    done = true;
    clearTimeout(timer);
  };
  const fire = () => {
    if (done) return;
    cancel();
    then();
  };
  return {
    cancel,
    port: {
      ...port,
      post(message) {
        outstanding++;
        clearTimeout(timer);
        port.post(message);
      },
      onMessage(listener) {
        port.onMessage((reply) => {
          outstanding = Math.max(0, outstanding - 1);
          listener(reply);
          if (outstanding === 0 && !done) {
            clearTimeout(timer);
            timer = setTimeout(() => outstanding === 0 && fire(), IDLE_MS);
            (timer as { unref?: () => void }).unref?.();
          }
        });
      },
      terminate() {
        port.terminate();
        fire();
      },
    },
  };
}

/** Hands out shell workers (`take`) and takes back the ones whose shell ended cleanly (`release`). */
export interface WorkerPool {
  take(): WorkerPort;
  release(port: WorkerPort): void;
}

/**
 * A pool of one waiting worker. `take` hands out the waiting one (or a new worker); the next spare
 * starts once the worker handed out is idle (its shell made and its task's init run): started
 * beside it, the spare's loading competed with that worker's start and init for the same cores
 * (a page opened on an OS task). `release` takes back a worker whose shell ended with nothing
 * running: it waits as the spare (ending a fresh one), so the next shell runs in a worker whose
 * code has run before (JIT-compiled) and the worker's next `init` makes a new shell, sharing nothing.
 * `keepAlive(port, false)` lets a waiting worker not hold a Node process open; `startedElsewhere`
 * gives a worker started before the pool (at most once) to wait as its spare.
 */
export function withSpare(
  spawn: (deliver: (reply: WorkerReply) => void, died: (why: string) => void) => Omit<WorkerPort, 'onMessage' | 'onExit'>,
  keepAlive?: (port: WorkerPort, alive: boolean) => void,
  startedElsewhere?: () => WorkerPort | null,
): WorkerPool {
  let spare: WorkerPort | null = null;
  // A worker started before the pool existed (browser-worker.ts, a page opened on a Play link) waits as its first spare.
  const adopt = () => {
    const port = startedElsewhere?.();
    if (port && !spare) spare = port;
    else port?.terminate();
  };
  const handedOutPorts = new WeakMap<WorkerPort, { port: WorkerPort; cancel(): void }>();
  const wait = (port: WorkerPort) => {
    spare = port;
    keepAlive?.(port, false);
  };
  const startSpare = () => {
    if (!spare) wait(buffered(spawn));
  };
  return {
    take() {
      adopt();
      const port = spare ?? buffered(spawn);
      spare = null;
      keepAlive?.(port, true);
      const watched = watchIdle(port, startSpare);
      handedOutPorts.set(watched.port, { port, cancel: watched.cancel });
      return watched.port;
    },
    release(handedOut) {
      const known = handedOutPorts.get(handedOut);
      if (!known) return handedOut.terminate();
      handedOutPorts.delete(handedOut);
      known.cancel();
      spare?.terminate();
      wait(known.port);
    },
  };
}
