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
  wasmPath?: string;
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
  static async start(V86Class: V86Constructor, files: MachineFiles, state?: ArrayBuffer): Promise<LinuxMachine> {
    const options: V86Options = {
      wasm_path: files.wasmPath,
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
