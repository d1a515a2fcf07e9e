/** Messages between the page and the Linux backend's web worker (browser-worker.ts). */
import type { ShellResult } from '../shell.ts';

export type LinuxRequest =
  /** `state`: the saved machine state, unpacked once by the page: shared with each episode's worker, or a copy of its own. */
  | { id: number; op: 'prepare'; base: string; state: ArrayBuffer | SharedArrayBuffer }
  /** Restore the prepared state into a machine (once, after `prepare`). */
  | { id: number; op: 'start' }
  | { id: number; op: 'exec'; command: string; timeoutMs?: number }
  | { id: number; op: 'run'; script: string; args: string[]; timeoutMs?: number }
  | { id: number; op: 'readFile'; path: string }
  /** Keys a person typed in the terminal, sent to the session console as they are. */
  | { id: number; op: 'type'; text: string }
  /** What this worker has downloaded so far (v86, the BIOS, the disk's blocks): the bench's figures. */
  | { id: number; op: 'fetched' };

/** Bytes and requests a worker or page has fetched (Resource Timing: transfer sizes, headers included). */
export interface Fetched {
  bytes: number;
  requests: number;
}

/** What a page's or worker's `performance` timeline has fetched, of the addresses `keep` accepts. */
export function fetchedBy(timeline: Performance, keep: (url: URL) => boolean = () => true): Fetched {
  const entries = (timeline.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => keep(new URL(e.name)));
  return { bytes: entries.reduce((sum, e) => sum + e.transferSize, 0), requests: entries.length };
}

export type LinuxResponse =
  | { id: number; ok: true; result?: ShellResult | string | null | Fetched }
  | { id: number; ok: false; error: string }
  /** What the guest printed on the session console (marks removed), for the terminal view. */
  | { id: -1; text: string };
