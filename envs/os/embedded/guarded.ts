/**
 * A hard deadline for the embedded shell, enforced from outside the engine (issue 16): the shell
 * runs in a worker; when a call has not answered by its time limit plus a grace period (just-bash
 * checks the clock only between commands, so one long builtin or python expression can outlast
 * it), the worker is terminated, a new one is started with the same seed, and every call that
 * completed before is replayed (the shell is deterministic: same seed and calls, same state). The
 * stopped call reports that it was stopped, as the shell's own limit does. A cancelled step
 * (its AbortSignal) and a worker that dies on its own (Node's heap limit) are handled the same way.
 * A worker ended at Node's heap bound reports its command as the deadline does: the browser's
 * workers have no heap bound, so there the same command runs into its deadline, and which of the two
 * comes first in Node depends on the machine's speed; one observation keeps an episode the same in
 * Node and the browser, and a verify run meets the observation its record holds.
 */
import { callsInOrder, DEFAULT_COMMAND_TIMEOUT_MS, type Shell, type ShellExecOptions, type ShellFactory, type ShellResult } from '../shell.ts';
import { HEAP_BOUND_REACHED, type ShellCall, type WorkerPort, type WorkerReply, type WorkerRequest } from './worker-protocol.ts';
import { withSpare, type WorkerPool } from './spare.ts';
import { startBrowserWorker, takeEarlyWorker } from './browser-worker.ts';

/** Time a call may take beyond its own limit before the worker is terminated. */
export const GRACE_MS = 500;
/** Limit for calls without one (the worker shell's default applies inside). */
const READ_LIMIT_MS = 5000;
/** Starting a worker: loading just-bash and seeding the filesystem. */
const START_LIMIT_MS = 60_000;

export interface GuardedShellOptions {
  seed: number;
  /** Starts a worker running the shell (browserWorkers.take, or nodeWorkerPort in node-worker.ts). */
  spawn: () => WorkerPort;
  /** Takes back the worker of a shell disposed with nothing running, for the next shell (a WorkerPool's release); else it is terminated. */
  release?: (port: WorkerPort) => void;
  commandTimeoutMs?: number;
  graceMs?: number;
}

type Outcome = { kind: 'reply'; reply: WorkerReply } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'died'; why: string };

export class GuardedShell implements Shell {
  readonly kind = 'embedded' as const;
  private port: WorkerPort | null = null;
  private nextId = 1;
  private pending = new Map<number, (outcome: Outcome) => void>();
  /** Completed calls, replayed into a new worker after a kill. */
  private readonly log: ShellCall[] = [];
  private readonly inOrder = callsInOrder();
  private disposed = false;
  /** How many times a worker was ended from outside or died (for tests and figures). */
  kills = 0;

  constructor(private readonly options: GuardedShellOptions) {}

  private start(): WorkerPort {
    const port = this.options.spawn();
    port.onMessage((reply) => {
      const settle = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      settle?.({ kind: 'reply', reply });
    });
    port.onExit?.((why) => {
      // Only the current worker's death matters (a terminated one also reports its exit).
      if (this.port !== port) return;
      for (const settle of this.pending.values()) settle({ kind: 'died', why });
      this.pending.clear();
    });
    this.port = port;
    return port;
  }

  /** Send one request and wait for its reply, the deadline, an abort or the worker's death. */
  private request(port: WorkerPort, message: ShellCall | { op: 'init'; seed: number; commandTimeoutMs?: number; warmFirst?: boolean }, deadlineMs: number, signal?: AbortSignal): Promise<Outcome> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const settle = (outcome: Outcome) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        resolve(outcome);
      };
      const onAbort = () => settle({ kind: 'aborted' });
      const timer = setTimeout(() => settle({ kind: 'timeout' }), deadlineMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, settle);
      port.post({ ...message, id } as WorkerRequest);
    });
  }

  private limitOf(call: ShellCall): number {
    const own = call.op === 'readFile' ? READ_LIMIT_MS : (call.timeoutMs ?? this.options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
    return own + (this.options.graceMs ?? GRACE_MS);
  }

  /** A fresh worker with the state of every completed call. */
  private async rebuild(): Promise<WorkerPort> {
    this.port?.terminate();
    this.pending.clear();
    const port = this.start();
    try {
      const init = await this.request(port, { op: 'init', seed: this.options.seed, commandTimeoutMs: this.options.commandTimeoutMs, warmFirst: this.kills > 0 }, START_LIMIT_MS);
      if (init.kind !== 'reply' || !init.reply.ok) throw new Error(init.kind === 'died' ? `the shell worker did not start (${init.why})` : 'the shell worker did not start');
      for (const call of this.log) {
        const replayed = await this.request(port, call, this.limitOf(call) * 2);
        if (replayed.kind !== 'reply') throw new Error('replaying the episode into a new shell worker did not finish');
      }
    } catch (err) {
      // The next call tries again from scratch.
      port.terminate();
      this.port = null;
      throw err;
    }
    return port;
  }

  private call(call: ShellCall, signal?: AbortSignal): Promise<Outcome> {
    const run = async (): Promise<Outcome> => {
      if (this.disposed) return { kind: 'reply', reply: { id: 0, ok: true, result: { output: 'The shell has been closed.\n', exitCode: 1, timedOut: false } } };
      if (signal?.aborted) return { kind: 'aborted' };
      const port = this.port ?? (await this.rebuild());
      const outcome = await this.request(port, call, this.limitOf(call), signal);
      if (outcome.kind === 'reply') {
        if (call.op !== 'readFile') this.log.push(call);
        return outcome;
      }
      // Whatever the call did is dropped with its worker; the next call starts a new one.
      this.kills++;
      this.port?.terminate();
      this.port = null;
      return outcome;
    };
    return this.inOrder(run);
  }

  private async shellCall(call: ShellCall, signal?: AbortSignal): Promise<ShellResult> {
    let outcome: Outcome;
    try {
      outcome = await this.call(call, signal);
    } catch (err) {
      return { output: `bash: the shell could not be restored: ${err instanceof Error ? err.message : String(err)}\n`, exitCode: 1, timedOut: false };
    }
    const unchanged = 'files it changed are as before it.]\n';
    switch (outcome.kind) {
      case 'reply':
        return outcome.reply.ok ? (outcome.reply.result as ShellResult) : { output: `bash: ${outcome.reply.error}\n`, exitCode: 1, timedOut: false };
      case 'died':
        if (outcome.why !== HEAP_BOUND_REACHED) return { output: `[The command was stopped: the shell failed while running it (${outcome.why}); ${unchanged}`, exitCode: 137, timedOut: true };
        return this.pastDeadline(call, unchanged);
      case 'timeout':
        return this.pastDeadline(call, unchanged);
      case 'aborted':
        return { output: `[The command was stopped: it was cancelled; ${unchanged}`, exitCode: 130, timedOut: true };
    }
  }

  /** A call ended at its deadline (or at Node's heap bound: see the top of this file). */
  private pastDeadline(call: ShellCall, unchanged: string): ShellResult {
    return { output: `[The command was stopped: it ran longer than ${(this.limitOf(call) / 1000).toFixed(1)} s and was ended from outside the shell; ${unchanged}`, exitCode: 124, timedOut: true };
  }

  exec(command: string, options?: ShellExecOptions): Promise<ShellResult> {
    return this.shellCall({ op: 'exec', command, timeoutMs: options?.timeoutMs }, options?.signal);
  }

  run(script: string, args: readonly string[] = [], options?: ShellExecOptions): Promise<ShellResult> {
    return this.shellCall({ op: 'run', script, args: [...args], timeoutMs: options?.timeoutMs }, options?.signal);
  }

  async readFile(path: string): Promise<string | null> {
    try {
      const outcome = await this.call({ op: 'readFile', path });
      return outcome.kind === 'reply' && outcome.reply.ok ? (outcome.reply.result as string | null) : null;
    } catch {
      return null;
    }
  }

  dispose(): void {
    this.disposed = true;
    const port = this.port;
    this.port = null;
    // Nothing asked of the worker is unanswered: it frees this shell and can serve the next (its next init makes a new one).
    if (port && this.pending.size === 0 && this.options.release) {
      port.post({ id: 0, op: 'drop' });
      this.options.release(port);
    } else port?.terminate();
  }
}

/** The page's shell workers: the one waiting (a spare, one an ended shell gave back, or the early one), if any. */
export const browserWorkers: WorkerPool = withSpare(startBrowserWorker, undefined, takeEarlyWorker);

/** Each episode's embedded shell in its own guarded Web Worker (the app's default). */
export function browserGuardedShellFactory(options: Omit<GuardedShellOptions, 'seed' | 'spawn' | 'release'> = {}): ShellFactory {
  return async ({ seed }) => new GuardedShell({ ...options, seed, spawn: browserWorkers.take, release: browserWorkers.release });
}
