/**
 * The Shell interface over StackBlitz's WebContainer (@webcontainer/api, not a dependency:
 * the caller passes a loader, by default a dynamic import). Written against the documented
 * API: `WebContainer.boot()`, `spawn('jsh', ['-c', cmd])` with an `output` stream (stdout and
 * stderr merged) and an `exit` promise, `fs.readFile`, `teardown()`.
 * boot() never settles offline, so it is raced against a timeout that rejects with a clear
 * message; the caller then falls back to the embedded shell (see bootOrFallback).
 * Session state: the working directory and exported variables are carried between commands
 * by a trailer that prints them after a marker line.
 */
import { DEFAULT_COMMAND_TIMEOUT_MS, type Shell, type ShellExecOptions, type ShellResult } from './shell.ts';
import { shellQuote } from './checks.ts';

export interface WebContainerProcessLike {
  output: ReadableStream<string>;
  exit: Promise<number>;
  kill(): void;
}

export interface WebContainerLike {
  spawn(command: string, args: string[], options?: { cwd?: string; env?: Record<string, string | number | boolean> }): Promise<WebContainerProcessLike>;
  fs: { readFile(path: string, encoding: 'utf-8'): Promise<string> };
  teardown(): void;
}

export interface WebContainerModule {
  WebContainer: { boot(options?: { coep?: 'require-corp' | 'credentialless' | 'none'; workdirName?: string }): Promise<WebContainerLike> };
}

export type WebContainerLoader = () => Promise<WebContainerModule>;

/** Loads @webcontainer/api on first use only (a chunk of its own, outside the page's initial JavaScript). */
export const defaultWebContainerLoader: WebContainerLoader = () => import('@webcontainer/api') as unknown as Promise<WebContainerModule>;

export const BOOT_TIMEOUT_MS = 15_000;

/** Boot a WebContainer or reject after `timeoutMs` with a message the UI can show. */
export async function bootWebContainer(loader: WebContainerLoader = defaultWebContainerLoader, timeoutMs = BOOT_TIMEOUT_MS): Promise<WebContainerLike> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `WebContainer did not boot within ${timeoutMs / 1000} s. It needs an internet connection to StackBlitz and a cross-origin isolated page (COOP/COEP headers); using the embedded shell instead.`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    const module = await Promise.race([loader(), timeout]);
    return await Promise.race([module.WebContainer.boot({ coep: 'require-corp' }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const MARK = '__AGENTPLAY_STATE__';
/** Variables the shell sets itself (some read-only): not carried over. */
const SHELL_OWNED = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', '__rc', 'SHELLOPTS', 'BASHOPTS', 'PPID', 'UID', 'EUID', 'BASHPID', 'RANDOM', 'SECONDS', 'LINENO']);

async function collect(stream: ReadableStream<string>, sink: string[]): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      sink.push(value);
    }
  } catch {
    // The process was killed.
  } finally {
    reader.releaseLock();
  }
}

// Terminal escapes jsh writes (colours, cursor moves).
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\r/g;

export class WebContainerShell implements Shell {
  readonly kind = 'webcontainer' as const;
  cwd: string;
  private env: Record<string, string> = {};

  constructor(
    private readonly container: WebContainerLike,
    private readonly timeoutMs = DEFAULT_COMMAND_TIMEOUT_MS,
    cwd = '/home/projects',
  ) {
    this.cwd = cwd;
  }

  private async spawn(script: string, options: ShellExecOptions | undefined, env: Record<string, string>): Promise<ShellResult> {
    const process = await this.container.spawn('jsh', ['-c', script], { env });
    const chunks: string[] = [];
    const reading = collect(process.output, chunks);
    const limit = options?.timeoutMs ?? this.timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped: 'time' | 'cancel' | null = null;
    const stop = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        stopped = 'time';
        resolve(124);
      }, limit);
      options?.signal?.addEventListener('abort', () => {
        stopped = 'cancel';
        resolve(130);
      });
    });
    const exitCode = await Promise.race([process.exit, stop]);
    clearTimeout(timer);
    if (stopped) process.kill();
    else await reading;
    let output = chunks.join('').replace(ESCAPES, '');
    if (stopped) output += `[The command was stopped: ${stopped === 'time' ? `it ran longer than ${limit / 1000} s` : 'it was cancelled'}.]\n`;
    return { output, exitCode, timedOut: stopped !== null };
  }

  async exec(command: string, options?: ShellExecOptions): Promise<ShellResult> {
    const script = `cd ${shellQuote(this.cwd)} 2>/dev/null\n${command}\n__rc=$?; echo; echo ${MARK}; echo $__rc; pwd; env`;
    const result = await this.spawn(script, options, this.env);
    const at = result.output.lastIndexOf(`\n${MARK}\n`);
    if (at === -1) return result;
    const [rc, cwd, ...envLines] = result.output.slice(at + MARK.length + 2).split('\n');
    this.cwd = cwd || this.cwd;
    const env: Record<string, string> = {};
    for (const line of envLines) {
      const eq = line.indexOf('=');
      if (eq > 0 && /^[A-Za-z_]\w*$/.test(line.slice(0, eq)) && !SHELL_OWNED.has(line.slice(0, eq))) env[line.slice(0, eq)] = line.slice(eq + 1);
    }
    this.env = env;
    // The trailer's own `echo` added one newline before the marker.
    return { output: result.output.slice(0, at), exitCode: Number(rc) || 0, timedOut: false };
  }

  run(script: string, args: readonly string[] = [], options?: ShellExecOptions): Promise<ShellResult> {
    const prefix = args.length ? `set -- ${args.map(shellQuote).join(' ')}\n` : '';
    return this.spawn(prefix + script, options, {});
  }

  async readFile(path: string): Promise<string | null> {
    try {
      return await this.container.fs.readFile(path, 'utf-8');
    } catch {
      return null;
    }
  }

  dispose(): void {
    this.container.teardown();
  }
}

/**
 * A WebContainer shell if one boots in time, else the embedded shell; `notice` says which
 * and why (for the UI). Only one WebContainer can run per page, so keep one per episode.
 */
export async function bootOrFallback(options: {
  loader?: WebContainerLoader;
  timeoutMs?: number;
  seed: number;
}): Promise<{ shell: Shell; notice: string | null }> {
  try {
    const container = await bootWebContainer(options.loader, options.timeoutMs);
    return { shell: new WebContainerShell(container), notice: null };
  } catch (err) {
    const { defaultEmbeddedShellFactory } = await import('./embedded/factory.ts');
    return { shell: await defaultEmbeddedShellFactory({ seed: options.seed }), notice: err instanceof Error ? err.message : String(err) };
  }
}
