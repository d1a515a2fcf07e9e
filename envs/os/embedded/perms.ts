/**
 * Per-user permissions for the embedded shell. just-bash has one set of rights, so the user a
 * command runs as (root, or whoever `su`/`runuser`/`sudo -u` or an interactive `su - USER`
 * made it) is kept in the host (`host.identity`), and the filesystem the shell sees checks
 * the mode bits against it: reading a file or listing a directory needs r, writing a file w,
 * creating or removing an entry w on the directory, chmod/chown ownership. Files a user
 * creates belong to that user; owners follow `mv` and are forgotten on `rm`. Root passes
 * every check, as on Linux.
 */
import type { IFileSystem } from 'just-bash';
import type { Host, Owner } from './host.ts';
import { parentOf } from './fs.ts';

export interface Identity {
  name: string;
  uid: number;
  gid: number;
  /** Supplementary group ids. */
  groups: number[];
  home: string;
}

export const ROOT: Identity = { name: 'root', uid: 0, gid: 0, groups: [0], home: '/root' };

function denied(path: string, op: string): Error {
  return Object.assign(new Error(`EACCES: permission denied, ${op} '${path}'`), { code: 'EACCES' });
}

/**
 * The in-memory filesystem makes missing parent directories on a write; a real one refuses (`touch no/f`).
 * Worded as the system's error text alone: just-bash's commands print an error's message as it is
 * ("touch: cannot touch 'no/f': No such file or directory").
 */
function noParent(code: 'ENOENT' | 'ENOTDIR', path: string): Error {
  return Object.assign(new Error(code === 'ENOENT' ? 'No such file or directory' : 'Not a directory'), { code, path });
}

/** Whether `who` may access `path` for `want` (4 read, 2 write, 1 execute/search). */
export async function allowed(inner: IFileSystem, owners: Map<string, Owner>, who: Identity, path: string, want: 4 | 2 | 1): Promise<boolean> {
  if (who.uid === 0) return true;
  let mode: number;
  try {
    mode = (await inner.stat(path)).mode;
  } catch {
    return true; // a missing path: the operation itself reports it
  }
  const owner = owners.get(path) ?? { uid: 0, gid: 0 };
  const shift = owner.uid === who.uid ? 6 : who.gid === owner.gid || who.groups.includes(owner.gid) ? 3 : 0;
  return ((mode >> shift) & want) === want;
}

/** Whether the shell's current user may read `path` (root always may). */
export async function mayRead(host: Host, path: string): Promise<boolean> {
  return host.identity.uid === 0 || allowed(host.rawFs, host.owners, host.identity, path, 4);
}

/** Wrap `inner` so operations check `host.identity`'s rights and keep owners. */
export function guardedFs(inner: IFileSystem, host: Host): IFileSystem {
  const who = () => host.identity;
  /** Checks `path` for `want`; the error names `shown` (the file, when its directory was checked). */
  const check = async (path: string, want: 4 | 2 | 1, op: string, shown = path) => {
    if (!(await allowed(inner, host.owners, who(), path, want))) throw denied(shown, op);
  };
  const exists = (path: string) => inner.exists(path).catch(() => false);
  const claim = (path: string) => {
    const me = who();
    if (me.uid !== 0) host.owners.set(path, { uid: me.uid, gid: me.gid });
  };
  const moveOwners = (from: string, to: string) => {
    for (const [p, o] of [...host.owners]) {
      if (p === from || p.startsWith(`${from}/`)) {
        host.owners.delete(p);
        host.owners.set(to + p.slice(from.length), o);
      }
    }
  };
  const forget = (path: string) => {
    for (const p of [...host.owners.keys()]) if (p === path || p.startsWith(`${path}/`)) host.owners.delete(p);
  };
  /** A new entry's directory must exist (and be one), as on a real filesystem. */
  const parentMustExist = async (path: string) => {
    const parent = await inner.stat(parentOf(path)).catch(() => null);
    if (!parent) throw noParent('ENOENT', path);
    if (!parent.isDirectory) throw noParent('ENOTDIR', path);
  };
  const writeLike = (name: 'writeFile' | 'appendFile') => async (path: string, ...rest: unknown[]) => {
    const isNew = !(await exists(path));
    if (isNew) await parentMustExist(path);
    if (isNew) await check(parentOf(path), 2, 'open', path);
    else await check(path, 2, 'open');
    // Writing into an existing file keeps its mode (the in-memory filesystem would reset it to 644).
    const mode = isNew ? null : (await inner.stat(path)).mode;
    await (inner[name] as (...a: unknown[]) => Promise<void>).call(inner, path, ...rest);
    if (isNew) claim(path);
    else if (mode !== null && (await inner.stat(path)).mode !== mode) await inner.chmod(path, mode);
  };
  const overrides: Partial<Record<keyof IFileSystem, unknown>> = {
    readFile: async (path: string, ...rest: unknown[]) => {
      await check(path, 4, 'open');
      return (inner.readFile as (...a: unknown[]) => Promise<string>).call(inner, path, ...rest);
    },
    readFileBytes: async (path: string) => {
      await check(path, 4, 'open');
      return inner.readFileBytes!(path);
    },
    readFileBuffer: async (path: string) => {
      await check(path, 4, 'open');
      return inner.readFileBuffer(path);
    },
    readdir: async (path: string) => {
      await check(path, 4, 'scandir');
      return inner.readdir(path);
    },
    writeFile: writeLike('writeFile'),
    appendFile: writeLike('appendFile'),
    mkdir: async (path: string, options?: { recursive?: boolean }) => {
      const isNew = !(await exists(path));
      if (isNew && !options?.recursive) await check(parentOf(path), 2, 'mkdir', path);
      await inner.mkdir(path, options);
      if (isNew) claim(path);
    },
    rm: async (path: string, options?: { recursive?: boolean; force?: boolean }) => {
      await check(parentOf(path), 2, 'unlink', path);
      await inner.rm(path, options);
      forget(path);
    },
    mv: async (src: string, dest: string) => {
      const destExists = await exists(dest);
      if (!destExists) await parentMustExist(dest);
      await check(parentOf(src), 2, 'rename');
      await check(destExists && (await inner.stat(dest)).isDirectory ? dest : parentOf(dest), 2, 'rename');
      await inner.mv(src, dest);
      moveOwners(src, dest);
    },
    cp: async (src: string, dest: string, options?: { recursive?: boolean }) => {
      await check(src, 4, 'open');
      const isNew = !(await exists(dest));
      if (isNew) await parentMustExist(dest);
      await check(isNew ? parentOf(dest) : dest, 2, 'open', dest);
      await inner.cp(src, dest, options);
      if (isNew) claim(dest);
    },
    symlink: async (target: string, linkPath: string) => {
      if (!(await exists(linkPath))) await parentMustExist(linkPath);
      await inner.symlink(target, linkPath);
    },
    link: async (existing: string, newPath: string) => {
      if (!(await exists(newPath))) await parentMustExist(newPath);
      await inner.link(existing, newPath);
    },
    chmod: async (path: string, mode: number) => {
      const me = who();
      if (me.uid !== 0 && (host.owners.get(path)?.uid ?? 0) !== me.uid) {
        throw Object.assign(new Error(`EPERM: operation not permitted, chmod '${path}'`), { code: 'EPERM' });
      }
      await inner.chmod(path, mode);
    },
  };
  // Every file operation goes through `get`: a method is bound once per name, not per call.
  const bound = new Map<string | symbol, unknown>();
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop as keyof IFileSystem];
      if (bound.has(prop)) return bound.get(prop);
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const method = value.bind(target);
      bound.set(prop, method);
      return method;
    },
  });
}
