/**
 * /dev/urandom and /dev/random as Linux gives them: each read returns new bytes (random(4)). In
 * just-bash's in-memory filesystem they are plain files, so every `cat /dev/urandom | tr … | head`
 * returned the same bytes: the bootstrap tasks' "random" files all began alike. Here the first
 * read returns the bytes the shell was set up with (as before, so earlier episodes' first reads
 * replay the same) and every later read refills the file from the episode's own seeded stream
 * first, keeping its mode and times (a read does not touch them), so a seed and its commands still give
 * the same observations.
 */
import type { IFileSystem } from 'just-bash';
import type { Rng } from '../../core/rng.ts';

const NOISE_DEVICES = new Set(['/dev/urandom', '/dev/random']);
/** What one read of a random device gives: enough for `head -c`, `tr -dc … | head -c 5000`, dd of tens of KiB. */
export const DEVICE_NOISE_BYTES = 1 << 16;
const READERS = new Set(['readFile', 'readFileBuffer', 'readFileBytes']);

/**
 * `bytes` bytes of noise: one draw from `rng` seeds an xorshift32 run that fills them. Plain
 * integer operations on purpose: a read runs inside a command, while just-bash's defense in depth
 * proxies Math, and a Math call per four bytes made a refill cost a millisecond.
 */
export function noiseBytes(rng: Rng, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = (rng.uniform() * 4294967296) >>> 0 || 1;
  for (let i = 0; i < bytes; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
    out[i + 1] = (x >>> 8) & 255;
    out[i + 2] = (x >>> 16) & 255;
    out[i + 3] = x >>> 24;
  }
  return out;
}

/** Wrap `inner` so that reads of the random devices after the first give new bytes from `rng`. */
export function noiseDevicesFs(inner: IFileSystem, rng: Rng): IFileSystem {
  let reads = 0;
  const refill = async (path: string) => {
    if (reads++ === 0) return;
    const { mtime, mode } = await inner.stat(path);
    await inner.writeFile(path, noiseBytes(rng, DEVICE_NOISE_BYTES));
    await inner.chmod(path, mode & 0o7777);
    await inner.utimes(path, mtime, mtime);
  };
  const made = new Map<string | symbol, unknown>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (made.has(prop)) return made.get(prop);
      let value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      value =
        typeof prop === 'string' && READERS.has(prop)
          ? async (path: string, ...rest: unknown[]) => {
              if (NOISE_DEVICES.has(path) && (await target.exists(path))) await refill(path);
              return method.call(target, path, ...rest);
            }
          : method.bind(target);
      made.set(prop, value);
      return value;
    },
  });
}
