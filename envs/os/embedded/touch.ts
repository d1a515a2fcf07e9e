/**
 * touch's time sources as GNU's: `-t [[CC]YY]MMDDhhmm[.ss]`, `-r FILE` / `--reference=FILE`, and
 * `-d @SECONDS` or a relative date ("2 days ago"). just-bash's touch set the current time for -t and
 * -r and refused the others. A task in AgentBench's data (scripts/6/new.json, hiding an edit from
 * tom; not among the 144 test tasks played here) runs `find . -exec touch -t 202206101200 {} +` and
 * checks with `find -newer` a file touched -t: with -t ignored, every file stayed new and the check
 * passed without the agent hiding anything. Agents set old times the same way to test their finds.
 * Only a touch that uses one of them comes here: `renameTouches` (in pipes.ts's transform) renames
 * it to TOUCH_TIMED before the script runs (as a command, or after find's -exec, sudo, xargs, env,
 * nohup, nice, timeout), so the plain touches of init scripts keep just-bash's own path (a command
 * of ours goes through just-bash's per-command membrane: bootstrap-24's 372 touches took 40% longer).
 * Times are UTC, as in upstream's containers; a file keeps one time (-a and -m set it alike).
 */
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { abs, command, fail, type Host } from './host.ts';
import { relativeDate } from './coreutils.ts';
import { errorWords } from './errors.ts';

export const TOUCH_TIMED = '__agentplay_touch_timed';

type Node = { type?: string; value?: unknown; parts?: Node[]; [key: string]: unknown };

/** A word's text when it holds no expansion (literal or quoted), else null. */
function staticText(word: Node | undefined): string | null {
  if (!word || !Array.isArray(word.parts)) return null;
  let text = '';
  for (const part of word.parts) {
    if ((part.type === 'Literal' || part.type === 'SingleQuoted' || part.type === 'Escaped') && typeof part.value === 'string') text += part.value;
    else if (part.type === 'DoubleQuoted') {
      const inner = staticText(part);
      if (inner === null) return null;
      text += inner;
    } else return null;
  }
  return text;
}

/** The -d value just-bash's touch refuses: seconds since the epoch, or a date relative to now. */
const refusedDate = (text: string | null) => text !== null && (text.startsWith('@') || relativeDate(text, 0) !== null);

/** Whether touch's arguments from `from` (to `end`) ask for a time just-bash's touch does not give. */
function needsTimes(args: Node[], from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const text = staticText(args[i]) ?? (args[i]?.parts?.[0]?.type === 'Literal' ? String(args[i].parts![0].value) : '');
    if (text === '--') return false;
    if (/^--(reference|time)(=|$)/.test(text)) return true;
    if (text.startsWith('--date=')) return refusedDate(text.slice(7));
    if (text === '--date') return refusedDate(staticText(args[i + 1]));
    const cluster = /^-([acfhm]*)([dtr])(.*)$/.exec(text);
    if (!cluster) continue;
    if (cluster[2] !== 'd') return true;
    return refusedDate(cluster[3] ? cluster[3] : staticText(args[i + 1]));
  }
  return false;
}

/** Commands that run their first operand as a command (timeout: its second, after the duration). */
const RUNNERS: Record<string, number> = { sudo: 0, xargs: 0, env: 0, nohup: 0, nice: 0, command: 0, exec: 0, time: 0, stdbuf: 0, timeout: 1 };
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Renames a touch that asks for such a time to TOUCH_TIMED (called on every node by pipes.ts's transform). */
export function renameTouches(node: Node): void {
  if (node.type !== 'SimpleCommand') return;
  const name = node.name as Node | null;
  const args = (node.args as Node[] | undefined) ?? [];
  const rename = (word: Node) => (word.parts = [{ type: 'Literal', value: TOUCH_TIMED }]);
  const commandName = staticText(name ?? undefined);
  if (commandName === 'touch') {
    if (needsTimes(args, 0, args.length)) rename(name!);
    return;
  }
  if (commandName === 'find') {
    for (let i = 0; i + 1 < args.length; i++) {
      if (!FIND_EXEC.has(staticText(args[i]) ?? '') || staticText(args[i + 1]) !== 'touch') continue;
      let end = i + 2;
      while (end < args.length && !/^[;+]$/.test(staticText(args[end]) ?? '')) end++;
      if (needsTimes(args, i + 2, end)) rename(args[i + 1]);
    }
    return;
  }
  if (commandName === null || !(commandName in RUNNERS)) return;
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const text = staticText(args[i]);
    if (text === null) return;
    if (text.startsWith('-') || (commandName === 'env' && text.includes('='))) continue;
    if (operands++ < RUNNERS[commandName]) continue;
    if (text === 'touch' && needsTimes(args, i + 1, args.length)) rename(args[i]);
    return;
  }
}

/** GNU's -t stamp as UTC milliseconds (MMDDhhmm takes the current year; YY below 69 is 20YY), or null. */
function touchStamp(text: string, now: number): number | null {
  const m = /^(\d{2}|\d{4})?(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const year = y === undefined ? new Date(now).getUTCFullYear() : y.length === 4 ? Number(y) : Number(y) < 69 ? 2000 + Number(y) : 1900 + Number(y);
  const t = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  const back = new Date(t);
  // A date that does not exist (a 31st of February) is refused, as by GNU.
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || back.getUTCHours() !== Number(h) || back.getUTCMinutes() !== Number(mi) || back.getUTCSeconds() !== Number(s ?? 0)) return null;
  return t;
}

async function touchTimed(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const now = host.clock.now();
  let time: number | null = null;
  let create = true;
  const files: string[] = [];
  const value = (i: number, attached: string) => (attached ? [attached, i] as const : [args[i + 1], i + 1] as const);
  const parseDate = (text: string | undefined): number | null => {
    if (text === undefined) return null;
    if (/^@-?\d+(\.\d+)?$/.test(text)) return Math.floor(Number(text.slice(1)) * 1000);
    return relativeDate(text, now);
  };
  const reference = async (name: string | undefined): Promise<number | ExecResult> => {
    if (name === undefined) return fail("touch: option requires an argument -- 'r'\nTry 'touch --help' for more information.\n");
    try {
      return (await host.fs.stat(abs(ctx, name))).mtime.getTime();
    } catch {
      return fail(`touch: failed to get attributes of '${name}': No such file or directory\n`);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [key, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      const text = inline ?? (key === '--no-create' || key === '--no-dereference' ? undefined : args[++i]);
      if (key === '--no-create') create = false;
      else if (key === '--date') {
        time = parseDate(text);
        if (time === null) return fail(`touch: invalid date format '${text}'\n`);
      } else if (key === '--reference') {
        const r = await reference(text);
        if (typeof r !== 'number') return r;
        time = r;
      } else if (key !== '--time' && key !== '--no-dereference') return fail(`touch: unrecognized option '${a}'\nTry 'touch --help' for more information.\n`);
      continue;
    }
    if (!a.startsWith('-') || a === '-') {
      files.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j];
      if (f === 'c') create = false;
      else if ('afhm'.includes(f)) continue;
      else if (f === 't' || f === 'd' || f === 'r') {
        const [text, at] = value(i, a.slice(j + 1));
        i = at;
        if (f === 't') {
          time = text === undefined ? null : touchStamp(text, now);
          if (time === null) return fail(`touch: invalid date format '${text ?? ''}'\n`);
        } else if (f === 'd') {
          time = parseDate(text);
          if (time === null) return fail(`touch: invalid date format '${text ?? ''}'\n`);
        } else {
          const r = await reference(text);
          if (typeof r !== 'number') return r;
          time = r;
        }
        break;
      } else return fail(`touch: invalid option -- '${f}'\nTry 'touch --help' for more information.\n`);
    }
  }
  if (files.length === 0) return fail("touch: missing file operand\nTry 'touch --help' for more information.\n");
  let stderr = '';
  for (const name of files) {
    const path = abs(ctx, name);
    try {
      if (!(await host.fs.exists(path))) {
        if (!create) continue;
        await host.fs.writeFile(path, '');
      }
      const t = new Date(time ?? now);
      await host.fs.utimes(path, t, t);
    } catch (err) {
      stderr += `touch: cannot touch '${name}': ${errorWords(err)}\n`;
    }
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

export function touchTimedCommand(host: Host): Command {
  return command(TOUCH_TIMED, (args, ctx) => touchTimed(host, args, ctx));
}
