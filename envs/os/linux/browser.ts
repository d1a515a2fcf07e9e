/**
 * The Linux backend in the browser: a Shell whose machine runs in a web worker
 * (browser-worker.ts), one worker per episode (terminated on dispose: nothing leaks). The image
 * is served under /os-image/ (envs/os/vite.ts serves the built image there, envs/os/linux/imageDir.ts).
 */
import type { LiveConsole, Shell, ShellExecOptions, ShellResult } from '../shell.ts';
import type { LinuxRequest, LinuxResponse } from './worker-protocol.ts';

export const OS_IMAGE_BASE = '/os-image/';

/** Whether this server has the Linux image and its saved state. */
export async function linuxImageServed(base = OS_IMAGE_BASE): Promise<boolean> {
  try {
    const r = await fetch(`${base}state.bin.gz`, { method: 'HEAD' });
    return r.ok;
  } catch {
    return false;
  }
}

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The saved state, fetched and unpacked once per page (66 MB gzip, 171 MB unpacked): each
 * episode's worker gets a copy, so a restore no longer waits on the download and gunzip.
 */
let unpackedState: { base: string; state: Promise<ArrayBuffer> } | null = null;

function savedState(base: string): Promise<ArrayBuffer> {
  if (unpackedState?.base !== base) {
    const state = (async () => {
      const response = await fetch(`${base}state.bin.gz`);
      if (!response.ok || !response.body) throw new Error(`${base}state.bin.gz: HTTP ${response.status} (build the image with npm run os:image)`);
      return new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
    })();
    unpackedState = { base, state };
    // A failed download is tried again by the next episode.
    state.catch(() => unpackedState?.state === state && (unpackedState = null));
  }
  return unpackedState.state;
}

export class BrowserLinuxShell implements Shell {
  readonly kind = 'linux' as const;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<(text: string) => void>();
  /** The running command's output as the guest prints it, and Ctrl+C, for the person's terminal. */
  readonly live: LiveConsole = {
    listen: (listener) => {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    },
    interrupt: () => this.type('\x03'),
  };
  restoreMs = 0;

  private constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<LinuxResponse>) => {
      const m = event.data;
      if ('text' in m) {
        for (const listener of this.listeners) listener(m.text);
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
    };
  }

  static async start(base = OS_IMAGE_BASE): Promise<BrowserLinuxShell> {
    const worker = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module' });
    const shell = new BrowserLinuxShell(worker);
    try {
      const state = (await savedState(base)).slice(0);
      const { restoreMs } = (await shell.call({ op: 'start', base, state }, [state])) as { restoreMs: number };
      shell.restoreMs = restoreMs;
    } catch (err) {
      worker.terminate();
      throw err;
    }
    return shell;
  }

  private call(body: Body<LinuxRequest>, transfer: Transferable[] = []): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as LinuxRequest, transfer);
    });
  }

  async exec(command: string, options?: ShellExecOptions): Promise<ShellResult> {
    return (await this.call({ op: 'exec', command, timeoutMs: options?.timeoutMs })) as ShellResult;
  }

  async run(script: string, args: readonly string[] = [], options?: ShellExecOptions): Promise<ShellResult> {
    return (await this.call({ op: 'run', script, args: [...args], timeoutMs: options?.timeoutMs })) as ShellResult;
  }

  async readFile(path: string): Promise<string | null> {
    return (await this.call({ op: 'readFile', path })) as string | null;
  }

  /** Keys typed in a terminal view, to the guest's session console. */
  type(text: string): void {
    void this.call({ op: 'type', text });
  }

  dispose(): void {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error('the Linux machine was closed'));
    this.pending.clear();
  }
}
