/**
 * What the embedded shell's extra commands share: the filesystem, the simulated clock,
 * file ownership (just-bash has a single user, so owners are kept here), and small helpers
 * for writing commands.
 */
import type { Command, ExecResult, IFileSystem, ResolvedCommandContext } from 'just-bash';
import type { SimClock } from './clock.ts';
import type { Identity } from './perms.ts';

export interface Owner {
  uid: number;
  gid: number;
}

export interface Host {
  fs: IFileSystem;
  /** The filesystem without permission checks (to ask what a user may do). */
  rawFs: IFileSystem;
  clock: SimClock;
  /** Owner of a path when it is not root:root. */
  owners: Map<string, Owner>;
  cpus: number;
  /** PID of the interactive login shell. */
  shellPid: number;
  /** Seeded random numbers (mktemp names, /dev/urandom). */
  random: () => number;
  /** The seeded stream just-bash's own randomness ($RANDOM) draws from while a command runs. */
  shellRandom: () => number;
  /** When the container started (simulated epoch ms): devices and /proc carry it. */
  bootTime: number;
  /** When the image's files were written (before the boot). */
  imageTime: number;
  /** Who the running command acts as (root unless su/runuser/sudo -u or a login changed it). */
  identity: Identity;
  /** Packages installed beyond the image's (apt): e.g. sudo, which ubuntu's image lacks. */
  packages: Set<string>;
  /** Set while a command runs in the interactive session (so `su USER` can log in there). */
  interactive: boolean;
  /** A login an interactive `su [-] USER` asked for, applied when the command ends. */
  pendingLogin: { user: Identity; loginShell: boolean; shell: string } | null;
}

export type Run = (args: string[], ctx: ResolvedCommandContext) => Promise<ExecResult>;

export function command(name: string, run: Run): Command {
  return { name, trusted: true, execute: run };
}

export const ok = (stdout = ''): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
export const fail = (stderr: string, exitCode = 1): ExecResult => ({ stdout: '', stderr: stderr.endsWith('\n') ? stderr : `${stderr}\n`, exitCode });

/** A command's standard input as bytes (just-bash hands it over as a byte string: one character a byte). */
export function stdinBytes(ctx: ResolvedCommandContext): Uint8Array {
  const text = String(ctx.stdin);
  return Uint8Array.from({ length: text.length }, (_, i) => text.charCodeAt(i) & 0xff);
}

export function abs(ctx: ResolvedCommandContext, path: string): string {
  return ctx.fs.resolvePath(ctx.cwd, path);
}

/** The (simulated) user a command runs as: $USER, which is root unless `su USER -c` set it. */
export function currentUser(ctx: ResolvedCommandContext): string {
  return ctx.env.get('USER') || 'root';
}
