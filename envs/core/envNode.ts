/**
 * An environment's Node side (envs/<id>/node.ts, the catalogue's `node` line): what the CLI and the
 * benchmarks ask of it, so scripts loop over environments and name none. Never loaded by the app.
 */
import type { RunawayBench } from './runawayBench.ts';

export interface EnvNode {
  /**
   * Run new episodes on backend `id` (one of the definition's `backends.ids`); rejects with a
   * message saying why it cannot run here (not built, browser only).
   */
  useBackend?(id: string): Promise<void>;
  /**
   * Run the environment's engine in worker threads (true: a runaway is stopped from outside and
   * its heap is bounded; the CLI's choice) or on the calling thread (false, the default).
   */
  useWorkers?(on: boolean): Promise<void>;
  /** Its part of `npm run bench:runaway`. */
  runaway?(): Promise<RunawayBench>;
  /**
   * Its part of `scripts/bench-links.ts` (a page opened on a task's Play link, the first action sent as
   * the problem shows): the tasks to open and a cheap action whose observation contains `word`.
   */
  links?: { tasks: readonly string[]; action(word: string): string };
}
