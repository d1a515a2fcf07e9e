/**
 * Everyday commands as agents type them (issue 28), where just-bash lacks them or prints
 * differently from GNU coreutils 9.1 / bash 5.2: `yes`, `timeout` on the simulated clock,
 * attached option values (`xargs -n2 -I{}`, `paste -sd+`, `seq -f FMT`), `nl`'s unnumbered
 * lines, `column` without -t, `realpath` (missing last component, --relative-to), `rm -i`,
 * `basename /` / `dirname /`, `uniq -c`'s seven-wide count, `comm`'s sorted-order check and
 * `timeout N yes` (stopped by the timeout, status 124). tests/unit/os-shell-commands.test.ts holds GNU's outputs.
 */
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { abs, command, fail, ok, type Host } from './host.ts';
import { YES_FOREVER } from './pipes.ts';
import { touchTimedCommand } from './touch.ts';

/**
 * Commands run one after the other here, so `yes` cannot run until its reader stops: into a
 * pipe it writes 64 KiB of lines (enough for `yes | head -N`, `yes | rm -i`; 1 MiB made each
 * `yes | head -3` take 0.3 s). Where nothing reads it (pipes.ts renames it YES_FOREVER) it
 * writes past the output limit, so the command is stopped as bash's never-ending `yes` would be.
 */
function yes(args: string[], ctx: ResolvedCommandContext, forever = false): ExecResult {
  if (args[0] === '--help') return ok('Usage: yes [STRING]...\n  or:  yes OPTION\nRepeatedly output a line with all specified STRING(s), or \'y\'.\n\n      --help        display this help and exit\n      --version     output version information and exit\n\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\nReport any translation bugs to <https://translationproject.org/team/>\nFull documentation <https://www.gnu.org/software/coreutils/yes>\nor available locally via: info \'(coreutils) yes invocation\'\n');
  if (args[0] === '--version') return ok('yes (GNU coreutils) 9.1\n');
  const line = `${args.length ? args.join(' ') : 'y'}\n`;
  const limit = forever ? ctx.limits.maxOutputSize + line.length : Math.min(ctx.limits.maxOutputSize, 1 << 16);
  return ok(line.repeat(Math.max(1, Math.floor(limit / line.length))));
}

/** `-n2` → `-n 2` for the options that take a value, up to the first operand (xargs's command). */
function splitAttached(args: string[], withValue: string, stopAtOperand: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || (stopAtOperand && !a.startsWith('-'))) {
      out.push(...args.slice(i));
      break;
    }
    if (/^-[^-]/.test(a) && a.length > 2) {
      // Bundled flags, the last of which may take the rest as its value (`-sd+`, `-0n1`).
      let j = 1;
      for (; j < a.length; j++) {
        if (withValue.includes(a[j])) {
          out.push(`-${a[j]}`, a.slice(j + 1));
          break;
        }
        out.push(`-${a[j]}`);
      }
      if (j < a.length && out[out.length - 1] === '') {
        out.pop();
        out.push(args[++i] ?? '');
      }
      continue;
    }
    out.push(a);
    if (withValue.includes(a[1] ?? '') && a.length === 2 && a[0] === '-') out.push(args[++i] ?? '');
  }
  return out;
}

/** printf-style %g / %f / %e / %d with flags and width, as `seq -f` uses them. */
function formatNumber(spec: string, value: number): string | null {
  const m = /^(.*?)%([-0+ #]*)(\d*)(?:\.(\d+))?([gGfFeEd])(.*)$/s.exec(spec);
  if (!m) return null;
  const [, before, flags, width, precision, conv, after] = m;
  const p = precision === undefined ? 6 : Number(precision);
  let text: string;
  if (conv === 'f' || conv === 'F') text = value.toFixed(p);
  else if (conv === 'e' || conv === 'E') text = value.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2');
  else if (conv === 'd') text = String(Math.trunc(value));
  else text = String(Number(value.toPrecision(p || 1))).replace(/e([+-])(\d)$/, 'e$10$2');
  if (conv === 'E' || conv === 'G') text = text.toUpperCase();
  if (flags.includes('+') && value >= 0) text = `+${text}`;
  const w = Number(width || 0);
  if (text.length < w) text = flags.includes('-') ? text.padEnd(w) : flags.includes('0') ? text.replace(/^([+-]?)/, (s) => s + '0'.repeat(w - text.length)) : text.padStart(w);
  return `${before}${text}${after}`;
}

async function seq(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const split = splitAttached(args, 'fs', false).flatMap((a) => (/^--(format|separator)=/.test(a) ? [a.startsWith('--f') ? '-f' : '-s', a.slice(a.indexOf('=') + 1)] : [a]));
  const at = split.indexOf('-f') >= 0 ? split.indexOf('-f') : split.indexOf('--format');
  if (at < 0) return ctx.origCommand!(split);
  const format = split[at + 1] ?? '';
  const rest = [...split.slice(0, at), ...split.slice(at + 2)];
  const sepAt = rest.indexOf('-s');
  const separator = sepAt >= 0 ? rest[sepAt + 1] : '\n';
  if (sepAt >= 0) rest.splice(sepAt, 2);
  const plain = await ctx.origCommand!(rest);
  if (plain.exitCode !== 0) return plain;
  const values = plain.stdout.split('\n').filter(Boolean);
  const lines = values.map((v) => formatNumber(format, Number(v)));
  if (lines.some((l) => l === null)) return fail(`seq: format '${format}' has no % directive`);
  return ok(lines.length ? `${lines.join(separator)}\n` : '');
}

/**
 * GNU nl: lines not numbered get the number's width and the separator as spaces
 * (`-b t`, the default, leaves empty lines unnumbered).
 */
async function nl(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let style = 't';
  let width = 6;
  let separator = '\t';
  let start = 1;
  let increment = 1;
  let format = 'rn';
  const files: string[] = [];
  const a = splitAttached(args, 'bwsvin', false);
  for (let i = 0; i < a.length; i++) {
    const o = a[i];
    if (o === '-b') style = a[++i];
    else if (o.startsWith('--body-numbering=')) style = o.slice(17);
    else if (o === '-w') width = Number(a[++i]);
    else if (o === '-s') separator = a[++i];
    else if (o === '-v') start = Number(a[++i]);
    else if (o === '-i') increment = Number(a[++i]);
    else if (o === '-n') format = a[++i];
    else if (o.startsWith('-') && o !== '-') return fail(`nl: invalid option -- '${o.slice(1)}'\nTry 'nl --help' for more information.`);
    else files.push(o);
  }
  let text = '';
  if (files.length === 0) files.push('-');
  for (const f of files) {
    if (f === '-') text += ctx.stdin;
    else {
      try {
        text += await host.fs.readFile(abs(ctx, f));
      } catch {
        return fail(`nl: ${f}: No such file or directory`);
      }
    }
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let n = start;
  const out = lines.map((line) => {
    const numbered = style === 'a' || (style === 't' && line !== '') || (style.startsWith('p') && new RegExp(style.slice(1)).test(line));
    if (!numbered) return `${' '.repeat(width + separator.length)}\n`;
    const num = format === 'ln' ? String(n).padEnd(width) : format === 'rz' ? String(n).padStart(width, '0') : String(n).padStart(width);
    n += increment;
    return `${num}${separator}${line}\n`;
  });
  return ok(out.join('').replace(/\n$/, text.endsWith('\n') || text === '' ? '\n' : ''));
}

/**
 * util-linux `column` without -t: entries in columns filled top to bottom, each column as wide
 * as the longest entry rounded up to a tab stop, within 80 characters (no terminal here).
 */
async function column(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  if (args.some((a) => a !== '-c' && a.startsWith('-') && a !== '-')) return ctx.origCommand!(args);
  if (args.length) return ctx.origCommand!(args);
  const entries = String(ctx.stdin).split('\n').filter((l) => l !== '');
  if (entries.length === 0) return ok();
  const tab = 8;
  const widest = Math.max(...entries.map((e) => e.length));
  const colWidth = (widest + tab) & ~(tab - 1);
  const termWidth = 80;
  if (colWidth > termWidth - tab) return ok(entries.map((e) => `${e}\n`).join(''));
  const cols = Math.max(1, Math.floor(termWidth / colWidth));
  const rows = Math.ceil(entries.length / cols);
  let out = '';
  for (let row = 0; row < rows; row++) {
    let end = colWidth;
    let count = 0;
    for (let base = row; ; ) {
      const e = entries[base];
      out += e;
      count += e.length;
      base += rows;
      if (base >= entries.length) break;
      // Tabs up to the column's end (util-linux counts the line so far, tab stops of 8).
      while (((count + tab) & ~(tab - 1)) <= end) {
        out += '\t';
        count = (count + tab) & ~(tab - 1);
      }
      end += colWidth;
    }
    out += '\n';
  }
  return ok(out);
}

/** A relative path from directory `from` to `to`, both absolute and normalized. */
function relative(from: string, to: string): string {
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const parts = [...a.slice(i).map(() => '..'), ...b.slice(i)];
  return parts.length ? parts.join('/') : '.';
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** GNU realpath: by default every component but the last must exist; -e all, -m none. */
async function realpath(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let mode: 'e' | 'm' | '' = '';
  let quiet = false;
  let relativeTo: string | undefined;
  let noSymlinks = false;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const o = args[i];
    if (o === '-e' || o === '--canonicalize-existing') mode = 'e';
    else if (o === '-m' || o === '--canonicalize-missing') mode = 'm';
    else if (o === '-q' || o === '--quiet') quiet = true;
    else if (o === '-s' || o === '--strip' || o === '--no-symlinks') noSymlinks = true;
    else if (o.startsWith('--relative-to=')) relativeTo = o.slice(14);
    else if (o === '--relative-to') relativeTo = args[++i];
    else if (o === '-L' || o === '-P' || o === '-z') continue;
    else paths.push(o);
  }
  if (paths.length === 0) return fail("realpath: missing operand\nTry 'realpath --help' for more information.");
  const resolve = async (p: string): Promise<string | null> => {
    const full = normalize(abs(ctx, p));
    if (mode === 'm' || noSymlinks) return full;
    try {
      return await host.fs.realpath(full);
    } catch {
      if (mode === 'e' || full === '/') return null;
      const cut = full.lastIndexOf('/');
      try {
        const parent = await host.fs.realpath(full.slice(0, cut) || '/');
        if (!(await host.fs.stat(parent)).isDirectory) return null;
        return `${parent === '/' ? '' : parent}/${full.slice(cut + 1)}`;
      } catch {
        return null;
      }
    }
  };
  const base = relativeTo === undefined ? null : await resolve(relativeTo);
  if (relativeTo !== undefined && base === null) return fail(`realpath: ${relativeTo}: No such file or directory`);
  let stdout = '';
  let stderr = '';
  for (const p of paths) {
    const r = await resolve(p);
    if (r === null) {
      if (!quiet) stderr += `realpath: ${p}: No such file or directory\n`;
    } else stdout += `${base === null ? r : relative(base, r)}\n`;
  }
  return { stdout, stderr, exitCode: stderr || stdout.split('\n').length - 1 < paths.length ? 1 : 0 };
}

/** `timeout D CMD`: sleep skips time here, so the limit is checked on the simulated clock. */
async function timeout(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  let signal = 'TERM';
  let i = 0;
  for (; i < args.length && args[i].startsWith('-'); i++) {
    const o = args[i];
    if (o === '-s' || o === '--signal') signal = args[++i] ?? 'TERM';
    else if (o.startsWith('--signal=')) signal = o.slice(9);
    else if (o.startsWith('-s')) signal = o.slice(2);
    else if (o === '-k' || o === '--kill-after') i++;
    else if (o === '--') {
      i++;
      break;
    }
  }
  const duration = args[i];
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(duration ?? '');
  if (!m || i + 1 >= args.length) return ctx.origCommand!(args);
  const seconds = Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]]!;
  const killed = /^(KILL|SIGKILL|9)$/i.test(signal);
  // `yes` never ends by itself: the timeout always stops it (its output is bounded here, as in a pipe).
  if (args[i + 1] === 'yes') return { ...yes(args.slice(i + 2), ctx), exitCode: killed ? 137 : 124 };
  const before = host.clock.now();
  const r = await ctx.origCommand!(args);
  if (seconds > 0 && host.clock.now() - before > seconds * 1000 && r.exitCode === 0) {
    return { ...r, exitCode: killed ? 137 : 124 };
  }
  return r;
}

/** GNU's `uniq -c` prints each count seven wide ("%7d "); just-bash's four wide. */
async function uniq(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const r = await ctx.origCommand!(args);
  const counts = args.some((a) => a === '--count' || (/^-[a-zA-Z]+$/.test(a) && a.includes('c')));
  return counts ? { ...r, stdout: r.stdout.replace(/^ *(\d+) /gm, (_m, n: string) => `${n.padStart(7)} `) } : r;
}

/**
 * GNU comm checks that each input is sorted (unless --nocheck-order): it says which file is not,
 * then "input is not in sorted order", and exits 1. just-bash compares without the check.
 */
async function comm(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const check = !args.includes('--nocheck-order');
  const passed = args.filter((a) => a !== '--nocheck-order' && a !== '--check-order');
  const r = await ctx.origCommand!(passed);
  const files = passed.filter((a) => !a.startsWith('-') || a === '-');
  if (!check || r.exitCode !== 0 || files.length !== 2) return r;
  let stderr = '';
  for (const [k, f] of files.entries()) {
    const text = f === '-' ? String(ctx.stdin) : await host.fs.readFile(abs(ctx, f)).catch(() => '');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.some((line, j) => j > 0 && lines[j - 1] > line)) stderr += `comm: file ${k + 1} is not in sorted order\n`;
  }
  return stderr ? { stdout: r.stdout, stderr: `${r.stderr}${stderr}comm: input is not in sorted order\n`, exitCode: 1 } : r;
}

function basename(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const names = args.filter((a) => !a.startsWith('-'));
  // GNU: a name made only of slashes is "/".
  if (names.length === 1 && names[0] !== '' && /^\/+$/.test(names[0]) && args.length === 1) return Promise.resolve(ok('/\n'));
  return ctx.origCommand!(splitAttached(args, 's', false));
}

function dirname(args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  if (args.some((a) => /^\/+$/.test(a))) {
    const out = args.map((a) => (/^\/+$/.test(a) ? '/' : null));
    if (out.every((o) => o !== null)) return Promise.resolve(ok(out.map((o) => `${o}\n`).join('')));
  }
  return ctx.origCommand!(args);
}

/**
 * `rm -i` (just-bash has no -i): GNU asks on stderr for each operand and reads the answer from
 * stdin even when it is not a terminal, which is what `yes | rm -i FILE` relies on. Files only;
 * a directory with -r is removed on one answer (GNU asks per entry).
 */
async function rmInteractive(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const flags = args.filter((a) => a.startsWith('-') && a !== '-' && a !== '--');
  const interactive = flags.some((f) => f === '--interactive' || f === '--interactive=always' || (!f.startsWith('--') && f.includes('i')));
  if (!interactive || flags.some((f) => !f.startsWith('--') && f.includes('f') && f.lastIndexOf('f') > f.lastIndexOf('i'))) return ctx.origCommand!(args.map((a) => (a.startsWith('-') && !a.startsWith('--') ? a.replace(/i/g, '') : a)).filter((a) => a !== '-'));
  const kept = flags.map((f) => (f.startsWith('--') ? (f.startsWith('--interactive') ? '' : f) : f.replace(/i/g, ''))).filter((f) => f && f !== '-');
  const answers = String(ctx.stdin).split('\n');
  let stderr = '';
  let stdout = '';
  let status = 0;
  for (const operand of args.filter((a) => !a.startsWith('-') || a === '-')) {
    const path = abs(ctx, operand);
    const st = await host.fs.lstat(path).catch(() => null);
    if (st === null) {
      stderr += `rm: cannot remove '${operand}': No such file or directory\n`;
      status = 1;
      continue;
    }
    const kind = st.isDirectory ? 'directory' : st.isSymbolicLink ? 'symbolic link' : st.size === 0 ? 'regular empty file' : 'regular file';
    stderr += `rm: remove ${kind} '${operand}'? `;
    const answer = answers.shift() ?? '';
    if (!/^[yY]/.test(answer)) continue;
    const r = await ctx.origCommand!([...kept, '--', operand]);
    stdout += r.stdout;
    stderr += r.stderr;
    if (r.exitCode) status = r.exitCode;
  }
  return { stdout, stderr, exitCode: status };
}

export function gnuCommands(host: Host): Command[] {
  return [
    command('yes', async (a, ctx) => yes(a, ctx)),
    command('rm', (a, ctx) => rmInteractive(host, a, ctx)),
    command(YES_FOREVER, async (a, ctx) => yes(a, ctx, true)),
    touchTimedCommand(host),
    command('seq', (a, ctx) => seq(a, ctx)),
    command('xargs', (a, ctx) => ctx.origCommand!(splitAttached(a, 'nILPdaEs', true))),
    command('paste', (a, ctx) => {
      const split = splitAttached(a, 'd', false);
      // GNU reads stdin when no file is named; just-bash wants an operand.
      const files = split.filter((x, i) => (!x.startsWith('-') || x === '-') && split[i - 1] !== '-d');
      return ctx.origCommand!(files.length ? split : [...split, '-']);
    }),
    command('nl', (a, ctx) => nl(host, a, ctx)),
    command('column', (a, ctx) => column(a, ctx)),
    command('realpath', (a, ctx) => realpath(host, a, ctx)),
    command('timeout', (a, ctx) => timeout(host, a, ctx)),
    command('basename', (a, ctx) => basename(a, ctx)),
    command('uniq', (a, ctx) => uniq(a, ctx)),
    command('comm', (a, ctx) => comm(host, a, ctx)),
    command('dirname', (a, ctx) => dirname(a, ctx)),
  ];
}
