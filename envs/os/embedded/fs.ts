/**
 * The filesystem the embedded shell sees: just-bash's in-memory filesystem with two fixes.
 * 1. Simulated time: whatever a command writes gets the simulated clock's time as mtime
 *    (just-bash stamps the real time, which would not match a clock moved by `sleep`).
 * 2. The empty path names nothing: just-bash resolves "" to the working directory, so
 *    `[ -x "" ]` was true; GNU tools treat "" as a missing file (dev task 22 depends on it).
 */
import type { IFileSystem } from 'just-bash';
import type { SimClock } from './clock.ts';

/** A path that cannot exist: what "" resolves to. */
export const MISSING_PATH = '/\u0000';

const WRITERS = new Set(['writeFile', 'appendFile', 'mkdir', 'symlink', 'link']);

function enoent(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });
}

/** Wrap `inner` so writes carry simulated time and "" is a missing path. */
export function clockedFs(inner: IFileSystem, clock: SimClock): IFileSystem {
  const stamp = async (path: string) => {
    const t = new Date(clock.fileTime());
    try {
      await inner.utimes(path, t, t);
    } catch {
      // The path may be gone already (a racing rm); the write itself succeeded.
    }
  };
  // Every file operation goes through `get`: wrappers are made once per name, not per call
  // (a fresh closure per call was a measurable share of an init script's garbage).
  const made = new Map<string | symbol, unknown>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (made.has(prop)) return made.get(prop);
      const value = wrap(target, prop, receiver);
      if (typeof value === 'function') made.set(prop, value);
      return value;
    },
  });

  function wrap(target: IFileSystem, prop: string | symbol, receiver: unknown): unknown {
    {
      if (prop === 'resolvePath') {
        return (base: string, path: string) => (path === '' ? MISSING_PATH : target.resolvePath(base, path));
      }
      if (typeof prop === 'string' && WRITERS.has(prop)) {
        return async (path: string, ...rest: unknown[]) => {
          const where = prop === 'symlink' || prop === 'link' ? (rest[0] as string) : path;
          if (where.includes('\u0000')) throw enoent('');
          await (target[prop as 'writeFile'] as (...a: unknown[]) => Promise<void>).call(target, path, ...rest);
          await stamp(where);
        };
      }
      if (prop === 'cp' || prop === 'mv') {
        return async (src: string, dest: string, options?: unknown) => {
          if (dest.includes('\u0000') || src.includes('\u0000')) throw enoent('');
          await (target[prop] as (s: string, d: string, o?: unknown) => Promise<void>).call(target, src, dest, options);
          if (prop === 'cp') await stamp(dest);
        };
      }
      if (prop === 'utimes') {
        // `touch` passes the real time: move it to simulated time; explicit dates (touch -d) stay.
        return async (path: string, atime: Date, mtime: Date) => {
          const real = Date.now();
          const t = Math.abs(mtime.getTime() - real) < 5000 ? new Date(clock.fileTime()) : mtime;
          await target.utimes(path, Math.abs(atime.getTime() - real) < 5000 ? t : atime, t);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    }
  }
}
