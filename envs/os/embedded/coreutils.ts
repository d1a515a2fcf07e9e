/**
 * GNU coreutils behaviours the AgentBench test tasks' examples and checks rely on, where
 * just-bash lacks them or differs: du (disk usage in 4 KiB blocks as on ext4, -b -k -m -c -s
 * -h -a -B --apparent-size --max-depth), stat --format/-c/--printf (owners from this host),
 * truncate, who/users (nobody logged in, as in a container), relative dates for date -d
 * ("7 days ago", "-30 days", "yesterday"), find -executable/-readable/-writable and symbolic
 * -perm modes, and grep's bundled options (-cve) and -H.
 */
import type { Command, ExecResult, FsStat, ResolvedCommandContext } from 'just-bash';
import { abs, command, fail, ok, stdinBytes, type Host } from './host.ts';
import { ownerNames } from './users.ts';
import { trCommand } from './trKeep.ts';
import { odCommand } from './od.ts';
import { mayRead } from './perms.ts';
import { parentOf, timeRefPath } from './fs.ts';
import { stderrFirst } from './output-order.ts';
import { gnuReadErrors } from './readErrors.ts';
import { errorWords } from './errors.ts';

const BLOCK = 4096;

interface Sizes {
  /** Allocated bytes (what du counts by default). */
  disk: number;
  /** Apparent bytes (--apparent-size, -b). */
  apparent: number;
}

function own(stat: FsStat): Sizes {
  if (stat.isDirectory) return { disk: BLOCK, apparent: BLOCK };
  if (stat.isSymbolicLink) return { disk: 0, apparent: stat.size };
  return { disk: Math.ceil(stat.size / BLOCK) * BLOCK, apparent: stat.size };
}

/** GNU -h: powers of 1024, one decimal below 10 (rounded up), no suffix below 1024. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  const units = ['K', 'M', 'G', 'T', 'P', 'E'];
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (value < 10) {
    const tenths = Math.ceil(value * 10 - 1e-9) / 10;
    if (tenths >= 10) return `10${units[unit]}`;
    return `${tenths.toFixed(1)}${units[unit]}`;
  }
  const whole = Math.ceil(value - 1e-9);
  if (whole >= 1024 && unit < units.length - 1) return `1.0${units[unit + 1]}`;
  return `${whole}${units[unit]}`;
}

const SUFFIX: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4, KB: 1000, MB: 1000 ** 2, GB: 1000 ** 3, B: 1, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** A size like 10, 4K, 1M, 2KB (truncate -s, du -B). */
function parseSizeArg(text: string): number | null {
  const m = /^(\d+)([A-Za-z]*)$/.exec(text);
  if (!m) return null;
  const factor = SUFFIX[m[2].toUpperCase()];
  return factor === undefined ? null : Number(m[1]) * factor;
}

async function du(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let apparent = false;
  let unit = 1024;
  let human = false;
  let summarize = false;
  let all = false;
  let total = false;
  let maxDepth = Infinity;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      paths.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [key, value] = a.slice(2).split('=', 2);
      if (key === 'apparent-size') apparent = true;
      else if (key === 'bytes') (apparent = true), (unit = 1);
      else if (key === 'human-readable') human = true;
      else if (key === 'summarize') summarize = true;
      else if (key === 'all') all = true;
      else if (key === 'total') total = true;
      else if (key === 'max-depth') maxDepth = Number(value ?? args[++i]);
      else if (key === 'block-size') {
        const size = parseSizeArg(value ?? args[++i] ?? '');
        if (size === null) return fail(`du: invalid --block-size argument '${value}'`);
        unit = size;
      } else if (!['one-file-system', 'dereference-args', 'count-links', 'separate-dirs', 'no-dereference'].includes(key)) {
        return fail(`du: unrecognized option '${a}'\nTry 'du --help' for more information.`);
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j];
        if (f === 'b') (apparent = true), (unit = 1);
        else if (f === 'k') unit = 1024;
        else if (f === 'm') unit = 1024 * 1024;
        else if (f === 'h') human = true;
        else if (f === 's') summarize = true;
        else if (f === 'a') all = true;
        else if (f === 'c') total = true;
        else if (f === 'B' || f === 'd') {
          const value = j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? '');
          if (f === 'd') maxDepth = Number(value);
          else {
            const size = parseSizeArg(value);
            if (size === null) return fail(`du: invalid -B argument '${value}'`);
            unit = size;
          }
          break;
        } else if (!'xLSlHDP0'.includes(f)) return fail(`du: invalid option -- '${f}'\nTry 'du --help' for more information.`);
      }
      continue;
    }
    paths.push(a);
  }
  if (summarize) maxDepth = 0;
  if (paths.length === 0) paths.push('.');
  const show = (bytes: number) => (human ? humanSize(bytes) : String(Math.ceil(bytes / unit)));
  let stdout = '';
  let stderr = '';
  let grand = 0;
  const walk = async (path: string, shown: string, depth: number): Promise<number> => {
    const stat = await host.fs.lstat(path);
    const sizes = own(stat);
    let sum = apparent ? sizes.apparent : sizes.disk;
    if (stat.isDirectory) {
      const names = (await host.fs.readdir(path)).sort();
      for (const name of names) {
        const child = `${path === '/' ? '' : path}/${name}`;
        const childShown = `${shown === '/' ? '' : shown.replace(/\/+$/, '')}/${name}`;
        sum += await walk(child, childShown, depth + 1);
      }
      if (depth <= maxDepth) stdout += `${show(sum)}\t${shown}\n`;
    } else if (depth === 0 || (all && depth <= maxDepth)) stdout += `${show(sum)}\t${shown}\n`;
    return sum;
  };
  for (const p of paths) {
    const path = abs(ctx, p);
    if (!(await host.fs.exists(path))) {
      stderr += `du: cannot access '${p}': No such file or directory\n`;
      continue;
    }
    grand += await walk(path, p, 0);
  }
  if (total) stdout += `${show(grand)}\ttotal\n`;
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

async function truncate(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let spec: string | undefined;
  let noCreate = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-s' || a === '--size') spec = args[++i];
    else if (a.startsWith('--size=')) spec = a.slice(7);
    else if (a.startsWith('-s')) spec = a.slice(2);
    else if (a === '-c' || a === '--no-create') noCreate = true;
    else files.push(a);
  }
  if (spec === undefined) return fail("truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.");
  const m = /^([+\-<>/%]?)(.*)$/.exec(spec)!;
  const size = parseSizeArg(m[2]);
  if (size === null) return fail(`truncate: Invalid number: '${spec}'`);
  if (files.length === 0) return fail('truncate: missing file operand\nTry \'truncate --help\' for more information.');
  let stderr = '';
  for (const f of files) {
    const path = abs(ctx, f);
    const exists = await host.fs.exists(path);
    if (!exists && noCreate) continue;
    const bytes = exists ? await host.fs.readFileBuffer(path) : new Uint8Array();
    const current = bytes.length;
    const op = m[1];
    const target =
      op === '+' ? current + size : op === '-' ? Math.max(0, current - size) : op === '<' ? Math.min(current, size) : op === '>' ? Math.max(current, size) : op === '/' ? Math.floor(current / size) * size : op === '%' ? Math.ceil(current / size) * size : size;
    if (target > 64 << 20) {
      stderr += `truncate: failed to truncate '${f}' at ${target} bytes: File too large (a limit of this simulated shell)\n`;
      continue;
    }
    const next = new Uint8Array(target);
    next.set(bytes.subarray(0, Math.min(current, target)));
    try {
      await host.fs.writeFile(path, next);
    } catch (err) {
      stderr += `truncate: cannot open '${f}' for writing: ${errorWords(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** GNU stat's %y: "2024-05-01 12:00:00.000000000 +0000". */
function statTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000000 +0000`;
}

/** `ls -l` / `stat %A` mode text, with setuid/setgid/sticky. */
export function modeString(mode: number, kind: 'file' | 'dir' | 'link'): string {
  const type = kind === 'dir' ? 'd' : kind === 'link' ? 'l' : '-';
  const bit = (mask: number, c: string) => (mode & mask ? c : '-');
  const special = (exec: number, flag: number, set: string, unset: string) => (mode & flag ? (mode & exec ? set : unset) : mode & exec ? 'x' : '-');
  return (
    type +
    bit(0o400, 'r') + bit(0o200, 'w') + special(0o100, 0o4000, 's', 'S') +
    bit(0o040, 'r') + bit(0o020, 'w') + special(0o010, 0o2000, 's', 'S') +
    bit(0o004, 'r') + bit(0o002, 'w') + special(0o001, 0o1000, 't', 'T')
  );
}

async function subdirs(host: Host, path: string): Promise<number> {
  let n = 0;
  for (const name of await host.fs.readdir(path).catch(() => [] as string[])) {
    const st = await host.fs.lstat(`${path === '/' ? '' : path}/${name}`).catch(() => null);
    if (st?.isDirectory) n++;
  }
  return n;
}

async function stat(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let format: string | undefined;
  let printf = false;
  const files: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-c' || a === '--format') format = args[++i];
    else if (a.startsWith('--format=')) format = a.slice(9);
    else if (a.startsWith('--printf=')) (format = a.slice(9)), (printf = true);
    else if (a === '--printf') (format = args[++i]), (printf = true);
    else if (a.startsWith('-c') && a.length > 2) format = a.slice(2);
    else if (a.startsWith('-')) rest.push(a);
    else files.push(a);
  }
  if (format === undefined) return ctx.origCommand ? ctx.origCommand(args) : fail('stat: unavailable');
  if (files.length === 0) return fail("stat: missing operand\nTry 'stat --help' for more information.");
  const names = await ownerNames(host);
  let stdout = '';
  let stderr = '';
  for (const f of files) {
    const path = abs(ctx, f);
    let st: FsStat;
    try {
      st = rest.includes('-L') ? await host.fs.stat(path) : await host.fs.lstat(path);
    } catch {
      stderr += `stat: cannot statx '${f}': No such file or directory\n`;
      continue;
    }
    const owner = host.owners.get(path) ?? { uid: 0, gid: 0 };
    const kind = st.isDirectory ? 'dir' : st.isSymbolicLink ? 'link' : 'file';
    const sizes = own(st);
    // A directory's links: itself, its entry in the parent, and each subdirectory's `..`.
    const links = kind === 'dir' ? 2 + (await subdirs(host, path)) : 1;
    const mtime = st.mtime;
    const secs = Math.floor(mtime.getTime() / 1000);
    const fields: Record<string, () => string> = {
      n: () => f,
      N: () => `'${f}'`,
      s: () => String(st.isDirectory ? BLOCK : st.size),
      a: () => (st.mode & 0o7777).toString(8),
      A: () => modeString(st.mode, kind),
      f: () => (st.mode | (kind === 'dir' ? 0o40000 : kind === 'link' ? 0o120000 : 0o100000)).toString(16),
      F: () => (kind === 'dir' ? 'directory' : kind === 'link' ? 'symbolic link' : st.size === 0 ? 'regular empty file' : 'regular file'),
      u: () => String(owner.uid),
      g: () => String(owner.gid),
      U: () => names.user.get(owner.uid) ?? 'UNKNOWN',
      G: () => names.group.get(owner.gid) ?? 'UNKNOWN',
      h: () => String(links),
      i: () => String(st.ino ?? 0),
      b: () => String(sizes.disk / 512),
      B: () => '512',
      o: () => String(BLOCK),
      x: () => statTime(mtime),
      y: () => statTime(mtime),
      z: () => statTime(mtime),
      w: () => '-',
      X: () => String(secs),
      Y: () => String(secs),
      Z: () => String(secs),
      W: () => '0',
      d: () => '2049',
      D: () => '801',
      m: () => '/',
      t: () => '0',
      T: () => '0',
    };
    let out = '';
    for (let i = 0; i < format.length; i++) {
      const c = format[i];
      if (c === '%' && i + 1 < format.length) {
        const k = format[++i];
        if (k === '%') out += '%';
        else out += fields[k] ? fields[k]() : `?`;
      } else if (printf && c === '\\' && i + 1 < format.length) {
        const k = format[++i];
        out += k === 'n' ? '\n' : k === 't' ? '\t' : k === '\\' ? '\\' : `\\${k}`;
      } else out += c;
    }
    stdout += printf ? out : `${out}\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

const UNIT_MS: Record<string, number> = { sec: 1000, second: 1000, min: 60_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, fortnight: 14 * 86_400_000 };

/**
 * GNU date's relative items ("7 days ago", "-30 days", "+2 weeks", "yesterday", "next month",
 * "now") against `now`; null when the text is not purely relative (just-bash parses the rest).
 */
export function relativeDate(text: string, now: number): number | null {
  const words = text.trim().toLowerCase().replace(/([+-])\s+(\d)/g, '$1$2').split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const d = new Date(now);
  let matched = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'now' || w === 'today') {
      matched = true;
      continue;
    }
    if (w === 'yesterday' || w === 'tomorrow') {
      d.setTime(d.getTime() + (w === 'yesterday' ? -1 : 1) * 86_400_000);
      matched = true;
      continue;
    }
    let amount: number;
    let unitWord: string | undefined;
    if (w === 'next' || w === 'last' || w === 'this') {
      amount = w === 'next' ? 1 : w === 'last' ? -1 : 0;
      unitWord = words[++i];
    } else if (/^[+-]?\d+$/.test(w)) {
      amount = Number(w);
      unitWord = words[++i];
    } else if (/^(sec|second|min|minute|hour|day|week|fortnight|month|year)s?$/.test(w)) {
      amount = 1;
      unitWord = w;
    } else return null;
    const unit = unitWord?.replace(/s$/, '');
    if (!unit) return null;
    if (words[i + 1] === 'ago') {
      amount = -amount;
      i++;
    }
    if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + amount);
    else if (unit === 'year') d.setUTCFullYear(d.getUTCFullYear() + amount);
    else if (UNIT_MS[unit]) d.setTime(d.getTime() + amount * UNIT_MS[unit]);
    else return null;
    matched = true;
  }
  return matched ? d.getTime() : null;
}

/**
 * date with the simulated clock: no date given → now; a relative one → from now; `-r FILE` (which
 * just-bash's date does not know) → the file's modification time, to the second.
 */
async function date(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  if (!ctx.origCommand) return fail('date: unavailable');
  const out: string[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const reference = a === '-r' || a === '--reference' ? args[++i] : a.startsWith('--reference=') ? a.slice('--reference='.length) : /^-r./.test(a) ? a.slice(2) : undefined;
    if (reference !== undefined) {
      try {
        const { mtime } = await ctx.fs.stat(abs(ctx, reference));
        out.push('-d', `@${Math.floor(mtime.getTime() / 1000)}`);
      } catch {
        return fail(`date: ${reference}: No such file or directory`);
      }
      explicit = true;
      continue;
    }
    let value: string | undefined;
    if (a === '-d' || a === '--date') value = args[++i];
    else if (a.startsWith('--date=')) value = a.slice('--date='.length);
    else if (/^-d./.test(a)) value = a.slice(2);
    else {
      if (/^(-s|--set|-f|--file)/.test(a)) explicit = true;
      out.push(a);
      continue;
    }
    explicit = true;
    const relative = value === undefined ? null : relativeDate(value, host.clock.now());
    out.push('-d', relative === null ? (value ?? '') : `@${Math.floor(relative / 1000)}`);
  }
  return ctx.origCommand(explicit ? out : ['-d', `@${Math.floor(host.clock.now() / 1000)}`, ...out]);
}

/** A symbolic mode (u=x, g+w,o=r, a=rwx) as the octal bits it sets, for find -perm. */
function symbolicBits(text: string): number | null {
  let bits = 0;
  for (const clause of text.split(',')) {
    const m = /^([ugoa]*)([=+-])([rwxst]*)$/.exec(clause);
    if (!m) return null;
    const who = m[1] === '' || m[1].includes('a') ? 'ugo' : m[1];
    for (const p of m[3]) {
      for (const w of who) {
        const shift = w === 'u' ? 6 : w === 'g' ? 3 : 0;
        if (p === 'r') bits |= 4 << shift;
        else if (p === 'w') bits |= 2 << shift;
        else if (p === 'x') bits |= 1 << shift;
        else if (p === 's') bits |= w === 'u' ? 0o4000 : w === 'g' ? 0o2000 : 0;
        else if (p === 't') bits |= 0o1000;
      }
    }
  }
  return bits;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const TIME_TESTS: Record<string, number> = { '-mmin': MINUTE_MS, '-amin': MINUTE_MS, '-cmin': MINUTE_MS, '-mtime': DAY_MS, '-atime': DAY_MS, '-ctime': DAY_MS };

/**
 * GNU find's time tests as just-bash's `-newer` against time references (fs.ts `timeRefPath`),
 * taken at the simulated `now`: just-bash's find knows only -mtime, measures it from the real
 * clock and rounds `+N` differently. GNU's rules (checked against Debian's find in
 * tests/unit/os-find-time.test.ts): minutes count an age `a` as is (-N: a < N, +N: a > N,
 * N: N-1 < a <= N); days drop the fraction (-N: a < N, +N: a >= N+1, N: N <= a < N+1).
 * There is one time per file here, so -a… and -c… read the modification time.
 */
function timeTest(unitMs: number, value: string, now: number): string[] | null {
  const m = /^([-+]?)(\d+)$/.exec(value);
  if (!m) return null;
  const n = Number(m[2]);
  const newer = (ageMs: number) => ['-newer', timeRefPath(now - ageMs)];
  // `-newer R` is mtime > R; ages are whole milliseconds here, so "age <= A" is mtime > now - A - 1.
  const youngerThan = (ageMs: number) => newer(ageMs);
  const atMost = (ageMs: number) => newer(ageMs + 1);
  const not = (test: string[]) => ['!', ...test];
  const days = unitMs === DAY_MS;
  let test: string[];
  if (m[1] === '-') test = youngerThan(n * unitMs);
  else if (m[1] === '+') test = days ? not(youngerThan((n + 1) * unitMs)) : not(atMost(n * unitMs));
  else test = days ? [...not(youngerThan(n * unitMs)), ...youngerThan((n + 1) * unitMs)] : [...not(atMost((n - 1) * unitMs)), ...atMost(n * unitMs)];
  return ['(', ...test, ')'];
}

/** find's tests whose value is a shell pattern. */
const FIND_PATTERNS = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-lname', '-ilname']);

/**
 * A find pattern's backslash escapes (`\.` a dot, `\*` a star), which just-bash's find does not
 * read (`-not -path "*\/\.*"` of test task bootstrap-78 matched nothing), as plain characters or
 * one-character bracket expressions.
 */
export function findPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c !== '\\' || i + 1 >= pattern.length) {
      out += c;
      continue;
    }
    const next = pattern[++i];
    out += next === '\\' ? '[\\\\]' : '*?['.includes(next) ? `[${next}]` : next;
  }
  return out;
}

/**
 * find's predicates just-bash lacks, rewritten to ones it has (the shell runs as root, so
 * -executable is "any x bit"); time tests are measured at `now` (simulated).
 */
export function findArgs(args: string[], now: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const unit = TIME_TESTS[a];
    const timed = unit !== undefined && i + 1 < args.length ? timeTest(unit, args[i + 1], now) : null;
    if (timed) {
      out.push(...timed);
      i++;
    } else if (FIND_PATTERNS.has(a) && i + 1 < args.length) out.push(a, findPattern(args[++i]));
    else if (a === '-executable') out.push('-perm', '/111');
    else if (a === '-readable') out.push('-perm', '/444');
    else if (a === '-writable') out.push('-perm', '/222');
    else if (a === '-perm' && i + 1 < args.length) {
      const value = args[++i];
      const m = /^([-/+]?)(.*)$/.exec(value)!;
      if (/^[0-7]+$/.test(m[2])) out.push('-perm', value);
      else {
        const bits = symbolicBits(m[2]);
        out.push('-perm', bits === null ? value : `${m[1] === '+' ? '/' : m[1]}${bits.toString(8).padStart(3, '0')}`);
      }
    } else out.push(a);
  }
  return out;
}

/** grep options that take a value. */
const GREP_VALUE = new Set(['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D']);

/** GNU grep's long options that just-bash's grep refuses ("unrecognized option"), as their short ones. */
const GREP_LONG_VALUE: Record<string, string> = { regexp: 'e', 'after-context': 'A', 'before-context': 'B', context: 'C' };

/**
 * Unbundle `-cve PATTERN` into `-c -v -e PATTERN`; `--regexp=X` / `--regexp X` (and the context
 * options) into their short forms; pull out -H / --with-filename.
 */
export function grepArgs(args: string[]): { args: string[]; withFilename: boolean } {
  const out: string[] = [];
  let withFilename = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.push(...args.slice(i));
      break;
    }
    const long = /^--([a-z-]+)(?:=([\s\S]*))?$/.exec(a);
    const short = long ? GREP_LONG_VALUE[long[1]] : undefined;
    if (long && short) {
      if (long[2] !== undefined) out.push(`-${short}`, long[2]);
      else if (i + 1 < args.length) out.push(`-${short}`, args[++i]);
      else out.push(a); // no value: just-bash's own message
      continue;
    }
    if (a === '--with-filename') {
      withFilename = true;
      continue;
    }
    if (!a.startsWith('-') || a.startsWith('--') || a.length <= 2 || /^-\d+$/.test(a)) {
      if (a === '-H') withFilename = true;
      else out.push(a);
      if (a.length === 2 && GREP_VALUE.has(a[1]) && i + 1 < args.length) out.push(args[++i]);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j];
      if (f === 'H') {
        withFilename = true;
        continue;
      }
      if (GREP_VALUE.has(f)) {
        out.push(`-${f}`);
        if (j + 1 < a.length) out.push(a.slice(j + 1));
        else if (i + 1 < args.length) out.push(args[++i]);
        break;
      }
      out.push(`-${f}`);
    }
  }
  return { args: morePatterns(out), withFilename };
}

/**
 * Several `-e PATTERN`s as one `-e` of newline-separated patterns: GNU matches a line with any of
 * them, just-bash's grep kept only the last. (A newline in a pattern separates patterns in both.)
 */
function morePatterns(args: string[]): string[] {
  const { patterns } = grepOperands(args);
  if (patterns.length < 2) return args;
  const out = [...args];
  out[patterns[0]] = patterns.map((i) => args[i]).join('\n');
  for (const i of patterns.slice(1).reverse()) out.splice(i - 1, 2);
  return out;
}

/**
 * GNU's word anchors `\<` and `\>` (basic and extended patterns), which just-bash's grep reads as
 * the letters < and >, in its own spelling `[[:<:]]` / `[[:>:]]` (a word boundary). Bracket
 * expressions are left as they are. Test task bootstrap-03 counts lines with `'\<error\>'`.
 */
export function wordAnchors(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i];
      out += next === '<' ? '[[:<:]]' : next === '>' ? '[[:>:]]' : c + next;
    } else if (c === '[') {
      // A bracket expression: a leading ] is a member; [:class:], [.x.] and [=x=] hold their own ].
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') {
        const close = pattern[j] === '[' && ':.='.includes(pattern[j + 1] ?? '') ? pattern.indexOf(`${pattern[j + 1]}]`, j + 2) : -1;
        j = close === -1 ? j + 1 : close + 2;
      }
      out += pattern.slice(i, j + 1);
      i = j;
    } else out += c;
  }
  return out;
}

/**
 * Where grep's unbundled arguments (grepArgs: `--regexp` is `-e` by then) hold the pattern operand
 * (-1 when -e or -f gave the patterns), the -e patterns, and which operands are files.
 */
function grepOperands(args: string[]): { pattern: number; patterns: number[]; files: number[] } {
  const operands: number[] = [];
  const patterns: number[] = [];
  let fromFile = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      for (let j = i + 1; j < args.length; j++) operands.push(j);
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      if (a === '-e' && i + 1 < args.length) patterns.push(i + 1);
      if (a === '-f' || a.startsWith('--file=')) fromFile = true;
      if (a.length === 2 && GREP_VALUE.has(a[1])) i++;
    } else operands.push(i);
  }
  const given = patterns.length > 0 || fromFile;
  return { pattern: given ? -1 : (operands[0] ?? -1), patterns, files: given ? operands : operands.slice(1) };
}

/** grep's unbundled arguments with its patterns' word anchors respelled (not for -F or -P, where `\<` is no anchor). */
export function grepWordAnchors(args: string[]): string[] {
  if (args.some((a) => a === '-F' || a === '-P' || a === '--fixed-strings' || a === '--perl-regexp')) return args;
  const { pattern, patterns } = grepOperands(args);
  const out = [...args];
  for (const i of pattern === -1 ? patterns : [pattern]) out[i] = wordAnchors(out[i]);
  return out;
}

/**
 * just-bash's recursive grep passes over an operand that does not exist in silence (status 1); GNU grep says
 * "grep: X: No such file or directory" when it reaches it (first, when it is the first operand) and its status
 * is 2 (0 with -q once a line matched: it stops there).
 */
async function missingInRecursion(result: ExecResult, operands: string[], args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const missing: string[] = [];
  for (const op of operands) if (op !== '-' && !(await ctx.fs.exists(abs(ctx, op)))) missing.push(op);
  if (!missing.length || result.stderr.includes('No such file or directory')) return result;
  if (args.includes('-q') && result.exitCode === 0) return result;
  const found = { ...result, stderr: `${result.stderr}${missing.map((op) => `grep: ${op}: No such file or directory\n`).join('')}`, exitCode: 2 };
  return missing.includes(operands[0]) ? stderrFirst(found) : found;
}

/** grep's arguments without its -s / --no-messages options (a pattern or file so spelt stays), and whether one was there. */
function withoutNoMessages(args: string[]): { args: string[]; silent: boolean } {
  const { pattern, patterns, files } = grepOperands(args);
  const isOption = (a: string, i: number) =>
    (a === '-s' || a === '--no-messages') && i !== pattern && !patterns.includes(i) && !files.includes(i) && args[i - 1] !== '-f';
  const kept = args.filter((a, i) => !isOption(a, i));
  return { args: kept, silent: kept.length !== args.length };
}

async function grep(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  if (!ctx.origCommand) return fail('grep: unavailable');
  const { args: unbundled, withFilename } = grepArgs(args);
  // -s (no messages about missing or unreadable files) is GNU's; just-bash's grep refuses it.
  const { args: spoken, silent } = withoutNoMessages(unbundled);
  let plain = grepWordAnchors(spoken);
  const operands = grepOperands(plain).files.map((i) => plain[i]);
  const recursive = plain.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive' || a === '--dereference-recursive');
  // GNU's -r with no file searches "." (its names without "./"); just-bash's searched nothing.
  if (recursive && operands.length === 0) plain = [...plain, '.'];
  let result = await ctx.origCommand(plain);
  if (recursive) result = await missingInRecursion(result, operands, plain, ctx);
  // Under the operand ".", GNU names files "./a" (just-bash: "a").
  const namesShown = !plain.some((a) => a === '-h' || a === '--no-filename' || a === '-q');
  if (recursive && namesShown && operands.length === 1 && operands[0] === '.') {
    result = { ...result, stdout: result.stdout.replace(/^(?!--$)(?=.)/gm, './') };
  }
  if (silent) result = { ...result, stderr: result.stderr.replace(/^grep: .*: (?:No such file or directory|Permission denied)\n/gm, '') };
  if (!withFilename) return result;
  // -H with a single file: GNU prefixes each line with the name (several files already have it).
  const namesOnly = plain.some((a) => /^-[lLq]$/.test(a));
  if (operands.length !== 1 || recursive || namesOnly) return result;
  const name = operands[0];
  const stdout = result.stdout.replace(/^(?=.)/gm, `${name}:`);
  return { ...result, stdout };
}

/** GNU find quotes the path it could not read ("find: 'missing': No such file or directory"; just-bash: bare). */
function findErrors(result: ExecResult): ExecResult {
  if (!result.stderr) return result;
  return { ...result, stderr: result.stderr.replace(/^find: (?!')(.+): (No such file or directory|Permission denied)$/gm, (_, path: string, why: string) => `find: '${path}': ${why}`) };
}

/**
 * cp, mv and ln into a directory that does not exist (perms.ts refuses the new entry): GNU names the
 * destination ("cp: cannot create regular file 'x/y': No such file or directory"); just-bash names only the
 * source, or nothing ("ln: No such file or directory"). Two operands; other forms keep just-bash's words.
 */
function destinationNamed(name: 'cp' | 'mv' | 'ln'): Command {
  return command(name, async (args, ctx) => {
    if (!ctx.origCommand) return fail(`${name}: unavailable`);
    const result = await ctx.origCommand(args);
    const refused = new RegExp(`^${name}: (?:cannot (?:copy|move) '.*': )?(No such file or directory|Not a directory)\\n$`).exec(result.stderr);
    const operands = args.filter((a) => !a.startsWith('-') || a === '-');
    if (!refused || operands.length !== 2) return result;
    const [source, dest] = operands;
    const target = abs(ctx, dest);
    // Only where the destination's directory is missing (or no directory): a missing source has other words.
    if ((await ctx.fs.stat(parentOf(target)).catch(() => null))?.isDirectory) return result;
    const why = refused[1];
    const sourceIsDir = (await ctx.fs.stat(abs(ctx, source)).catch(() => null))?.isDirectory ?? false;
    const symbolic = args.some((a) => /^-[a-zA-Z]*s/.test(a) || a === '--symbolic');
    let line: string;
    if (name !== 'ln' && why === 'Not a directory') line = `${name}: cannot stat '${dest}': ${why}`;
    else if (name === 'cp') line = `cp: cannot create ${sourceIsDir ? 'directory' : 'regular file'} '${dest}': ${why}`;
    else if (name === 'mv') line = `mv: cannot move '${source}' to '${dest}': ${why}`;
    else if (symbolic) line = `ln: failed to create symbolic link '${dest}': ${why}`;
    else line = `ln: failed to create hard link '${dest}' => '${source}': ${why}`;
    return { ...result, stderr: `${line}\n` };
  });
}

/** GNU tee opens its files before it copies anything: a file it could not open is reported first. */
function teeOrder(result: ExecResult): ExecResult {
  return result.stderr && /^(?:tee: .+: [A-Z][a-z ]+\n)+$/.test(result.stderr) ? stderrFirst(result) : result;
}

/** GNU sed: "sed: can't read X: No such file or directory" and status 2 (just-bash: "sed: X: …", 1). */
function sedErrors(result: ExecResult): ExecResult {
  if (!result.stderr) return result;
  const stderr = result.stderr.replace(/^sed: (.+): (No such file or directory|Permission denied)$/gm, "sed: can't read $1: $2");
  return stderr === result.stderr ? result : { ...result, stderr, exitCode: 2 };
}

/** dd with if=, of=, bs=, count=, skip=, status= (the byte copy the tasks' inits use). */
async function dd(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const opts = new Map<string, string>();
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq === -1) return fail(`dd: unrecognized operand '${a}'\nTry 'dd --help' for more information.`);
    opts.set(a.slice(0, eq), a.slice(eq + 1));
  }
  const bs = parseSizeArg(opts.get('bs') ?? opts.get('ibs') ?? '512');
  if (bs === null || bs === 0) return fail(`dd: invalid number: '${opts.get('bs')}'`);
  const count = opts.has('count') ? Number(opts.get('count')) : Infinity;
  const skip = Number(opts.get('skip') ?? 0);
  let input: Uint8Array;
  const inFile = opts.get('if');
  if (inFile !== undefined) {
    try {
      input = await host.fs.readFileBuffer(abs(ctx, inFile));
    } catch {
      return fail(`dd: failed to open '${inFile}': No such file or directory`);
    }
  } else input = stdinBytes(ctx);
  const start = Math.min(input.length, skip * bs);
  const end = Math.min(input.length, count === Infinity ? input.length : start + count * bs, start + (64 << 20));
  const data = input.subarray(start, end);
  const full = Math.floor(data.length / bs);
  const partial = data.length % bs ? 1 : 0;
  let stdout = '';
  const outFile = opts.get('of');
  if (outFile !== undefined) {
    try {
      await host.fs.writeFile(abs(ctx, outFile), data);
    } catch (err) {
      return fail(`dd: failed to open '${outFile}': ${errorWords(err)}`);
    }
  }
  else stdout = Array.from(data, (b) => String.fromCharCode(b)).join('');
  const status = opts.get('status');
  const stderr =
    status === 'none'
      ? ''
      : `${full}+${partial} records in\n${full}+${partial} records out\n${status === 'noxfer' ? '' : `${data.length} bytes (${data.length >= 1000 ? `${(data.length / 1000).toFixed(0)} kB, ` : ''}${humanSize(data.length)}) copied, 0.000104 s, ${Math.round(data.length / 104)} MB/s\n`}`;
  return { stdout, stderr, exitCode: 0 };
}

/**
 * GNU head's count from the end (`head -n -1 f`: all but the last line; `-c -K`: all but the last K bytes),
 * which just-bash's head refuses: for one file or standard input, the count it comes to from the start.
 */
async function headCountFromEnd(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<string[]> {
  let at = -1; // where the count from the end was given
  let width = 1; // how many arguments it took
  let bytes = false;
  let count = 0;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const joined = /^(?:-([nc])|--(lines|bytes)=)-(\d+)$/.exec(a);
    const apart = /^-([nc])$/.exec(a);
    if (joined) [at, width, bytes, count] = [i, 1, (joined[1] ?? joined[2]).startsWith('c') || joined[2] === 'bytes', Number(joined[3])];
    else if (apart && /^-\d+$/.test(args[i + 1] ?? '')) [at, width, bytes, count] = [i, 2, apart[1] === 'c', -Number(args[i + 1])];
    else if (apart) i++; // a count from the start, and its value
    else if (!a.startsWith('-') || a === '-') operands.push(a);
    if (at === i && width === 2) i++;
  }
  if (at === -1 || operands.length > 1) return args;
  const source = operands[0] ?? '-';
  let data: Uint8Array;
  if (source === '-') data = stdinBytes(ctx);
  else {
    const path = abs(ctx, source);
    // A file head cannot read: its own error (any count leads there).
    if (!(await host.fs.exists(path)) || (await host.fs.stat(path)).isDirectory || !(await mayRead(host, path))) {
      return [...args.slice(0, at), bytes ? '-c' : '-n', '1', ...args.slice(at + width)];
    }
    data = await host.fs.readFileBuffer(path);
  }
  let total = data.length;
  if (!bytes) {
    total = 0;
    for (const b of data) if (b === 10) total++;
    if (data.length && data[data.length - 1] !== 10) total++;
  }
  return [...args.slice(0, at), bytes ? '-c' : '-n', String(Math.max(0, total - count)), ...args.slice(at + width)];
}

/**
 * GNU cat writes each file as it comes to it, so `cat a missing b` shows the error between a's and b's lines;
 * just-bash's cat gives both files, then the error. Plain file operands with an error are read again one at a
 * time, and the order of those reads is kept (only when they give the same text: nothing but the order changes).
 */
async function catInOrder(cat: (args: string[]) => Promise<ExecResult>, args: string[]): Promise<ExecResult> {
  const whole = await cat(args);
  if (!whole.stderr || args.length < 2 || args.some((a) => a.startsWith('-') || a.startsWith('/dev/'))) return whole;
  const parts: ExecResult[] = [];
  for (const a of args) parts.push(await cat([a]));
  if (parts.map((p) => p.stdout).join('') !== whole.stdout || parts.map((p) => p.stderr).join('') !== whole.stderr) return whole;
  return { ...whole, outputOrder: parts.flatMap((p) => [p.stdout.length, -p.stderr.length]).filter((n) => n !== 0) } as ExecResult;
}

/**
 * Readers that would word a refused read as "No such file or directory" (just-bash's wording
 * for every read error): operands the current user may not read get "Permission denied"
 * first; the rest go to just-bash's command; every read error is then worded as GNU's (readErrors.ts).
 */
function permissionAware(host: Host, name: string): Command {
  return command(name, async (args, ctx) => {
    const original = ctx.origCommand;
    if (!original) return fail(`${name}: unavailable`);
    const kind = async (operand: string) => {
      const path = abs(ctx, operand);
      if (!(await host.fs.exists(path))) return 'missing' as const;
      return (await host.fs.stat(path)).isDirectory ? ('directory' as const) : ('file' as const);
    };
    const worded = async (operands: string[]) => gnuReadErrors(name, await original(operands), kind);
    const run = async (operands: string[]) =>
      name === 'cat' ? catInOrder(worded, operands) : worded(name === 'head' ? await headCountFromEnd(host, operands, ctx) : operands);
    if (host.identity.uid === 0) return run(args);
    let stderr = '';
    const kept: string[] = [];
    let operands = false;
    for (const a of args) {
      if (!operands && a.startsWith('-') && a !== '-') {
        if (a === '--') operands = true;
        kept.push(a);
        continue;
      }
      const path = abs(ctx, a);
      if (a !== '-' && (await host.fs.exists(path)) && !(await mayRead(host, path))) {
        stderr += `${name}: ${a}: Permission denied\n`;
      } else kept.push(a);
    }
    if (!stderr) return run(args);
    const hasOperand = kept.some((a) => !a.startsWith('-') || a === '-');
    const rest = hasOperand ? await original(kept) : { stdout: '', stderr: '', exitCode: 0 };
    return gnuReadErrors(name, { stdout: rest.stdout, stderr: stderr + rest.stderr, exitCode: 1 }, kind);
  });
}

export function coreutilsCommands(host: Host): Command[] {
  return [
    command('du', (a, ctx) => du(host, a, ctx)),
    command('truncate', (a, ctx) => truncate(host, a, ctx)),
    command('stat', (a, ctx) => stat(host, a, ctx)),
    command('date', (a, ctx) => date(host, a, ctx)),
    command('dd', (a, ctx) => dd(host, a, ctx)),
    command('who', async () => ok()),
    command('users', async () => ok()),
    command('find', async (a, ctx) => (ctx.origCommand ? findErrors(await ctx.origCommand(findArgs(a, host.clock.now()))) : fail('find: unavailable'))),
    command('sed', async (a, ctx) => (ctx.origCommand ? sedErrors(await ctx.origCommand(a)) : fail('sed: unavailable'))),
    command('tee', async (a, ctx) => (ctx.origCommand ? teeOrder(await ctx.origCommand(a)) : fail('tee: unavailable'))),
    ...(['cp', 'mv', 'ln'] as const).map((name) => destinationNamed(name)),
    command('grep', (a, ctx) => grep(a, ctx)),
    command('ls', (a, ctx) => ls(host, a, ctx)),
    trCommand(),
    odCommand(host),
    ...['cat', 'head', 'tail', 'wc', 'sort', 'md5sum', 'sha256sum', 'base64', 'xxd', 'tac'].map((n) => permissionAware(host, n)),
  ];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ls -l's time column: "Mon dd HH:MM" within six months of now, else "Mon dd  YYYY". */
function lsTime(d: Date, now: number): string {
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const recent = Math.abs(now - d.getTime()) < 182.5 * 86_400_000;
  return `${MONTHS[d.getUTCMonth()]} ${day} ${recent ? `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}` : ` ${d.getUTCFullYear()}`}`;
}

interface LsEntry {
  name: string;
  path: string;
  stat: FsStat;
  target?: string;
}

/** ls's output holds no error but missing operands (GNU ls reports those first). */
const ONLY_CANNOT_ACCESS = /^(?:ls: cannot access '.*': No such file or directory\n)+$/;

/**
 * ls in long format (-l, -n, -g, -o), which just-bash prints with fixed owners and modes: the
 * real mode bits (setuid, setgid, sticky), owners from this host, GNU's column alignment,
 * "total" in 1K blocks. Other listings are just-bash's.
 */
async function ls(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const flags = new Set<string>();
  const operands: string[] = [];
  let onlyOperands = false;
  for (const a of args) {
    if (onlyOperands || !a.startsWith('-') || a === '-') operands.push(a);
    else if (a === '--') onlyOperands = true;
    else if (a.startsWith('--')) {
      const long: Record<string, string> = { '--all': 'a', '--almost-all': 'A', '--directory': 'd', '--human-readable': 'h', '--recursive': 'R', '--reverse': 'r', '--numeric-uid-gid': 'n' };
      if (long[a]) flags.add(long[a]);
    } else for (const f of a.slice(1)) flags.add(f);
  }
  const long = flags.has('l') || flags.has('n') || flags.has('g') || flags.has('o');
  if (!long) {
    if (!ctx.origCommand) return fail('ls: unavailable');
    // GNU words a missing operand "cannot access '…'" and exits 2 (just-bash: "ls: X: …", 1).
    const r = await ctx.origCommand(args);
    const stderr = r.stderr.replace(/^ls: (.*): No such file or directory$/gm, "ls: cannot access '$1': No such file or directory");
    // just-bash also leaves a blank line where the missing operand's listing would follow.
    if (stderr === r.stderr) return r;
    const fixed = { ...r, stdout: r.stdout.replace(/\n\n$/, '\n'), stderr, exitCode: 2 };
    return ONLY_CANNOT_ACCESS.test(stderr) ? stderrFirst(fixed) : fixed;
  }
  const names = await ownerNames(host);
  const now = host.clock.now();
  const showAll = flags.has('a');
  const almostAll = flags.has('A');
  const sortEntries = (entries: LsEntry[]) => {
    const byName = (x: LsEntry, y: LsEntry) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
    entries.sort((x, y) =>
      flags.has('t') ? y.stat.mtime.getTime() - x.stat.mtime.getTime() || byName(x, y) : flags.has('S') ? y.stat.size - x.stat.size || byName(x, y) : byName(x, y),
    );
    if (flags.has('r')) entries.reverse();
    return entries;
  };
  const entryOf = async (path: string, name: string): Promise<LsEntry> => {
    const stat = await host.fs.lstat(path);
    let target: string | undefined;
    if (stat.isSymbolicLink) target = await host.fs.readlink(path).catch(() => '?');
    return { name, path, stat, target };
  };
  const subdirCount = async (path: string) => {
    let n = 0;
    for (const name of await host.fs.readdir(path).catch(() => [] as string[])) {
      const st = await host.fs.lstat(`${path === '/' ? '' : path}/${name}`).catch(() => null);
      if (st?.isDirectory) n++;
    }
    return n;
  };
  const render = async (entries: LsEntry[], withTotal: boolean): Promise<string> => {
    const rows: string[][] = [];
    let blocks = 0;
    for (const e of entries) {
      const owner = host.owners.get(e.path) ?? { uid: 0, gid: 0 };
      const kind = e.stat.isDirectory ? 'dir' : e.stat.isSymbolicLink ? 'link' : 'file';
      const sizes = own(e.stat);
      blocks += sizes.disk / 1024;
      const links = kind === 'dir' ? 2 + (await subdirCount(e.path)) : 1;
      const size = kind === 'dir' ? BLOCK : kind === 'link' ? (e.target ?? '').length : e.stat.size;
      const user = flags.has('n') ? String(owner.uid) : (names.user.get(owner.uid) ?? String(owner.uid));
      const group = flags.has('n') ? String(owner.gid) : (names.group.get(owner.gid) ?? String(owner.gid));
      const row = [modeString(e.stat.mode, kind), String(links)];
      if (!flags.has('g')) row.push(user);
      if (!flags.has('o')) row.push(group);
      row.push(flags.has('h') ? humanSize(size) : String(size), lsTime(e.stat.mtime, now), e.target !== undefined ? `${e.name} -> ${e.target}` : e.name);
      rows.push(row);
    }
    const widths = rows.reduce((w, row) => row.map((c, i) => Math.max(w[i] ?? 0, c.length)), [] as number[]);
    const last = (rows[0]?.length ?? 0) - 1;
    const lines = rows.map((row) =>
      row
        .map((c, i) => (i === last || i === last - 1 ? c : i === 0 ? c : /^\d|^[\d.]+[KMGT]?$/.test(c) && (i === 1 || i === last - 2) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join(' '),
    );
    const total = flags.has('h') ? humanSize(blocks * 1024) : String(blocks);
    return `${withTotal ? `total ${total}\n` : ''}${lines.map((l) => `${l}\n`).join('')}`;
  };
  const listDir = async (path: string): Promise<LsEntry[]> => {
    const entries: LsEntry[] = [];
    if (showAll) {
      entries.push({ ...(await entryOf(path, '.')) });
      const parent = path === '/' ? '/' : path.slice(0, path.lastIndexOf('/')) || '/';
      entries.push({ ...(await entryOf(parent, '..')) });
    }
    for (const name of await host.fs.readdir(path)) {
      if (name.startsWith('.') && !showAll && !almostAll) continue;
      entries.push(await entryOf(`${path === '/' ? '' : path}/${name}`, name));
    }
    return sortEntries(entries);
  };
  if (operands.length === 0) operands.push('.');
  let stdout = '';
  let stderr = '';
  const files: LsEntry[] = [];
  const dirs: { shown: string; path: string }[] = [];
  for (const op of operands) {
    const path = abs(ctx, op);
    let st: FsStat;
    try {
      st = await host.fs.lstat(path);
    } catch {
      stderr += `ls: cannot access '${op}': No such file or directory\n`;
      continue;
    }
    if (st.isDirectory && !flags.has('d')) dirs.push({ shown: op, path });
    else files.push(await entryOf(path, op));
  }
  if (files.length) stdout += await render(sortEntries(files), false);
  const headers = operands.length > 1 || flags.has('R');
  const queue = [...dirs];
  let first = files.length === 0;
  while (queue.length) {
    const { shown, path } = queue.shift()!;
    const entries = await listDir(path);
    stdout += `${first ? '' : '\n'}${headers ? `${shown}:\n` : ''}${await render(entries, true)}`;
    first = false;
    if (flags.has('R')) {
      const subs = entries.filter((e) => e.stat.isDirectory && e.name !== '.' && e.name !== '..').map((e) => ({ shown: `${shown.replace(/\/+$/, '')}/${e.name}`, path: e.path }));
      queue.unshift(...subs);
    }
  }
  // Its only errors are missing operands, which GNU ls reports before it lists anything.
  return stderrFirst({ stdout, stderr, exitCode: stderr ? 2 : 0 });
}

