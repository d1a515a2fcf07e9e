/**
 * The Linux backend in Node (CLI, tests, benchmarks): the image built by `npm run os:image`
 * (imageDir.ts: ~/.cache/agentplay/os-image/current), its saved state, and a ShellFactory that restores the state into
 * a fresh machine per episode.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { ShellFactory } from '../shell.ts';
import { LinuxMachine, type MachineFiles, type V86Constructor } from './machine.ts';
import { LINUX_COMMAND_TIMEOUT_MS, LinuxShell } from './shell.ts';
import { osImageDir } from './imageDir.ts';

export const IMAGE_DIR = osImageDir();
export const STATE_FILE = 'state.bin.gz';

export interface ImageManifest {
  hash: string;
  kernel: string;
  cmdline: string;
}

/** Whether the image (and, with `withState`, its saved state) is built. */
export function linuxImagePresent(withState = true, dir = IMAGE_DIR): boolean {
  return existsSync(join(dir, 'manifest.json')) && (!withState || existsSync(join(dir, STATE_FILE)));
}

/** v86's WebAssembly, compiled once per process. */
let compiledV86: Promise<WebAssembly.Module> | undefined;

export function imageFiles(dir = IMAGE_DIR): MachineFiles {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ImageManifest;
  const disk = join(dir, 'disk.img');
  const require = createRequire(import.meta.url);
  return {
    bios: { url: join(dir, 'bios.bin') },
    vgaBios: { url: join(dir, 'vgabios.bin') },
    disk: { url: disk, async: true, size: statSync(disk).size },
    kernel: { url: join(dir, 'vmlinuz') },
    initrd: { url: join(dir, 'initrd.img') },
    cmdline: manifest.cmdline,
    wasm: () => (compiledV86 ??= WebAssembly.compile(readFileSync(join(require.resolve('v86'), '../v86.wasm')))),
  };
}

export async function loadV86(): Promise<V86Constructor> {
  const module = (await import('v86')) as unknown as { V86: V86Constructor };
  return module.V86;
}

let cachedState: { dir: string; state: ArrayBuffer } | null = null;

/**
 * The saved machine state, gunzipped once per process. Every machine restores from this one buffer:
 * v86 copies what it reads and never writes to it (test:linux checks that it is unchanged after
 * episodes), so a copy per machine (62 MB) bought nothing.
 */
export function savedState(dir = IMAGE_DIR): ArrayBuffer {
  if (cachedState?.dir !== dir) {
    const bytes = gunzipSync(readFileSync(join(dir, STATE_FILE)));
    cachedState = { dir, state: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer };
  }
  return cachedState.state;
}

/** A fresh machine restored from the saved state, at a prompt. */
export async function restoreMachine(dir = IMAGE_DIR): Promise<LinuxMachine> {
  const machine = await LinuxMachine.start(await loadV86(), imageFiles(dir), savedState(dir));
  return machine;
}

/**
 * Episodes in Node's Linux backend: each restores the saved state into a machine of its own.
 * `commandTimeoutMs` is the session's limit per command (the oracle's runs give it more).
 */
export function createLinuxShellFactory(commandTimeoutMs = LINUX_COMMAND_TIMEOUT_MS): ShellFactory {
  return async () => {
    if (!linuxImagePresent()) throw new Error(`The Linux image is not built (${IMAGE_DIR}): run \`npm run os:image\` (needs root and Debian/Ubuntu apt), or use --shell embedded.`);
    return new LinuxShell(await restoreMachine(), () => restoreMachine(), commandTimeoutMs);
  };
}

export const linuxShellFactory: ShellFactory = createLinuxShellFactory();
