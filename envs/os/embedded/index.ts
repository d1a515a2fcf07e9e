/**
 * The embedded shell: just-bash (loaded lazily) over an in-memory filesystem seeded as a
 * fresh Ubuntu host, with the extra commands of this folder, interactive state carried
 * between commands, a simulated clock for background jobs, and hard execution limits.
 * Nothing here touches the real filesystem or the network: just-bash gets only the
 * in-memory filesystem, no network configuration, and no Python/JavaScript runtimes.
 */
import { Rng } from '../../core/rng.ts';
import type { Bash, Command, TransformPlugin } from 'just-bash';
import { callsInOrder, DEFAULT_COMMAND_TIMEOUT_MS, type Shell, type ShellExecOptions, type ShellResult } from '../shell.ts';
import { SimClock } from './clock.ts';
import { clockedFs } from './fs.ts';
import { DEVICE_NOISE_BYTES, noiseDevicesFs } from './devices.ts';
import { coreutilsCommands } from './coreutils.ts';
import { gnuCommands } from './gnu.ts';
import { packageCommands } from './packages.ts';
import { ROOT, guardedFs, type Identity } from './perms.ts';
import type { Host } from './host.ts';
import { pythonCommands } from './python.ts';
import { STATE_COMMAND, SessionState } from './session.ts';
import { joinPieces, writeOrder } from './output-order.ts';
import { fsErrorText } from './errors.ts';
import { pipeStdinPlugin } from './pipes.ts';
import { systemCommands } from './system.ts';
import { DEFAULT_CPUS, HOSTNAME, ubuntuFiles } from './ubuntu.ts';
import { userCommands } from './users.ts';

type JustBash = typeof import('just-bash');

export interface EmbeddedShellOptions {
  /** Seeds $RANDOM, mktemp names, /dev/urandom and the start date. */
  seed?: number;
  /** Default per-command time limit (ms). */
  commandTimeoutMs?: number;
  /** Real time added to the simulated one (default none: time is virtual, see clock.ts). */
  wallClock?: () => number;
  /** Simulated epoch at start (default: a date in 2024 drawn from the seed). */
  epochMs?: number;
  cpus?: number;
  /** Where the first command runs (upstream: the image's working directory, /). */
  cwd?: string;
  /**
   * just-bash's defense in depth (default on): while a command runs it patches JS globals
   * (Function, eval, process, Object.defineProperty, …) so that a bug in its interpreter cannot
   * be turned into running JS. Off, commands run about 1.5–2× faster, but the shell's worker is
   * no sandbox of its own (a browser worker reaches IndexedDB and the network, the CLI's Node
   * worker the whole process), so it stays on everywhere; only the bench turns it off to show
   * what it costs (README, "Embedded shell speed").
   */
  defenseInDepth?: boolean;
  /** How just-bash is loaded (default: a dynamic import, so it is its own chunk). */
  load?: () => Promise<JustBash>;
}

export const BASE_ENV: Readonly<Record<string, string>> = {
  HOME: '/root',
  USER: 'root',
  LOGNAME: 'root',
  SHELL: '/bin/bash',
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  TERM: 'xterm',
  HOSTNAME,
};

const SHELL_PID = 7;
/** How long before the boot the image's files were written (any age over a day: `find -mtime`). */
const IMAGE_AGE_MS = 30 * 86_400_000;
/** What a container's start writes (Docker's /etc/hosts, hostname, resolv.conf) or the kernel shows: boot time. */
const RUNTIME_PATHS = /^\/(?:dev|proc|sys|run)(?:\/|$)|^\/etc\/(?:hosts|hostname|resolv\.conf)$/;
/** Where just-bash writes a stub file per command. */
const STUB_DIRS = ['/usr/bin', '/bin'];
/**
 * Commands and loop rounds one episode command may run (each limit on its own). Reached in a
 * fraction of a second on a slow machine, so a CPU-bound loop without sleep stops here, at the
 * same point everywhere (resume replays it exactly), not at the machine-dependent wall clock.
 */
export const EPISODE_WORK = 1_000;
const DEADLINE = /^.*execution exceeded execution deadline.*\n?/m;
/** just-bash's line for an aborted run (said in the player's terms instead). */
const ABORTED = /^bash: execution aborted\n?/m;
/** just-bash's other execution limits ("... increase executionLimits.maxCommandCount"): a runaway stopped early. */
const LIMIT = /^(?:bash: )?(.*?),? increase executionLimits\.\w+.*\n?/m;

/**
 * Commands of concurrent episodes (eval plays many at once) take turns: just-bash guards the
 * realm's globals while a command runs (its defense in depth), and each command swaps in its
 * own episode's Math.random, so two commands at once would trip over each other. A command
 * takes milliseconds; the episodes still wait on their models together.
 */
const inTurn = callsInOrder();

export class EmbeddedShell implements Shell {
  readonly kind = 'embedded' as const;
  readonly session: SessionState;
  private readonly instances = new Map<string, Bash>();
  private readonly commands: Command[];
  private readonly parser: Bash;
  private defined = new Map<string, string>();
  private disposed = false;

  constructor(
    private readonly jb: JustBash,
    readonly host: Host,
    private readonly timeoutMs: number,
    cwd: string,
    private readonly defenseInDepth = true,
  ) {
    this.session = new SessionState(cwd);
    this.commands = [...userCommands(host), ...systemCommands(host), ...coreutilsCommands(host), ...gnuCommands(host), ...packageCommands(host), ...pythonCommands(host), this.session.stateCommand()];
    // A second instance only parses: its transform plugin picks out function definitions.
    this.parser = new jb.Bash({ commands: ['echo'] });
    const collect: TransformPlugin = {
      name: 'agentplay-functions',
      transform: ({ ast }) => {
        for (const statement of ast.statements) {
          const only = statement.pipelines.length === 1 && statement.pipelines[0].commands.length === 1 ? statement.pipelines[0].commands[0] : null;
          if (only?.type === 'FunctionDef' && statement.sourceText) this.defined.set(only.name, statement.sourceText);
        }
        return { ast };
      },
    };
    this.parser.registerTransformPlugin(collect);
  }

  get clock(): SimClock {
    return this.host.clock;
  }

  /**
   * One just-bash instance per time limit and kind of command (limits are fixed at construction);
   * all share the filesystem. An episode's command gets a smaller count of commands and loop
   * rounds (EPISODE_WORK): a busy loop then stops after the same work on any machine, well
   * before the wall-clock limit, which stays as the backstop. Init and check scripts keep the larger one.
   */
  private bash(timeoutMs: number, interactive: boolean): Bash {
    const key = `${timeoutMs}:${interactive}`;
    let bash = this.instances.get(key);
    if (!bash) {
      const work = interactive ? EPISODE_WORK : 50_000;
      bash = new this.jb.Bash({
        fs: this.host.fs,
        cwd: '/',
        env: { ...BASE_ENV },
        customCommands: this.commands,
        sleep: (ms) => this.sleep(ms),
        processInfo: { pid: SHELL_PID, ppid: 1, uid: 0, gid: 0 },
        defenseInDepth: this.defenseInDepth,
        executionLimits: {
          maxExecutionTimeMs: timeoutMs,
          maxCommandCount: work,
          maxLoopIterations: work,
          // A sed branch loop does not look at the clock: fewer rounds keep one within ~0.5 s.
          maxSedIterations: 10_000,
          maxLiveBytes: 64 << 20,
          maxInputBytes: 64 << 20,
          maxOutputSize: 1 << 20,
          maxStringLength: 8 << 20,
          maxFileSystemBytes: 64 << 20,
          maxHeredocSize: 1 << 20,
          maxCallDepth: 100,
        },
      });
      bash.registerTransformPlugin(pipeStdinPlugin);
      this.instances.set(key, bash);
      this.stubsWritten = true;
    }
    return bash;
  }

  /**
   * After just-bash set up an instance: its stub file per command in /usr/bin (and /bin) is 644
   * and stamped with the real time, so make them executable and as old as the host, as on
   * Ubuntu; and (re)write the devices it leaves empty: random ones as seeded bytes (enough for
   * `head -c`, `tr -dc … | head`, dd), /dev/zero as zeros.
   */
  private stubsWritten = false;
  private async fixStubModes(dirTimes: Map<string, Date> | null): Promise<void> {
    if (!this.stubsWritten) return;
    this.stubsWritten = false;
    const who = this.host.identity;
    this.host.identity = ROOT;
    try {
      await this.setUpFiles();
      for (const [dir, time] of dirTimes ?? []) await this.host.rawFs.utimes(dir, time, time);
    } finally {
      this.host.identity = who;
    }
  }

  /** The stub directories' times before an instance rewrites them (the boot time when missing). */
  private async stubDirTimes(): Promise<Map<string, Date>> {
    const times = new Map<string, Date>();
    for (const dir of STUB_DIRS) times.set(dir, (await this.host.rawFs.stat(dir).catch(() => null))?.mtime ?? new Date(this.host.imageTime));
    return times;
  }

  private async setUpFiles(): Promise<void> {
    const boot = new Date(this.host.bootTime);
    const built = new Date(this.host.imageTime);
    // A plain loop: Uint8Array.from with a callback over 64 KiB took milliseconds of every reset.
    const noise = new Uint8Array(DEVICE_NOISE_BYTES);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(this.host.random() * 256);
    for (const [path, content] of [['/dev/urandom', noise], ['/dev/random', noise], ['/dev/zero', new Uint8Array(1 << 18)]] as const) {
      await this.host.fs.writeFile(path, content);
      await this.host.fs.utimes(path, boot, boot);
    }
    // Devices everyone may read and write, as on Linux (crw-rw-rw-).
    for (const name of ['null', 'zero', 'random', 'urandom', 'stdin', 'stdout', 'stderr', 'tty', 'full']) {
      if (await this.host.fs.exists(`/dev/${name}`)) await this.host.fs.chmod(`/dev/${name}`, 0o666);
    }
    // Hundreds of stubs, as root: straight to the filesystem below the permission checks (which pass root anyway).
    const raw = this.host.rawFs;
    for (const dir of STUB_DIRS) {
      let names: string[] = [];
      try {
        names = await raw.readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const path = `${dir}/${name}`;
        try {
          const st = await raw.lstat(path);
          if (st.isFile && (st.mode & 0o777) === 0o644 && name !== STATE_COMMAND) await raw.chmod(path, 0o755);
          if (st.isFile) await raw.utimes(path, built, built);
        } catch {
          // A racing removal: nothing to fix.
        }
      }
    }
  }

  /** Virtual time the running command has slept, and the stop it gets past SLEEP_BUDGET_MS. */
  private slept = 0;
  private sleepStop: AbortController | null = null;

  /**
   * `sleep` moves the virtual clock. An episode's command that sleeps past SLEEP_BUDGET_MS in all (a
   * `while true; do …; sleep 3; done` writer, which cannot go to the background here) is
   * stopped right there, at a point fixed by its own sleeps: the wall-clock limit would stop
   * it after a number of rounds that depends on the machine, and resume would diverge.
   */
  private async sleep(ms: number): Promise<void> {
    if (this.sleepStop && Number.isFinite(ms) && ms > 0 && this.slept + ms > SLEEP_BUDGET_MS) {
      await this.host.clock.sleep(SLEEP_BUDGET_MS - this.slept);
      this.slept = SLEEP_BUDGET_MS;
      this.sleepStop.abort();
      return;
    }
    this.slept += Number.isFinite(ms) && ms > 0 ? ms : 0;
    await this.host.clock.sleep(ms);
  }

  /** `interactive`: a command of the episode (its sleeps are budgeted); init and check scripts run as they are. */
  private async execRaw(script: string, cwd: string, options: ShellExecOptions | undefined, args?: readonly string[], interactive = false): Promise<ShellResult> {
    if (this.disposed) return { output: 'The shell has been closed.\n', exitCode: 1, timedOut: false };
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const sleepStop = new AbortController();
    this.sleepStop = interactive ? sleepStop : null;
    this.slept = 0;
    // An init or check script without a caller's signal runs without one: just-bash then makes no
    // abort controller (and abort reason) per command, and nothing could abort it anyway.
    const signal = options?.signal ? AbortSignal.any([options.signal, sleepStop.signal]) : interactive ? sleepStop.signal : undefined;
    await this.host.clock.tick();
    let stdout = '';
    let stderr = '';
    let order: unknown;
    let exitCode = 0;
    // A new instance rewrites its command stubs in /usr/bin and /bin, stamping those directories
    // with the real time: they keep the times they had (`ls -lt /usr` must not show bin as newest).
    const dirTimes = this.instances.has(`${timeoutMs}:${interactive}`) ? null : await this.stubDirTimes();
    const bash = this.bash(timeoutMs, interactive);
    await this.fixStubModes(dirTimes);
    // just-bash draws $RANDOM (and shuf, sort -R) from Math.random: give it this episode's
    // seeded stream while the command runs (only microtasks run meanwhile, so nothing else draws).
    await inTurn(async () => {
      const realRandom = Math.random;
      const realCompare = String.prototype.localeCompare;
      const stackLimit = Error.stackTraceLimit;
      Math.random = this.host.shellRandom;
      // Upstream's containers set no locale (POSIX): sort, globs and tree order by bytes ("B Z _x a").
      // just-bash orders with localeCompare, which follows the browser's language ("_x a B Z").
      String.prototype.localeCompare = cLocaleCompare;
      // just-bash makes an Error per command (its control flow and a revoked context's abort
      // reason) and never shows their stacks: capturing them was a third of an init script's time.
      Error.stackTraceLimit = 0;
      try {
        const result = await bash.exec(script, { cwd, ...(signal ? { signal } : {}), rawScript: true, ...(args?.length ? { args: [...args] } : {}) });
        stdout = result.stdout;
        stderr = result.stderr;
        order = (result as { outputOrder?: unknown }).outputOrder;
        exitCode = result.exitCode;
      } catch (err) {
        stderr = `bash: ${fsErrorText(err)}\n`;
        exitCode = 1;
      } finally {
        Math.random = realRandom;
        String.prototype.localeCompare = realCompare;
        Error.stackTraceLimit = stackLimit;
        this.sleepStop = null;
      }
    });
    // Both streams as written (a terminal's view), the shell's own stop messages said in the player's terms.
    const pieces = writeOrder(stdout, stderr, order);
    const limit = LIMIT.exec(stderr);
    if (limit) {
      // Say it in the player's terms, not the simulator's configuration names.
      const stopped = `[The command was stopped: ${limit[1]} (a limit of this simulated shell).]\n`;
      return { output: joinPieces(pieces, (text) => text.replace(LIMIT, stopped)), exitCode: exitCode || 1, timedOut: true };
    }
    const timedOut = DEADLINE.test(stderr) || (signal?.aborted ?? false);
    if (!timedOut) return { output: joinPieces(pieces), exitCode, timedOut };
    const why = options?.signal?.aborted
      ? 'it was cancelled'
      : sleepStop.signal.aborted
        ? `it slept ${SLEEP_BUDGET_MS / 1000} s in all, the longest this simulated shell waits for a command`
        : `it ran longer than ${timeoutMs / 1000} s, the time limit of this simulated shell`;
    const output = joinPieces(pieces, (text) => text.replace(DEADLINE, '').replace(ABORTED, ''));
    return { output: `${output}[The command was stopped: ${why}.]\n`, exitCode, timedOut };
  }

  /** Interactive logins (`su - jack` in the session): who, and what to restore on `exit`. */
  private logins: { identity: Identity; cwd: string; saved: Record<string, string | undefined> }[] = [];

  private readonly inOrder = callsInOrder();

  exec(command: string, options?: ShellExecOptions): Promise<ShellResult> {
    return this.inOrder(() => this.execNow(command, options));
  }

  private async execNow(command: string, options?: ShellExecOptions): Promise<ShellResult> {
    if (this.logins.length && /^\s*(exit|logout)(\s+\d+)?\s*;?\s*$/.test(command)) {
      // Leave the login shell: back to the user (and directory) before `su`.
      const top = this.logins.pop()!;
      this.session.cwd = top.cwd;
      for (const [name, value] of Object.entries(top.saved)) this.session.setVariable(name, value);
      return { output: 'logout\n', exitCode: 0, timedOut: false };
    }
    this.defined = new Map();
    // A command that does not parse on its own runs without the state trailer: a syntax error
    // then reports the command's own lines, and an unterminated here-document (which reads to
    // the end of the script, as bash's does, with a warning) cannot swallow the trailer and
    // print the shell's internals. Its variables are then not carried over.
    let trailer = true;
    let heredoc: { delimiter: string; line: number } | null = null;
    try {
      this.parser.transform(command);
    } catch (err) {
      trailer = false;
      if (/unterminated here-document/.test(err instanceof Error ? err.message : '')) heredoc = unterminatedHereDoc(command);
    }
    this.host.clock.advance(STEP_MS);
    this.host.identity = this.logins.at(-1)?.identity ?? ROOT;
    this.host.interactive = true;
    this.host.pendingLogin = null;
    let result: ShellResult;
    try {
      const composed = this.session.compose(command, BASE_ENV, trailer);
      result = await this.execRaw(composed.script, this.session.cwd, options, undefined, true);
      result.output = ownLineNumbers(result.output, composed.offset);
      if (heredoc) result.output += `bash: warning: here-document at line ${heredoc.line} delimited by end-of-file (wanted \`${heredoc.delimiter}')\n`;
    } finally {
      this.host.interactive = false;
      this.host.identity = ROOT;
    }
    const captured = this.session.update(this.defined);
    if (captured && !result.timedOut) result.exitCode = captured.exitCode;
    const login = this.host.pendingLogin as Host['pendingLogin'];
    this.host.pendingLogin = null;
    if (login) {
      const names = ['USER', 'LOGNAME', 'HOME', 'SHELL'];
      this.logins.push({ identity: login.user, cwd: this.session.cwd, saved: Object.fromEntries(names.map((n) => [n, this.session.variable(n)])) });
      const values = [login.user.name, login.user.name, login.user.home, login.shell || '/bin/sh'];
      names.forEach((n, i) => this.session.setVariable(n, values[i]));
      if (login.loginShell) this.session.cwd = (await this.host.fs.exists(login.user.home)) ? login.user.home : '/';
    }
    return result;
  }

  run(script: string, args: readonly string[] = [], options?: ShellExecOptions): Promise<ShellResult> {
    // The arguments go to a leading `set --` as argv (never parsed as shell text): an answer of any
    // size or content becomes $1 as upstream's `bash -c CODE -- ANSWER` makes it.
    if (args.length === 0) return this.inOrder(() => this.execRaw(script, '/', options));
    return this.inOrder(() => this.execRaw(`set --\n${script}`, '/', options, args));
  }

  readFile(path: string): Promise<string | null> {
    return this.inOrder(async () => {
      try {
        return await this.host.fs.readFile(path);
      } catch {
        return null;
      }
    });
  }

  dispose(): void {
    this.disposed = true;
    this.instances.clear();
  }
}

/** The simulated date an episode starts at: a moment of 2024 drawn from the seed (the same for a replay or resume). */
export function seededEpoch(seed: number): number {
  const rng = new Rng(((seed >>> 0) ^ 0x2024) >>> 0);
  return Date.UTC(2024, 0, 1) + Math.floor(rng.uniform() * 365 * 86_400) * 1000;
}

/** Messages with the command's own line numbers: the replayed state came first in the script. */
export function ownLineNumbers(output: string, offset: number): string {
  const shift = (n: string) => String(Math.max(1, Number(n) - offset));
  return output.replace(/^(bash: line )(\d+)(:)/gm, (_m, a: string, n: string, b: string) => a + shift(n) + b).replace(/(Parse error at )(\d+)(:)/g, (_m, a: string, n: string, b: string) => a + shift(n) + b);
}

/** The last here-document opened in `command` (its delimiter and line), for bash's end-of-file warning. */
export function unterminatedHereDoc(command: string): { delimiter: string; line: number } {
  let found = { delimiter: 'EOF', line: 1 };
  for (const m of command.matchAll(/<<-?[ \t]*(['"]?)([^\s'"<>|;&()]+)\1/g)) {
    found = { delimiter: m[2], line: command.slice(0, m.index).split('\n').length };
  }
  return found;
}

/** The POSIX locale's collation: by character code (UTF-16 units; code points but for the astral planes). */
function cLocaleCompare(this: string, that: string): number {
  const a = String(this);
  const b = String(that);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Virtual time one interactive command takes (a person or model is never instant). */
export const STEP_MS = 1000;

/**
 * The most virtual time one command may sleep (AgentBench reads a command's output for at most
 * 30 s; a longer sleeper is stopped here at that point, the same on every machine).
 */
export const SLEEP_BUDGET_MS = 30_000;

export async function createEmbeddedShell(options: EmbeddedShellOptions = {}): Promise<EmbeddedShell> {
  const jb = await (options.load ?? (() => import('just-bash')))();
  const clock = new SimClock(options.wallClock ?? (() => 0), options.epochMs ?? seededEpoch(options.seed ?? 0));
  const cpus = options.cpus ?? DEFAULT_CPUS;
  const { files, dirs } = ubuntuFiles(cpus);
  const memory = new jb.InMemoryFs();
  for (const dir of dirs) await memory.mkdir(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) await memory.writeFile(path, content);
  for (const dir of ['/tmp', '/var/tmp']) await memory.chmod(dir, 0o1777);
  for (const file of ['/etc/shadow', '/etc/gshadow']) await memory.chmod(file, 0o640);
  const start = new Date(clock.now());
  // The image was built before the container started (upstream's `docker build`): its files are
  // older than the boot, so `find -mtime -1` counts only what the episode wrote (test task
  // new-09). What a container's start writes carries the boot time.
  const built = new Date(start.getTime() - IMAGE_AGE_MS);
  for (const path of memory.getAllPaths()) {
    const time = RUNTIME_PATHS.test(path) ? start : built;
    await memory.utimes(path, time, time);
  }
  // The project's seeded generator, from the raw seed as this shell always used it.
  const rng = new Rng((options.seed ?? 0) >>> 0);
  const random = (): number => rng.uniform();
  const shellRng = new Rng(((options.seed ?? 0) ^ 0x7fff) >>> 0);
  // The random devices' later reads: a stream of their own, so mktemp names stay as the seed gave them.
  const deviceRng = new Rng(((options.seed ?? 0) ^ 0x5eed5) >>> 0);
  const timed = clockedFs(noiseDevicesFs(memory, deviceRng), clock);
  const host: Host = {
    fs: timed,
    rawFs: timed,
    clock,
    owners: new Map(),
    cpus,
    shellPid: SHELL_PID,
    random,
    shellRandom: () => shellRng.uniform(),
    identity: ROOT,
    bootTime: start.getTime(),
    imageTime: built.getTime(),
    packages: new Set(),
    interactive: false,
    pendingLogin: null,
  };
  host.fs = guardedFs(host.fs, host);
  for (const file of ['/etc/shadow', '/etc/gshadow']) host.owners.set(file, { uid: 0, gid: 42 });
  return new EmbeddedShell(jb, host, options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, options.cwd ?? '/', options.defenseInDepth ?? true);
}
