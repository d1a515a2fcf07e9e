/**
 * One emulated PC running the Linux image (v86), with its two serial consoles: the session
 * (ttyS0, what the agent or person types into) and the script runner (ttyS1, upstream's
 * `docker exec` for init, example and check scripts). Works wherever v86 runs (Node, a web
 * worker); the caller says where the files are.
 */
import type { V86, V86Image, V86Options } from 'v86';
import { SerialConsole } from './console.ts';

/** Where the image's files are: a path (Node) or URL (browser), or bytes. */
export interface MachineFiles {
  bios: V86Image;
  vgaBios: V86Image;
  /** The disk: read in blocks as the guest asks (async), writes kept in memory per machine. */
  disk: V86Image;
  kernel?: V86Image;
  initrd?: V86Image;
  cmdline?: string;
  /** v86's compiled WebAssembly (compiled once per process or worker by the caller). */
  wasm: () => Promise<WebAssembly.Module>;
}

/** The guest memory's page: what v86's zeroing is checked by. */
const PAGE = 4096;
/** Where v86 writes while it builds a machine, before restoring a state (its BIOSes sit below 1 MB). */
export const STARTUP_WRITES_BELOW = 1 << 20;

/**
 * v86's exports with one change, for a machine about to restore a state: v86 zeroes all guest
 * memory (256 MB) before writing the state's non-zero pages, which took 150 ms of a 240 ms restore
 * in Node and made every page resident. A new machine's memory is zero but for what v86 wrote while
 * building it, all below STARTUP_WRITES_BELOW (`npm run test:linux` checks that on every build of
 * the image), so that first zeroing clears only the non-zero pages there. Any later zeroing is v86's own.
 */
export function zeroOnlyWhatIsNot(exports: WebAssembly.Exports, checkFresh?: (zeroAbove: boolean) => void): WebAssembly.Exports {
  const zero = exports.zero_memory as (at: number, length: number) => void;
  const isZero = exports.is_memory_zeroed as (at: number, length: number) => number;
  let fresh = true;
  return {
    ...exports,
    zero_memory: (at: number, length: number) => {
      if (!fresh || at !== 0) return zero(at, length);
      fresh = false;
      // test:linux's check (it reads all 256 MB, about 80 ms): nothing above where v86 writes while building a machine.
      checkFresh?.(Boolean(isZero(STARTUP_WRITES_BELOW, length - STARTUP_WRITES_BELOW)));
      for (let page = 0; page < Math.min(length, STARTUP_WRITES_BELOW); page += PAGE) if (!isZero(page, PAGE)) zero(page, PAGE);
    },
  };
}

/** The part of v86's scheduler this file changes (v86's `main.js`; not in its typings). */
interface V86Scheduler {
  yield(t: number, tick: number): void;
  yield_callback(tick: number): void;
  next_tick(t: number): void;
  unregister_yield(): void;
}

/**
 * v86's scheduling with one change: v86 runs the emulator again at once whenever the guest has
 * halted with its next timer less than 1 ms away (setImmediate in Node; in a browser a message
 * through a second worker), and again, until the timer is due: an idle Linux guest went round
 * about 127,000-137,000 times a second, a quarter to a third of a core per idle machine in Node and most of a core in
 * Chromium, which slowed the machine in use (npm run bench). Here a guest that has halted sleeps
 * until its timer (setTimeout); one still running (v86 returns 0) goes on at once, in a browser by
 * a message to this thread rather than through another worker.
 */
export function sleepWhenHalted(v86: V86Scheduler): void {
  let now: (run: () => void) => void;
  if (typeof setImmediate === 'function') now = (run) => setImmediate(run);
  else {
    const channel = new MessageChannel();
    const queue: (() => void)[] = [];
    channel.port1.onmessage = () => queue.shift()?.();
    now = (run) => {
      queue.push(run);
      channel.port2.postMessage(null);
    };
  }
  v86.yield = (t, tick) => {
    if (t > 0) setTimeout(() => v86.yield_callback(tick), t);
    else now(() => v86.yield_callback(tick));
  };
  // v86's own helper worker (browsers) is no longer used; its pending tick is dropped by the next one.
  v86.unregister_yield();
  v86.next_tick(0);
}

/** Same for booting and restoring: v86 restores a state only into a machine built alike. */
export const MEMORY_BYTES = 256 * 1024 * 1024;

export type V86Constructor = new (options: V86Options) => V86;

export class LinuxMachine {
  readonly session: SerialConsole;
  readonly runner: SerialConsole;
  private constructor(readonly emulator: V86) {
    this.session = new SerialConsole((text) => emulator.serial0_send(text));
    const encoder = new TextEncoder();
    this.runner = new SerialConsole((text) => emulator.serial_send_bytes(1, encoder.encode(text)));
    emulator.add_listener('serial0-output-byte', (b) => this.session.feed(b));
    emulator.add_listener('serial1-output-byte', (b) => this.runner.feed(b));
  }

  /**
   * A machine from the image: booting the kernel (no state), or restored from a saved state.
   * Resolves when the emulator runs.
   */
  static async start(V86Class: V86Constructor, files: MachineFiles, state?: ArrayBuffer, checkFresh?: (zeroAbove: boolean) => void): Promise<LinuxMachine> {
    const options: V86Options = {
      wasm_fn: async (imports: WebAssembly.Imports) => {
        const { exports } = await WebAssembly.instantiate(await files.wasm(), imports);
        // Only a machine about to restore a state skips the zeroing; a booted one keeps v86's own.
        return state ? zeroOnlyWhatIsNot(exports, checkFresh) : exports;
      },
      memory_size: MEMORY_BYTES,
      vga_memory_size: 2 * 1024 * 1024,
      bios: files.bios,
      vga_bios: files.vgaBios,
      hda: files.disk,
      uart1: true,
      acpi: false,
      fastboot: true,
      autostart: true,
      disable_keyboard: true,
      disable_mouse: true,
      disable_speaker: true,
    } as V86Options;
    if (state) options.initial_state = { buffer: state };
    else {
      options.bzimage = files.kernel;
      options.initrd = files.initrd;
      options.cmdline = files.cmdline;
    }
    const emulator = new V86Class(options);
    const machine = new LinuxMachine(emulator);
    await new Promise<void>((resolve) => emulator.add_listener('emulator-started', () => resolve()));
    sleepWhenHalted((emulator as unknown as { v86: V86Scheduler }).v86);
    return machine;
  }

  /** Both consoles at a prompt (after boot: the shells have started and read their startup files). */
  async ready(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    for (const c of [this.session, this.runner]) {
      let ok = false;
      while (!ok && Date.now() < until) ok = await c.ready(Math.min(2000, until - Date.now()));
      if (!ok) return false;
    }
    return true;
  }

  save(): Promise<ArrayBuffer> {
    return this.emulator.save_state();
  }

  async destroy(): Promise<void> {
    await this.emulator.destroy();
  }
}
