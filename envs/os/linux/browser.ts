/**
 * The Linux backend in the browser: a Shell whose machine runs in a web worker
 * (browser-worker.ts), one worker per episode (terminated on dispose: nothing leaks). The image
 * is served under /os-image/ (envs/os/vite.ts serves the built image there, envs/os/linux/imageDir.ts).
 */
import { whenPageIdle } from '../../core/idle.ts';
import type { LiveConsole, Shell, ShellExecOptions, ShellResult } from '../shell.ts';
import type { Fetched, LinuxRequest, LinuxResponse } from './worker-protocol.ts';

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
 * The saved state, fetched and unpacked once per page (22 MB gzip, 62 MB unpacked), so a restore
 * no longer waits on the download and gunzip. Where the page may share memory with its workers
 * (cross-origin isolated, as the app's server makes it) it is unpacked into shared memory that
 * every episode's worker reads, so the page copies nothing per episode; elsewhere each worker is
 * sent a copy (62 MB copied on the page's thread per restore; 171 MB, 0.2-0.3 s, before the state was slimmed).
 */
let unpackedState: { base: string; state: Promise<ArrayBuffer | SharedArrayBuffer> } | null = null;

/**
 * The next episode's machine, made once Linux is chosen and again once an episode has started: its
 * worker has its copy of the state, v86 loaded and the machine restored, so the episode that
 * takes it starts at once. It holds a copy of the state (62 MB) and a running machine until
 * taken or dropped.
 */
let spare: { base: string; shell: Promise<BrowserLinuxShell> } | null = null;

/**
 * Makes the next episode's machine ahead when none waits: only where the state is shared (the copy
 * is then made on the worker's thread; a page's own copy would freeze the page while the person
 * reads the task), one at most, also when several episodes start at once.
 */
function readySpare(base: string): void {
  if (!spareWanted || !canShare() || spare) return;
  const shell = BrowserLinuxShell.restored(base);
  spare = { base, shell };
  // A spare that could not be made is forgotten: the next episode restores its own machine.
  shell.catch(() => spare?.shell === shell && (spare = null));
}

/** Whether Linux is in use in this page: off once another shell is chosen, so a prefetch finishing late makes no spare. */
let spareWanted = false;

/** Ends the waiting spare worker (the person chose another shell). */
export function dropLinuxSpare(): void {
  spareWanted = false;
  const waiting = spare;
  spare = null;
  void waiting?.shell.then((shell) => shell.dispose(), () => undefined);
}

const canShare = () => typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated === true;

/** The decompressed bytes straight into growing shared memory, a chunk as it arrives (no copy of the whole at the end). */
async function intoShared(stream: ReadableStream<Uint8Array>): Promise<SharedArrayBuffer> {
  // Growable shared memory (ES2024; this project's TypeScript library is ES2022).
  const Growable = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer & { grow(length: number): void };
  const shared = new Growable(0, { maxByteLength: 1 << 30 });
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return shared;
    const at = shared.byteLength;
    shared.grow(at + value.byteLength);
    new Uint8Array(shared, at, value.byteLength).set(value);
  }
}

function savedState(base: string): Promise<ArrayBuffer | SharedArrayBuffer> {
  if (unpackedState?.base !== base) {
    const state = (async () => {
      const response = await fetch(`${base}state.bin.gz`);
      if (!response.ok || !response.body) throw new Error(`${base}state.bin.gz: HTTP ${response.status} (build the image with npm run os:image)`);
      const unpacked = response.body.pipeThrough(new DecompressionStream('gzip'));
      return canShare() ? intoShared(unpacked) : new Response(unpacked).arrayBuffer();
    })();
    unpackedState = { base, state };
    // A failed download is tried again by the next episode.
    state.catch(() => unpackedState?.state === state && (unpackedState = null));
  }
  return unpackedState.state;
}

/**
 * Fetches and unpacks the saved state in the page's idle time, when Linux was chosen and before a
 * task opens, then makes the first episode's machine ahead (where the state is shared): the first
 * task then starts as a later one does, not after the download and restore.
 */
export function warmLinuxState(base = OS_IMAGE_BASE): void {
  spareWanted = true;
  whenPageIdle(() => {
    void linuxImageServed(base)
      .then((served) => (served ? savedState(base).then(() => readySpare(base)) : undefined))
      .catch(() => undefined);
  });
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

  /** A new episode's machine: the waiting spare when there is one (restored already), else restored now. */
  static async start(base = OS_IMAGE_BASE): Promise<BrowserLinuxShell> {
    if (spare && spare.base !== base) dropLinuxSpare();
    spareWanted = true;
    const taken = spare?.shell ?? null;
    spare = null;
    const shell = (taken && (await taken.catch(() => null))) || (await BrowserLinuxShell.restored(base));
    // The next episode's machine is made meanwhile (a person's next task, a batch's next episode).
    readySpare(base);
    return shell;
  }

  /** A worker with a machine restored from the saved state, at its prompt. */
  static async restored(base: string): Promise<BrowserLinuxShell> {
    const shell = await BrowserLinuxShell.prepare(base);
    try {
      await shell.call({ op: 'start' });
    } catch (err) {
      shell.worker.terminate();
      throw err;
    }
    return shell;
  }

  /** A worker with its own copy of the saved state and v86 loaded: a restore away from a machine. */
  private static async prepare(base: string): Promise<BrowserLinuxShell> {
    const worker = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module' });
    const shell = new BrowserLinuxShell(worker);
    try {
      const unpacked = await savedState(base);
      // Shared memory is read by the worker in place; a page's own buffer is copied and the copy handed over.
      const state = unpacked instanceof ArrayBuffer ? unpacked.slice(0) : unpacked;
      await shell.call({ op: 'prepare', base, state }, state instanceof ArrayBuffer ? [state] : []);
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

  /** What this machine's worker has downloaded so far (the bench's figures; the saved state is the page's). */
  async fetched(): Promise<Fetched> {
    return (await this.call({ op: 'fetched' })) as Fetched;
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
