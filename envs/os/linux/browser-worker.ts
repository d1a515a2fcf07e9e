/**
 * The Linux backend's web worker: the emulator runs here, off the page's thread, so the page
 * stays responsive during a busy command. It restores the saved state (unpacked by the page,
 * browser.ts) into a fresh machine and serves the Shell calls of one episode.
 */
import wasmUrl from 'v86/build/v86.wasm?url';
import { LinuxMachine, type MachineFiles, type V86Constructor } from './machine.ts';
import { LinuxShell } from './shell.ts';
import { fetchedBy, type LinuxRequest, type LinuxResponse } from './worker-protocol.ts';

// Every disk read is a request: keep them all for the bench's download figures (the default keeps 250).
performance.setResourceTimingBufferSize(100_000);

let shell: LinuxShell | null = null;
/**
 * The saved state, this worker's own: each restore (the first, and one after a hung guest) reads
 * it, and v86 reads a state without changing it (test:linux checks that in Node).
 */
let pristine: ArrayBuffer | null = null;

/** The state as this worker keeps it: v86 decodes text from it, which browsers refuse on shared memory, so shared memory is copied once here, off the page's thread. */
function ownCopy(state: ArrayBuffer | SharedArrayBuffer): ArrayBuffer {
  if (state instanceof ArrayBuffer) return state;
  const own = new ArrayBuffer(state.byteLength);
  new Uint8Array(own).set(new Uint8Array(state));
  return own;
}

const reply = (message: LinuxResponse) => (self as unknown as Worker).postMessage(message);

/**
 * The disk is read by HTTP range requests in aligned pieces of this size, each kept in the worker
 * once read: the saved state holds only what most tasks' first commands read (image/boot.ts), so a
 * whole-disk `find /` reads the rest. Measured on it (npm run bench): a request per guest read
 * fetched 2 MB in 428 requests (5.9-6.1 s), 64 KB pieces 12 MB in 182 (5.0-5.2 s), 256 KB pieces
 * 25 MB in 95 (4.3-4.4 s); 64 KB keeps both the bytes and the round trips low.
 */
const DISK_CHUNK_BYTES = 64 * 1024;

let compiled: Promise<WebAssembly.Module> | undefined;

async function files(base: string): Promise<MachineFiles> {
  const head = await fetch(`${base}disk.img`, { method: 'HEAD' });
  const size = Number(head.headers.get('content-length'));
  if (!head.ok || !size) throw new Error(`${base}disk.img is not served (build the image with npm run os:image)`);
  return {
    bios: { url: `${base}bios.bin` },
    vgaBios: { url: `${base}vgabios.bin` },
    disk: { url: `${base}disk.img`, async: true, size, fixed_chunk_size: DISK_CHUNK_BYTES },
    // Compiled once in this worker (a hung guest's machine is restored again from it).
    wasm: () => (compiled ??= WebAssembly.compileStreaming(fetch(wasmUrl))),
  };
}

/** What `prepare` loaded ahead of the restore: v86 and the image's files. */
let loaded: { V86: V86Constructor; files: MachineFiles } | null = null;

async function restore(): Promise<LinuxMachine> {
  if (!pristine || !loaded) throw new Error('the Linux machine has no saved state');
  const machine = await LinuxMachine.start(loaded.V86, loaded.files, pristine);
  machine.session.onText = () => {};
  if (!(await machine.ready(30_000))) throw new Error('the restored machine did not show its prompt');
  return machine;
}

/** The running command's output so far, to the page (a terminal view streams it). */
function flushText(): void {
  const text = shell?.current.session.takeText();
  if (text) reply({ id: -1, text });
}
// A few times a second while a command runs, and before each answer, so the last piece comes first.
setInterval(flushText, 50);

self.onmessage = async (event: MessageEvent<LinuxRequest>) => {
  const request = event.data;
  try {
    switch (request.op) {
      case 'prepare': {
        pristine = ownCopy(request.state);
        const [{ V86 }, image] = await Promise.all([import('v86') as unknown as Promise<{ V86: V86Constructor }>, files(request.base)]);
        loaded = { V86, files: image };
        reply({ id: request.id, ok: true });
        return;
      }
      case 'start':
        shell = new LinuxShell(await restore(), restore);
        reply({ id: request.id, ok: true });
        return;
      case 'exec': {
        const result = await need().exec(request.command, { timeoutMs: request.timeoutMs });
        flushText();
        reply({ id: request.id, ok: true, result });
        return;
      }
      case 'run':
        reply({ id: request.id, ok: true, result: await need().run(request.script, request.args, { timeoutMs: request.timeoutMs }) });
        return;
      case 'readFile':
        reply({ id: request.id, ok: true, result: await need().readFile(request.path) });
        return;
      case 'type':
        need().current.emulator.serial0_send(request.text);
        reply({ id: request.id, ok: true });
        return;
      case 'fetched':
        reply({ id: request.id, ok: true, result: fetchedBy(performance) });
        return;
    }
  } catch (err) {
    reply({ id: request.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};

function need(): LinuxShell {
  if (!shell) throw new Error('the Linux machine has not started');
  return shell;
}
