/**
 * How GNU's readers word a file they could not read. just-bash words every such error
 * "NAME: FILE: No such file or directory" (a directory too); GNU head says "cannot open 'FILE' for reading",
 * sort "cannot read: FILE" and exits 2 without output, and so on. Texts as GNU coreutils 9.1 and xxd print them.
 */
import type { ExecResult } from 'just-bash';

type Reason = 'No such file or directory' | 'Permission denied' | 'Is a directory';

/** GNU's quoting of a name in messages that always quote it ('x'; "it's" when it holds a single quote). */
const quoted = (name: string): string => (name.includes("'") ? `"${name}"` : `'${name}'`);
/** …and in messages that quote only a name a shell would need quoted. */
const quotedIfNeeded = (name: string): string => (/^[\w./+,:=@%^-]+$/.test(name) ? name : quoted(name));

/** The line GNU's `name` prints for `operand`, or null where we do not know its wording. */
export function readErrorLine(name: string, operand: string, reason: Reason): string | null {
  const dir = reason === 'Is a directory';
  switch (name) {
    case 'head':
    case 'tail':
      return dir ? `${name}: error reading ${quoted(operand)}: Is a directory` : `${name}: cannot open ${quoted(operand)} for reading: ${reason}`;
    case 'tac':
      return dir ? `tac: ${quotedIfNeeded(operand)}: read error: Invalid argument` : `tac: failed to open ${quoted(operand)} for reading: ${reason}`;
    case 'sort':
      return dir ? `sort: read failed: ${quotedIfNeeded(operand)}: Is a directory` : `sort: cannot read: ${quotedIfNeeded(operand)}: ${reason}`;
    case 'base64':
      return dir ? 'base64: read error: Is a directory' : `base64: ${quotedIfNeeded(operand)}: ${reason}`;
    case 'xxd':
      return dir ? 'xxd: Is a directory' : `xxd: ${operand}: ${reason}`;
    case 'cat':
    case 'wc':
    case 'md5sum':
    case 'sha256sum':
      return `${name}: ${quotedIfNeeded(operand)}: ${reason}`;
    default:
      return null;
  }
}

/** just-bash's md5sum and sha256sum print a file's read error on stdout (GNU's: stderr). */
const MISPLACED = new Set(['md5sum', 'sha256sum']);

function toStderr(result: ExecResult, prefix: string): ExecResult {
  const lines = result.stdout.split('\n');
  const misplaced = (line: string) => line.startsWith(prefix) && /: (?:No such file or directory|Permission denied)$/.test(line);
  const errors = lines.filter(misplaced);
  if (!errors.length) return result;
  return { ...result, stdout: lines.filter((line) => !misplaced(line)).join('\n'), stderr: `${result.stderr}${errors.map((line) => `${line}\n`).join('')}` };
}

/** sort stops at a file it cannot read, with no output and status 2; xxd's status is 2. */
const FAILED_STATUS: Record<string, number> = { sort: 2, xxd: 2 };

/**
 * `result` of just-bash's `name` with its read errors worded as GNU's. `kind(operand)` says what the operand
 * is now ('missing', 'directory' or 'file'); a line about a file that exists keeps just-bash's words.
 */
export async function gnuReadErrors(name: string, result: ExecResult, kind: (operand: string) => Promise<'missing' | 'directory' | 'file'>): Promise<ExecResult> {
  const prefix = `${name}: `;
  if (MISPLACED.has(name) && result.stdout.includes(prefix)) result = toStderr(result, prefix);
  if (!result.stderr) return result;
  let changed = false;
  const lines = result.stderr.split('\n');
  for (const [i, line] of lines.entries()) {
    const m = line.startsWith(prefix) ? /^(.+): (No such file or directory|Permission denied)$/.exec(line.slice(prefix.length)) : null;
    if (!m) continue;
    const what = m[2] === 'Permission denied' ? 'file' : await kind(m[1]);
    const reason: Reason | null = m[2] === 'Permission denied' ? 'Permission denied' : what === 'missing' ? 'No such file or directory' : what === 'directory' ? 'Is a directory' : null;
    const worded = reason && readErrorLine(name, m[1], reason);
    if (!worded) continue;
    lines[i] = worded;
    changed = true;
  }
  if (!changed) return result;
  const status = FAILED_STATUS[name];
  return { ...result, ...(name === 'sort' ? { stdout: '' } : {}), stderr: lines.join('\n'), exitCode: status ?? result.exitCode };
}
