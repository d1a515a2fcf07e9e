/**
 * The shell side of the worker protocol: one embedded shell answering GuardedShell's requests,
 * one at a time and in order (the shell is a single session). Used by the browser entry
 * (shell-worker.ts) and the Node one (node-shell-worker.ts).
 */
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';
import { createEmbeddedShell, type EmbeddedShell } from './index.ts';

/** A handler for incoming requests that answers each through `post`. */
export function serveShell(post: (reply: WorkerReply) => void): (request: WorkerRequest) => void {
  let shell: EmbeddedShell | null = null;
  const handle = async (request: WorkerRequest): Promise<void> => {
    try {
      if (request.op === 'init') {
        shell = await createEmbeddedShell({ seed: request.seed, commandTimeoutMs: request.commandTimeoutMs });
        post({ id: request.id, ok: true, result: null });
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
  let chain = Promise.resolve();
  return (request) => {
    chain = chain.then(() => handle(request));
  };
}
