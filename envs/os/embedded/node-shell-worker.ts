/** Node worker_threads entry: the embedded shell of one GuardedShell in the CLI and tests (see node-worker.ts). */
import { parentPort } from 'node:worker_threads';
import type { WorkerRequest } from './worker-protocol.ts';
import { serveShell } from './worker-serve.ts';

const port = parentPort;
if (!port) throw new Error('node-shell-worker.ts must run in a worker thread');
const accept = serveShell((reply) => port.postMessage(reply), { warmBeforeShell: true });
port.on('message', (request: WorkerRequest) => accept(request));
