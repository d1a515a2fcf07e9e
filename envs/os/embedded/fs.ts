/**
 * The filesystem the embedded shell sees: just-bash's in-memory filesystem with three fixes.
 * 1. Simulated time: whatever a command writes gets the simulated clock's time as mtime
 *    (just-bash stamps the real time, which would not match a clock moved by `sleep` and would
 *    differ from run to run), and so do the directories a new entry is made in or removed from,
 *    as on Linux. Each write moves the clock on by a millisecond (SimClock.fileTime), so files
 *    written one after another are ordered by time as Linux's nanosecond times order them
 *    (`ls -t`; test task N225 asks for the newest file in /usr). `mv` keeps the moved entries'
 *    times, as rename does.
 * 2. The empty path names nothing: just-bash resolves "" to the working directory, so
 *    `[ -x "" ]` was true; GNU tools treat "" as a missing file (dev task 22 depends on it).
 * 3. A time reference (`timeRefPath`): a path that names no file but stats as one modified at a
 *    given time, which the shell's `find` gives just-bash's `-newer` for -mmin, -mtime and the like.
 */
import type { FsStat, IFileSystem } from 'just-bash';
import type { SimClock } from './clock.ts';

/** A path that cannot exist: what "" resolves to. */
export const MISSING_PATH = '/\u0000';

const TIME_REF = '/\u0000time/';

/** A path whose stat says "a file modified at `ms`" (it is in no directory and cannot be made). */
export const timeRefPath = (ms: number): string => `${TIME_REF}${Math.round(ms)}`;

const WRITERS = new Set(['writeFile', 'appendFile', 'mkdir', 'symlink', 'link']);

function enoent(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: 'ENOENT' });
}

/** The directory a path is in ("/" for a top-level entry). */
export const parentOf = (path: string) => (path.lastIndexOf('/') <= 0 ? '/' : path.slice(0, path.lastIndexOf('/')));

/**
 * Visits every path at and under `root`, parents first (lstat: links are not followed). A path gone
 * or unreadable meanwhile is passed over: the walk serves operations that already succeeded.
 */
export async function walkPaths(fs: IFileSystem, root: string, visit: (path: string) => unknown): Promise<void> {
  await visit(root);
  const st = await fs.lstat(root).catch(() => null);
  if (!st?.isDirectory) return;
  for (const name of await fs.readdir(root).catch(() => [] as string[])) await walkPaths(fs, root === '/' ? `/${name}` : `${root}/${name}`, visit);
}

/** Wrap `inner` so writes carry simulated time and "" is a missing path. */
export function clockedFs(inner: IFileSystem, clock: SimClock): IFileSystem {
  // Plain promise chains, not async functions: a write is common in init scripts, and each extra
  // promise showed in their profiles (Node's async hooks, which defense in depth uses, make them dear).
  const noop = () => undefined;
  /** The path may be gone already (a racing rm): the write itself succeeded. */
  const setTime = (path: string, t: Date): Promise<void> => inner.utimes(path, t, t).catch(noop);
  /** InMemoryFs's exists answers false for any trouble; a guard for other filesystems. */
  const exists = (path: string): Promise<boolean> => inner.exists(path).catch(() => false);
  /**
   * The paths a write to `path` will create: its missing ancestors, top first, and itself. Only
   * mkdir and symlink walk up; a file is written into an existing directory (a redirection or a
   * command checks it first), so for writes one check tells new from old.
   */
  const missing = async (path: string, walkUp: boolean): Promise<string[]> => {
    if (!path.startsWith('/') || (await exists(path))) return [];
    if (!walkUp) return [path];
    const chain = [path];
    for (let p = parentOf(path); p !== '/' && !(await exists(p)); p = parentOf(p)) chain.unshift(p);
    return chain;
  };
  const timeRef = (path: string): FsStat | null => {
    if (!path.startsWith(TIME_REF)) return null;
    const mtime = new Date(Number(path.slice(TIME_REF.length)));
    return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o644, size: 0, mtime };
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
      if (prop === 'stat' || prop === 'lstat') {
        // Not an async function: stat is the commonest call, and an extra promise per call showed.
        const real = target[prop].bind(target);
        return (path: string) => {
          const ref = timeRef(path);
          return ref ? Promise.resolve(ref) : real(path);
        };
      }
      if (typeof prop === 'string' && WRITERS.has(prop)) {
        return async (path: string, ...rest: unknown[]) => {
          const where = prop === 'symlink' || prop === 'link' ? (rest[0] as string) : path;
          if (where.includes('\u0000')) throw enoent('');
          const created = await missing(where, prop === 'mkdir' || prop === 'symlink');
          await (target[prop as 'writeFile'] as (...a: unknown[]) => Promise<void>).call(target, path, ...rest);
          const t = new Date(clock.fileTime());
          // A symlink's own time cannot be set (utimes follows it to its target): it keeps just-bash's.
          const stamped = prop === 'symlink' ? created.slice(0, -1) : prop === 'mkdir' || created.length ? created : [where];
          for (const p of stamped) await setTime(p, t);
          if (created.length) await setTime(parentOf(created[0]), t);
        };
      }
      if (prop === 'rm') {
        return async (path: string, options?: unknown) => {
          await target.rm(path, options as never);
          if (path.startsWith('/') && !(await exists(path))) await setTime(parentOf(path), new Date(clock.fileTime()));
        };
      }
      if (prop === 'cp' || prop === 'mv') {
        return async (src: string, dest: string, options?: unknown) => {
          if (dest.includes('\u0000') || src.includes('\u0000')) throw enoent('');
          const created = await missing(dest, true);
          // rename keeps the times of what it moves; just-bash's mv stamps them with the real time.
          const kept: [string, Date][] = [];
          const t0 = new Date(clock.now());
          if (prop === 'mv') await walkPaths(inner, src, async (p) => void kept.push([p.slice(src.length), (await inner.lstat(p).catch(() => null))?.mtime ?? t0]));
          await (target[prop] as (s: string, d: string, o?: unknown) => Promise<void>).call(target, src, dest, options);
          const t = new Date(clock.fileTime());
          if (prop === 'mv') {
            for (const [rel, mtime] of kept) await setTime(dest + rel, mtime);
            await setTime(parentOf(src), t);
          } else await walkPaths(inner, dest, (p) => setTime(p, t));
          if (created.length) await setTime(parentOf(created[0]), t);
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
