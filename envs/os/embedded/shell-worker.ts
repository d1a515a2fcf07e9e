/**
 * Browser module worker entry: hosts one embedded shell off the page's main thread, so a
 * command that just-bash cannot interrupt is stopped from outside by terminating the worker
 * (GuardedShell). Started by browserWorkerPort (guarded.ts).
 */
import type { WorkerRequest } from './worker-protocol.ts';
import { serveShell } from './worker-serve.ts';

const scope = self as unknown as { postMessage(m: unknown): void; onmessage: ((e: MessageEvent) => void) | null };
const accept = serveShell((reply) => scope.postMessage(reply));
scope.onmessage = (event) => accept(event.data as WorkerRequest);
