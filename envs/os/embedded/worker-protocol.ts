/** Messages between a GuardedShell and the worker that hosts its embedded shell. */
import type { ShellResult } from '../shell.ts';

export type ShellCall =
  | { op: 'exec'; command: string; timeoutMs?: number }
  | { op: 'run'; script: string; args: string[]; timeoutMs?: number }
  | { op: 'readFile'; path: string };

/** `warmFirst`: warm the worker up before making the shell (a restart after a kill, whose replay must not pay first uses). */
/** `drop`: the shell's episode ended and the worker waits for the next one: free the shell (no reply). */
export type WorkerRequest = { id: number; op: 'init'; seed: number; commandTimeoutMs?: number; warmFirst?: boolean } | { id: number; op: 'drop' } | ({ id: number } & ShellCall);

export type WorkerReply = { id: number; ok: true; result: ShellResult | string | null } | { id: number; ok: false; error: string };

/** The few things GuardedShell needs from a worker (a browser Worker or a node worker_threads Worker). */
export interface WorkerPort {
  post(message: WorkerRequest): void;
  onMessage(listener: (message: WorkerReply) => void): void;
  /** The worker died on its own (a script error, or Node's heap limit), with why. */
  onExit?(listener: (why: string) => void): void;
  terminate(): void;
}

/**
 * What a worker's `died` says when Node ended it at its heap bound (ERR_WORKER_OUT_OF_MEMORY): the
 * guarded shell reports that as its deadline (guarded.ts).
 */
export const HEAP_BOUND_REACHED = 'the shell worker reached its heap bound';

