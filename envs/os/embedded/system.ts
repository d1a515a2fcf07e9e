/**
 * System commands just-bash lacks (nproc, uname, ps, kill, pkill, pgrep, jobs, mktemp,
 * realpath, uptime, free, df, umask), `date` and `awk` adjusted to GNU behaviour, and honest
 * stubs for installed programs that cannot run in a browser (editors, git, network tools).
 */
import type { Command, ResolvedCommandContext } from 'just-bash';
import { abs, command, fail, ok, type Host } from './host.ts';
import { HOSTNAME, KERNEL } from './ubuntu.ts';

function uname(args: string[]) {
  const all = args.includes('-a') || args.includes('--all');
  const parts: [string, string][] = [
    ['s', 'Linux'],
    ['n', HOSTNAME],
    ['r', KERNEL],
    ['v', '#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024'],
    ['m', 'x86_64'],
    ['p', 'x86_64'],
    ['i', 'x86_64'],
    ['o', 'GNU/Linux'],
  ];
  const wanted = new Set(args.flatMap((a) => (a.startsWith('-') && !a.startsWith('--') ? Array.from(a.slice(1)) : [])));
  if (all) return ok(`${parts.filter(([k]) => k !== 'p' && k !== 'i').map(([, v]) => v).join(' ')}\n`);
  if (wanted.size === 0) wanted.add('s');
  return ok(`${parts.filter(([k]) => wanted.has(k)).map(([, v]) => v).join(' ')}\n`);
}

interface Row {
  pid: number;
  ppid: number;
  cmd: string;
  start: string;
}

function processTable(host: Host): Row[] {
  const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  const boot = host.clock.now() - host.clock.uptimeSeconds() * 1000;
  const rows: Row[] = [
    { pid: 1, ppid: 0, cmd: 'bash', start: hhmm(boot) },
    { pid: host.shellPid, ppid: 0, cmd: 'bash --login', start: hhmm(boot) },
  ];
  for (const p of host.clock.processes()) rows.push({ pid: p.pid, ppid: host.shellPid, cmd: p.command, start: hhmm(p.started) });
  return rows;
}

function ps(host: Host, args: string[]) {
  const rows = processTable(host);
  const self = { pid: host.clock.allocatePid(), ppid: host.shellPid, cmd: `ps ${args.join(' ')}`.trim(), start: new Date(host.clock.now()).toISOString().slice(11, 16) };
  const all = [...rows, self];
  const joined = args.join(' ');
  const oneLine = (s: string) => s.replace(/\n/g, '\\n');
  if (/(^|\s)-?a?u?x/.test(joined) && /u/.test(joined.replace(/^-/, ''))) {
    const head = 'USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n';
    return ok(head + all.map((r) => `root     ${String(r.pid).padStart(7)}  0.0  0.0   4628  3712 pts/0    S    ${r.start}   0:00 ${oneLine(r.cmd)}\n`).join(''));
  }
  if (/-e|-A|ax/.test(joined) && /f/.test(joined)) {
    const head = 'UID          PID    PPID  C STIME TTY          TIME CMD\n';
    return ok(head + all.map((r) => `root     ${String(r.pid).padStart(7)} ${String(r.ppid).padStart(7)}  0 ${r.start} pts/0    00:00:00 ${oneLine(r.cmd)}\n`).join(''));
  }
  const head = '    PID TTY          TIME CMD\n';
  const name = (cmd: string) => cmd.split(' ')[0];
  const shown = /-e|-A|ax|x/.test(joined) ? all : all.filter((r) => r.pid !== 1);
  return ok(head + shown.map((r) => `${String(r.pid).padStart(7)} pts/0    00:00:00 ${name(r.cmd)}\n`).join(''));
}

function kill(host: Host, args: string[]) {
  const targets = args.filter((a) => !a.startsWith('-') && a !== 's' && !/^(SIG)?[A-Z]+$/.test(a));
  if (args.includes('-l')) return ok('HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM\n');
  if (targets.length === 0) return fail('kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]', 2);
  let stderr = '';
  for (const t of targets) {
    const pid = Number(t.replace(/^%/, ''));
    const known = processTable(host).some((r) => r.pid === pid);
    if (t.startsWith('%')) {
      const job = host.clock.processes()[pid - 1];
      if (job) host.clock.kill(job.pid);
      else stderr += `bash: kill: ${t}: no such job\n`;
    } else if (!Number.isInteger(pid) || !known) stderr += `bash: kill: (${t}) - No such process\n`;
    else host.clock.kill(pid);
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

function matching(host: Host, args: string[]): number[] {
  const full = args.includes('-f');
  const pattern = args.filter((a) => !a.startsWith('-')).pop() ?? '';
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    re = /$^/;
  }
  return processTable(host)
    .filter((r) => r.pid !== 1 && re.test(full ? r.cmd : r.cmd.split(' ')[0]))
    .map((r) => r.pid);
}

function mktemp(host: Host, args: string[], ctx: ResolvedCommandContext) {
  const dir = args.includes('-d') || args.includes('--directory');
  // The operand is the template; -p's value is the directory.
  const template = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-p') ?? 'tmp.XXXXXXXXXX';
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const name = template.replace(/X{3,}$/, (xs) => Array.from(xs, () => letters[Math.floor(host.random() * letters.length)]).join(''));
  if (name === template) return fail(`mktemp: too few X's in template '${template}'`);
  const path = template.includes('/') ? abs(ctx, name) : `${args.includes('-p') ? abs(ctx, args[args.indexOf('-p') + 1]) : '/tmp'}/${name}`;
  return { path, dir };
}

/** GNU awk takes a one-character -F literally (except space); just-bash reads it as a regex. */
function awkArgs(args: string[]): string[] {
  const literal = (c: string) => (c.length === 1 && c !== ' ' && /[.|*+?()[\]{}^$\\]/.test(c) ? `[${c === '\\' || c === '^' ? `\\${c}` : c}]` : c);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-F' && i + 1 < args.length) {
      out.push('-F', literal(args[++i]));
    } else if (a.startsWith('-F') && a.length > 2) out.push(`-F${literal(a.slice(2))}`);
    else if (a === '--') {
      out.push(...args.slice(i));
      break;
    } else out.push(a);
    if (!a.startsWith('-')) {
      out.push(...args.slice(i + 1));
      break;
    }
  }
  return out;
}

const STUB = (name: string, why: string) =>
  command(name, async () => fail(`${name}: ${why}`, 1));

export function systemCommands(host: Host): Command[] {
  return [
    command('nproc', async () => ok(`${host.cpus}\n`)),
    command('uname', async (a) => uname(a)),
    command('hostname', async () => ok(`${HOSTNAME}\n`)),
    command('ps', async (a) => {
      await host.clock.tick();
      return ps(host, a);
    }),
    command('kill', async (a) => kill(host, a)),
    command('pkill', async (a) => {
      const pids = matching(host, a);
      pids.forEach((p) => host.clock.kill(p));
      return { stdout: '', stderr: '', exitCode: pids.length ? 0 : 1 };
    }),
    command('killall', async (a) => {
      const pids = matching(host, a);
      pids.forEach((p) => host.clock.kill(p));
      return pids.length ? ok() : fail(`${a[a.length - 1] ?? ''}: no process found`);
    }),
    command('pgrep', async (a) => {
      const pids = matching(host, a);
      return { stdout: pids.map((p) => `${p}\n`).join(''), stderr: '', exitCode: pids.length ? 0 : 1 };
    }),
    command('jobs', async () => ok(host.clock.processes().map((p, i) => `[${i + 1}]  Running                 ${p.command} &\n`).join(''))),
    command('mktemp', async (a, ctx) => {
      const made = mktemp(host, a, ctx);
      if ('exitCode' in made) return made;
      if (made.dir) await host.fs.mkdir(made.path, { recursive: true });
      else await host.fs.writeFile(made.path, '');
      return ok(`${made.path}\n`);
    }),
    command('uptime', async () => {
      const up = Math.floor(host.clock.uptimeSeconds() / 60);
      const now = new Date(host.clock.now()).toISOString().slice(11, 19);
      return ok(` ${now} up ${up} min,  0 users,  load average: 0.08, 0.03, 0.01\n`);
    }),
    command('free', async () =>
      ok('               total        used        free      shared  buff/cache   available\nMem:        16365300     1926216    11873412        1624     2565672    14291228\nSwap:              0           0           0\n'),
    ),
    command('df', async () =>
      ok('Filesystem     1K-blocks     Used Available Use% Mounted on\noverlay         61255492 21733420  36380748  38% /\ntmpfs              65536        0     65536   0% /dev\nshm                65536        0     65536   0% /dev/shm\n'),
    ),
    command('umask', async (a) => ok(a.length ? '' : '0022\n')),
    command('awk', async (a, ctx) => (ctx.origCommand ? ctx.origCommand(awkArgs(a)) : fail('awk: unavailable'))),
    STUB('vim', 'this simulated shell has no interactive editors; write files with echo, printf or cat <<EOF'),
    STUB('vi', 'this simulated shell has no interactive editors; write files with echo, printf or cat <<EOF'),
    STUB('nano', 'this simulated shell has no interactive editors; write files with echo, printf or cat <<EOF'),
    STUB('git', 'git cannot run in this simulated shell'),
    STUB('curl', 'no network in this simulated shell'),
    STUB('wget', 'no network in this simulated shell'),
    STUB('pip3', 'pip cannot install packages in this simulated shell (no network)'),
    STUB('pip', 'pip cannot install packages in this simulated shell (no network)'),
    STUB('zip', 'zip is not available in this simulated shell'),
    STUB('unzip', 'unzip is not available in this simulated shell'),
  ];
}
