/**
 * GNU od for one output type (the common uses: `od -c FILE` to see a file's bytes, `od -An -N4 -tu4
 * /dev/urandom` for a random number, `od -tx1`). just-bash's od read `-tx1`, `-x`, `-N` and `-j`
 * otherwise or not at all (octal where hex was asked, every byte where four were) and spaced its
 * columns unlike GNU. Several types, floats, long options and other forms go to just-bash's od.
 * Fields are GNU's (coreutils 9, C locale, little-endian): one space, then the value right-aligned
 * in the type's widest width (zero-padded for octal and hex); offsets in octal (7 digits) unless -A says.
 */
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { abs, command, fail, stdinBytes, type Host } from './host.ts';
import { mayRead } from './perms.ts';

type Kind = 'a' | 'c' | 'd' | 'o' | 'u' | 'x';
interface OdType {
  kind: Kind;
  /** Bytes per value (1 for a and c). */
  size: 1 | 2 | 4 | 8;
  /** `z`: the line's printable bytes after the fields, between > and <. */
  chars: boolean;
}

/** Digits of the widest value per kind and size (GNU's field widths). */
const WIDTH: Record<'d' | 'o' | 'u' | 'x', Record<1 | 2 | 4 | 8, number>> = {
  o: { 1: 3, 2: 6, 4: 11, 8: 22 },
  x: { 1: 2, 2: 4, 4: 8, 8: 16 },
  u: { 1: 3, 2: 5, 4: 10, 8: 20 },
  d: { 1: 4, 2: 6, 4: 11, 8: 20 },
};
const SIZE_LETTER: Record<string, 1 | 2 | 4 | 8> = { C: 1, S: 2, I: 4, L: 8, '1': 1, '2': 2, '4': 4, '8': 8 };
/** The traditional one-letter formats (GNU: -d is u2, -i d4, -l d8 on x86-64). */
const TRADITIONAL: Record<string, Omit<OdType, 'chars'>> = {
  a: { kind: 'a', size: 1 },
  b: { kind: 'o', size: 1 },
  c: { kind: 'c', size: 1 },
  d: { kind: 'u', size: 2 },
  o: { kind: 'o', size: 2 },
  s: { kind: 'd', size: 2 },
  x: { kind: 'x', size: 2 },
  i: { kind: 'd', size: 4 },
  l: { kind: 'd', size: 8 },
  D: { kind: 'u', size: 4 },
  O: { kind: 'o', size: 4 },
  X: { kind: 'x', size: 4 },
};
const NAMES = 'nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si dle dc1 dc2 dc3 dc4 nak syn etb can em sub esc fs gs rs us sp'.split(' ');
const C_ESCAPES: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
const MULTIPLIER: Record<string, number> = { '': 1, b: 512, k: 1024, K: 1024, m: 1024 ** 2, M: 1024 ** 2, kB: 1000, KB: 1000, MB: 1000 ** 2 };

/** GNU's byte counts for -j and -N: decimal, 0x hex or 0 octal, with an optional b/k/m suffix. */
function byteCount(text: string): number | null {
  const m = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)(b|k|K|m|M|kB|KB|MB)?$/.exec(text);
  if (!m) return null;
  const n = m[1].startsWith('0x') || m[1].startsWith('0X') ? parseInt(m[1].slice(2), 16) : m[1].startsWith('0') ? parseInt(m[1], 8) : Number(m[1]);
  return n * MULTIPLIER[m[2] ?? ''];
}

/** `-t` specs (several may be run together, as in `x1z`); null for one this od leaves to just-bash (floats). */
function typeSpecs(text: string): OdType[] | null {
  const types: OdType[] = [];
  let i = 0;
  while (i < text.length) {
    const kind = text[i++];
    if (kind === 'a' || kind === 'c') types.push({ kind, size: 1, chars: false });
    else if (kind === 'd' || kind === 'o' || kind === 'u' || kind === 'x') {
      let size: 1 | 2 | 4 | 8 = 4;
      if (i < text.length && SIZE_LETTER[text[i]]) size = SIZE_LETTER[text[i++]];
      types.push({ kind, size, chars: false });
    } else return null;
    if (text[i] === 'z') (types[types.length - 1].chars = true), i++;
  }
  return types;
}

interface OdOptions {
  radix: 'o' | 'd' | 'x' | 'n';
  skip: number;
  limit: number;
  width: number;
  all: boolean;
  types: OdType[];
  files: string[];
}

/** The options this od handles, or null for anything else (just-bash's od then answers). */
function parseOd(args: string[]): OdOptions | null {
  const o: OdOptions = { radix: 'o', skip: 0, limit: Infinity, width: 16, all: false, types: [], files: [] };
  let widthGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      o.files.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      o.files.push(a);
      continue;
    }
    if (a.startsWith('--')) return null;
    for (let j = 1; j < a.length; j++) {
      const f = a[j];
      if ('AjNt'.includes(f)) {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return null;
        if (f === 'A') {
          if (!/^[odxn]$/.test(value)) return null;
          o.radix = value as OdOptions['radix'];
        } else if (f === 't') {
          const specs = typeSpecs(value);
          if (!specs) return null;
          o.types.push(...specs);
        } else {
          const n = byteCount(value);
          if (n === null) return null;
          if (f === 'j') o.skip = n;
          else o.limit = n;
        }
        break;
      }
      if (f === 'w') {
        // -w alone is 32; -wN attached only (GNU's optional argument).
        const value = a.slice(j + 1);
        o.width = value === '' ? 32 : Number(value);
        if (!Number.isInteger(o.width) || o.width < 1) return null;
        widthGiven = true;
        break;
      }
      if (f === 'v') o.all = true;
      else if (TRADITIONAL[f]) o.types.push({ ...TRADITIONAL[f], chars: false });
      else return null;
    }
  }
  if (o.types.length === 0) o.types.push({ kind: 'o', size: 2, chars: false });
  // Several types line up in columns of their own widths: left to just-bash.
  if (o.types.length > 1) return null;
  if (widthGiven && o.width % o.types[0].size !== 0) return null;
  return o;
}

function field(type: OdType, bytes: Uint8Array, at: number): string {
  const b = bytes[at];
  if (type.kind === 'c') return (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : (C_ESCAPES[b] ?? b.toString(8).padStart(3, '0'))).padStart(4);
  if (type.kind === 'a') {
    const low = b & 0x7f;
    return (low < 33 ? NAMES[low] : low === 127 ? 'del' : String.fromCharCode(low)).padStart(4);
  }
  // Little-endian, as od on x86.
  let value = 0n;
  for (let k = type.size - 1; k >= 0; k--) value = (value << 8n) | BigInt(bytes[at + k]);
  if (type.kind === 'd') value = BigInt.asIntN(type.size * 8, value);
  const width = WIDTH[type.kind][type.size];
  const digits = value.toString(type.kind === 'o' ? 8 : type.kind === 'x' ? 16 : 10);
  return ` ${type.kind === 'o' || type.kind === 'x' ? digits.padStart(width, '0') : digits.padStart(width)}`;
}

function offset(radix: OdOptions['radix'], n: number): string {
  if (radix === 'n') return '';
  return radix === 'x' ? n.toString(16).padStart(6, '0') : n.toString(radix === 'd' ? 10 : 8).padStart(7, '0');
}

/** GNU od's text for `data`, which starts at byte `start` of the input. */
function odText(o: Pick<OdOptions, 'radix' | 'width' | 'all' | 'types'>, data: Uint8Array, start = 0): string {
  const type = o.types[0];
  const lines: string[] = [];
  let previous: Uint8Array | null = null;
  let starred = false;
  for (let at = 0; at < data.length; at += o.width) {
    const n = Math.min(o.width, data.length - at);
    const line = data.subarray(at, at + n);
    if (!o.all && n === o.width && previous && previous.length === n && line.every((b, k) => b === previous![k])) {
      if (!starred) lines.push('*');
      starred = true;
      continue;
    }
    starred = false;
    previous = line;
    // The last word of a short line is filled with zero bytes, as GNU does.
    const padded = new Uint8Array(Math.ceil(n / type.size) * type.size);
    padded.set(line);
    let text = offset(o.radix, start + at);
    for (let k = 0; k < padded.length; k += type.size) text += field(type, padded, k);
    if (type.chars) {
      const fieldWidth = type.kind === 'a' || type.kind === 'c' ? 4 : WIDTH[type.kind][type.size] + 1;
      const missing = (o.width - padded.length) / type.size;
      text += ' '.repeat(Math.max(0, missing) * fieldWidth) + '  >' + Array.from(line, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('') + '<';
    }
    lines.push(text);
  }
  if (o.radix !== 'n') lines.push(offset(o.radix, start + data.length));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

async function od(host: Host, args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> {
  const o = parseOd(args);
  if (!o) return ctx.origCommand ? ctx.origCommand(args) : fail('od: unavailable');
  let stderr = '';
  const parts: Uint8Array[] = [];
  for (const name of o.files.length ? o.files : ['-']) {
    if (name === '-') {
      parts.push(stdinBytes(ctx));
      continue;
    }
    const path = abs(ctx, name);
    if (!(await host.fs.exists(path))) {
      stderr += `od: ${name}: No such file or directory\n`;
      continue;
    }
    if (!(await mayRead(host, path))) {
      stderr += `od: ${name}: Permission denied\n`;
      continue;
    }
    try {
      parts.push(await host.fs.readFileBuffer(path));
    } catch {
      stderr += `od: ${name}: read error: Is a directory\n`;
    }
  }
  const total = parts.reduce((s, p) => s + p.length, 0);
  if (o.skip > total) return { stdout: '', stderr: `${stderr}od: cannot skip past end of combined input\n`, exitCode: 1 };
  const end = Math.min(total, o.skip + o.limit);
  // About five characters a byte: past just-bash's output limit, its own od answers (and says so).
  if ((end - o.skip) * 5 > Math.min(ctx.limits.maxOutputSize, ctx.limits.maxStringLength)) return ctx.origCommand ? ctx.origCommand(args) : fail('od: unavailable');
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) all.set(p, at), (at += p.length);
  const stdout = total === 0 && stderr && o.files.length ? '' : odText(o, all.subarray(o.skip, end), o.skip);
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

export function odCommand(host: Host): Command {
  return command('od', (args, ctx) => od(host, args, ctx));
}
