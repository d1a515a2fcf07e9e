/**
 * `tr -cd SET` (keep only SET's characters) over bytes, for the inits that draw random text as
 * `cat /dev/urandom | tr -cd '[:alnum:]' | head -c N`: just-bash's tr decodes the device's 64 KiB
 * as UTF-8 and walks it a code point at a time (about 6 ms a read here; bootstrap-25's init reads
 * it up to 70 times). With a SET of ASCII characters the answer needs no decoding: UTF-8 never
 * uses a byte below 0x80 inside a multi-byte character or a replacement, so the kept characters
 * are exactly the input's ASCII bytes in SET, in order. Any other SET, flag or operand goes to
 * just-bash's own tr; `tests/unit/os-tr-keep.test.ts` compares it with GNU tr (Debian's, as in upstream's Ubuntu
 * image) and with just-bash's tr on random bytes and text.
 */
import type { Command } from 'just-bash';
import { command, fail } from './host.ts';

/** The POSIX classes in the C locale, as tr reads them. */
const CLASSES: Record<string, (c: number) => boolean> = {
  alnum: (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  alpha: (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
  digit: (c) => c >= 48 && c <= 57,
  lower: (c) => c >= 97 && c <= 122,
  upper: (c) => c >= 65 && c <= 90,
  xdigit: (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102),
  space: (c) => c === 32 || (c >= 9 && c <= 13),
  blank: (c) => c === 32 || c === 9,
  punct: (c) => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126),
};

/**
 * SET's members (ASCII only) as a 0/1 table over every UTF-16 code, so the walk below can add it without a
 * bounds test; null where the plain byte walk might not agree (left to just-bash).
 */
export function asciiSet(set: string): Uint8Array | null {
  const keep = new Uint8Array(65536);
  for (let i = 0; i < set.length; ) {
    const c = set.charCodeAt(i);
    if (c >= 128) return null;
    if (set.startsWith('[:', i)) {
      const end = set.indexOf(':]', i + 2);
      const test = end > 0 ? CLASSES[set.slice(i + 2, end)] : undefined;
      if (!test) return null;
      for (let k = 0; k < 128; k++) if (test(k)) keep[k] = 1;
      i = end + 2;
    } else if (c === 91 || c === 92) {
      return null; // other brackets ([=c=], [c*n]) and escapes: just-bash's
    } else if (set[i + 1] === '-' && i + 2 < set.length) {
      const to = set.charCodeAt(i + 2);
      if (to >= 128 || to === 91 || to === 92 || to < c) return null;
      for (let k = c; k <= to; k++) keep[k] = 1;
      i += 3;
    } else {
      keep[c] = 1;
      i++;
    }
  }
  return keep;
}

/** The flags of `tr -cd SET` in any of its spellings, or null for any other use of tr. */
function keepOnly(args: string[]): string | null {
  let complement = false;
  let remove = false;
  const sets: string[] = [];
  for (const a of args) {
    if (a === '--complement') complement = true;
    else if (a === '--delete') remove = true;
    else if (/^-[cCd]+$/.test(a)) {
      if (/[cC]/.test(a)) complement = true;
      if (a.includes('d')) remove = true;
    } else if (a.startsWith('-') && a !== '-') return null;
    else sets.push(a);
  }
  return complement && remove && sets.length === 1 ? sets[0] : null;
}

const tables = new Map<string, Uint8Array | null>();
/** An init draws random text with one SET dozens of times: its table is made once (a few kept: 64 KiB each). */
const tableFor = (set: string) => {
  if (!tables.has(set)) {
    if (tables.size >= 8) tables.clear();
    tables.set(set, asciiSet(set));
  }
  return tables.get(set)!;
};

export function trCommand(): Command {
  return command('tr', async (args, ctx) => {
    const set = keepOnly(args);
    const table = set === null ? null : tableFor(set);
    // A byte string: one character a byte (just-bash's browser build has no latin1FromBytes).
    const input = String(ctx.stdin);
    // Past tr's input limit, just-bash's tr gives its own error.
    if (!table || input.length > Math.min(ctx.limits.maxInputBytes, ctx.limits.maxStringLength)) {
      return ctx.origCommand ? ctx.origCommand(args) : fail('tr: unavailable');
    }
    // Branch-free: every byte is written and the count moves on only for a kept one (random input made
    // the branch mispredict half the time: this loop is three times faster on /dev/urandom's bytes).
    const out = new Uint8Array(input.length);
    let n = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      out[n] = c;
      n += table[c];
    }
    // Chunks through apply: spreading a typed array into fromCharCode walks it by its iterator, ten times slower.
    let kept = '';
    for (let i = 0; i < n; i += 8192) kept += String.fromCharCode.apply(null, out.subarray(i, Math.min(n, i + 8192)) as unknown as number[]);
    // Past tr's output limit, just-bash's tr gives its own error too.
    if (kept.length > Math.min(ctx.limits.maxOutputSize, ctx.limits.maxStringLength)) return ctx.origCommand ? ctx.origCommand(args) : fail('tr: unavailable');
    return { stdout: kept, stderr: '', exitCode: 0 };
  });
}
