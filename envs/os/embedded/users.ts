/**
 * Users and groups for the embedded shell, kept where Ubuntu keeps them (/etc/passwd,
 * /etc/group, /etc/shadow, /etc/gshadow) so `cat`, `awk` and `getent` agree:
 * id, groups, getent, useradd, groupadd, usermod, userdel, groupdel, chown, chgrp,
 * whoami, su, runuser, sudo (following /etc/sudoers, once installed), passwd. The user a
 * command acts as is host.identity; perms.ts enforces file modes against it.
 */
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { abs, command, currentUser, fail, ok, type Host } from './host.ts';
import { shellQuote } from '../checks.ts';
import { ROOT, type Identity } from './perms.ts';
import { fsErrorText } from './errors.ts';
import { walkPaths } from './fs.ts';

export interface User {
  name: string;
  uid: number;
  gid: number;
  gecos: string;
  home: string;
  shell: string;
}

export interface Group {
  name: string;
  gid: number;
  members: string[];
}

async function read(host: Host, path: string): Promise<string> {
  try {
    return await host.fs.readFile(path);
  } catch {
    return '';
  }
}

export async function readUsers(host: Host): Promise<User[]> {
  return (await read(host, '/etc/passwd'))
    .split('\n')
    .filter((l) => l.includes(':'))
    .map((line) => {
      const [name, , uid, gid, gecos = '', home = '', shell = ''] = line.split(':');
      return { name, uid: Number(uid), gid: Number(gid), gecos, home, shell };
    });
}

export async function readGroups(host: Host): Promise<Group[]> {
  return (await read(host, '/etc/group'))
    .split('\n')
    .filter((l) => l.includes(':'))
    .map((line) => {
      const [name, , gid, members = ''] = line.split(':');
      return { name, gid: Number(gid), members: members ? members.split(',') : [] };
    });
}

async function writeGroups(host: Host, groups: Group[]): Promise<void> {
  await host.fs.writeFile('/etc/group', groups.map((g) => `${g.name}:x:${g.gid}:${g.members.join(',')}\n`).join(''));
}

async function append(host: Host, path: string, line: string): Promise<void> {
  await host.fs.appendFile(path, line);
}

/** A user's groups: primary first, then supplementary ones in /etc/group order. */
export function groupsOf(user: User, groups: Group[]): Group[] {
  const primary = groups.find((g) => g.gid === user.gid);
  const rest = groups.filter((g) => g.members.includes(user.name) && g !== primary);
  return primary ? [primary, ...rest] : rest;
}

function parseFlags(args: string[], withValue: string): { flags: Map<string, string>; rest: string[] } {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--') && a.length > 2) {
      const [key, value] = a.slice(2).split('=', 2);
      flags.set(`--${key}`, value ?? (LONG_WITH_VALUE.has(key) ? (args[++i] ?? '') : ''));
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j];
        if (withValue.includes(f)) {
          flags.set(f, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        flags.set(f, '');
      }
    } else rest.push(a);
  }
  return { flags, rest };
}

const LONG_WITH_VALUE = new Set(['shell', 'home-dir', 'groups', 'gid', 'uid', 'comment', 'command', 'login']);
const LONG: Record<string, string> = { '--shell': 's', '--home-dir': 'd', '--groups': 'G', '--gid': 'g', '--uid': 'u', '--comment': 'c', '--create-home': 'm', '--append': 'a', '--system': 'r', '--command': 'c', '--login': 'l', '--no-create-home': 'M' };

function flag(flags: Map<string, string>, short: string): string | undefined {
  if (flags.has(short)) return flags.get(short);
  for (const [long, s] of Object.entries(LONG)) if (s === short && flags.has(long)) return flags.get(long);
  return undefined;
}

async function copySkel(host: Host, home: string, owner: { uid: number; gid: number }): Promise<void> {
  await host.fs.mkdir(home, { recursive: true });
  host.owners.set(home, owner);
  let entries: string[] = [];
  try {
    entries = await host.fs.readdir('/etc/skel');
  } catch {
    entries = [];
  }
  for (const name of entries) {
    const target = `${home}/${name}`;
    await host.fs.writeFile(target, await host.fs.readFile(`/etc/skel/${name}`));
    host.owners.set(target, owner);
  }
}

function nextId(used: number[], min: number, max: number): number {
  const taken = new Set(used);
  for (let id = min; id <= max; id++) if (!taken.has(id)) return id;
  return max + 1;
}

async function useradd(host: Host, args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { flags, rest } = parseFlags(args, 'sdGgucKk');
  const name = rest[0];
  if (!name) return fail('Usage: useradd [options] LOGIN', 2);
  if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(name)) return fail(`useradd: invalid user name '${name}'`, 3);
  const users = await readUsers(host);
  let groups = await readGroups(host);
  if (users.some((u) => u.name === name)) return fail(`useradd: user '${name}' already exists`, 9);
  const system = flag(flags, 'r') !== undefined;
  const uidText = flag(flags, 'u');
  const uid = uidText !== undefined ? Number(uidText) : system ? nextId(users.map((u) => u.uid), 100, 999) : nextId(users.map((u) => u.uid), 1000, 60000);
  if (!Number.isInteger(uid) || uid < 0) return fail(`useradd: invalid user ID '${uidText}'`, 3);
  const supplementary = (flag(flags, 'G') ?? '').split(',').filter(Boolean);
  for (const g of supplementary) {
    if (!groups.some((x) => x.name === g || String(x.gid) === g)) return fail(`useradd: group '${g}' does not exist`, 6);
  }
  let gid: number;
  const gText = flag(flags, 'g');
  if (gText !== undefined) {
    const g = groups.find((x) => x.name === gText || String(x.gid) === gText);
    if (!g) return fail(`useradd: group '${gText}' does not exist`, 6);
    gid = g.gid;
  } else {
    if (groups.some((g) => g.name === name)) return fail(`useradd: group ${name} exists - if you want to add this user to that group, use -g.`, 9);
    const used = groups.map((g) => g.gid);
    gid = !used.includes(uid) ? uid : nextId(used, system ? 100 : 1000, 60000);
    groups.push({ name, gid, members: [] });
    await append(host, '/etc/gshadow', `${name}:!::\n`);
  }
  groups = groups.map((g) => (supplementary.includes(g.name) || supplementary.includes(String(g.gid)) ? { ...g, members: [...g.members, name] } : g));
  await writeGroups(host, groups);
  const home = flag(flags, 'd') ?? `/home/${name}`;
  const shell = flag(flags, 's') ?? '/bin/sh';
  await append(host, '/etc/passwd', `${name}:x:${uid}:${gid}:${flag(flags, 'c') ?? ''}:${home}:${shell}\n`);
  await append(host, '/etc/shadow', `${name}:!:19760:0:99999:7:::\n`);
  if (flag(flags, 'm') !== undefined && flag(flags, 'M') === undefined) {
    if (await host.fs.exists(home)) return { stdout: '', stderr: `useradd: warning: the home directory ${home} already exists.\nuseradd: Not copying any file from skel directory into it.\n`, exitCode: 0 };
    await copySkel(host, home, { uid, gid });
  }
  return ok();
}

async function groupadd(host: Host, args: string[]) {
  const { flags, rest } = parseFlags(args, 'gK');
  const name = rest[0];
  if (!name) return fail('Usage: groupadd [options] GROUP', 2);
  const groups = await readGroups(host);
  if (groups.some((g) => g.name === name)) return flags.has('f') ? ok() : fail(`groupadd: group '${name}' already exists`, 9);
  const gidText = flags.get('g');
  const gid = gidText !== undefined ? Number(gidText) : nextId(groups.map((g) => g.gid), flags.has('r') ? 100 : 1000, 60000);
  if (!Number.isInteger(gid) || gid < 0) return fail(`groupadd: invalid group ID '${gidText}'`, 3);
  if (groups.some((g) => g.gid === gid) && !flags.has('o')) return fail(`groupadd: GID '${gid}' already exists`, 4);
  await append(host, '/etc/group', `${name}:x:${gid}:\n`);
  await append(host, '/etc/gshadow', `${name}:!::\n`);
  return ok();
}

async function usermod(host: Host, args: string[]) {
  const { flags, rest } = parseFlags(args, 'sdGgucl');
  const name = rest[0];
  if (!name) return fail('Usage: usermod [options] LOGIN', 2);
  const users = await readUsers(host);
  const user = users.find((u) => u.name === name);
  if (!user) return fail(`usermod: user '${name}' does not exist`, 6);
  let groups = await readGroups(host);
  const groupList = flag(flags, 'G');
  if (groupList !== undefined) {
    const wanted = groupList.split(',').filter(Boolean);
    for (const g of wanted) if (!groups.some((x) => x.name === g || String(x.gid) === g)) return fail(`usermod: group '${g}' does not exist`, 6);
    const appendMode = flag(flags, 'a') !== undefined;
    groups = groups.map((g) => {
      const want = wanted.includes(g.name) || wanted.includes(String(g.gid));
      const has = g.members.includes(name);
      if (want && !has) return { ...g, members: [...g.members, name] };
      if (!want && has && !appendMode) return { ...g, members: g.members.filter((m) => m !== name) };
      return g;
    });
    await writeGroups(host, groups);
  }
  const gText = flag(flags, 'g');
  if (gText !== undefined) {
    const g = groups.find((x) => x.name === gText || String(x.gid) === gText);
    if (!g) return fail(`usermod: group '${gText}' does not exist`, 6);
    user.gid = g.gid;
  }
  user.shell = flag(flags, 's') ?? user.shell;
  user.home = flag(flags, 'd') ?? user.home;
  user.gecos = flag(flags, 'c') ?? user.gecos;
  await host.fs.writeFile('/etc/passwd', users.map((u) => `${u.name}:x:${u.uid}:${u.gid}:${u.gecos}:${u.home}:${u.shell}\n`).join(''));
  return ok();
}

async function userdel(host: Host, args: string[]) {
  const { flags, rest } = parseFlags(args, '');
  const name = rest[0];
  const users = await readUsers(host);
  const user = users.find((u) => u.name === name);
  if (!name || !user) return fail(`userdel: user '${name ?? ''}' does not exist`, 6);
  await host.fs.writeFile('/etc/passwd', users.filter((u) => u !== user).map((u) => `${u.name}:x:${u.uid}:${u.gid}:${u.gecos}:${u.home}:${u.shell}\n`).join(''));
  const groups = (await readGroups(host))
    .filter((g) => !(g.name === name && g.gid === user.gid))
    .map((g) => ({ ...g, members: g.members.filter((m) => m !== name) }));
  await writeGroups(host, groups);
  if (flags.has('r')) await host.fs.rm(user.home, { recursive: true, force: true });
  return ok();
}

async function groupdel(host: Host, args: string[]) {
  const name = args.find((a) => !a.startsWith('-'));
  const groups = await readGroups(host);
  if (!name || !groups.some((g) => g.name === name)) return fail(`groupdel: group '${name ?? ''}' does not exist`, 6);
  await writeGroups(host, groups.filter((g) => g.name !== name));
  return ok();
}

async function findUser(host: Host, key: string): Promise<User | undefined> {
  const users = await readUsers(host);
  return users.find((u) => u.name === key) ?? (/^\d+$/.test(key) ? users.find((u) => u.uid === Number(key)) : undefined);
}

async function id(host: Host, args: string[], ctx: ResolvedCommandContext) {
  const { flags, rest } = parseFlags(args, '');
  const name = rest[0] ?? currentUser(ctx);
  const user = await findUser(host, name);
  if (!user) return fail(`id: '${name}': no such user`);
  const groups = groupsOf(user, await readGroups(host));
  const primary = groups.find((g) => g.gid === user.gid);
  const names = flags.has('n');
  if (flags.has('u')) return ok(`${names ? user.name : user.uid}\n`);
  if (flags.has('g')) return ok(`${names ? (primary?.name ?? user.gid) : user.gid}\n`);
  if (flags.has('G')) return ok(`${groups.map((g) => (names ? g.name : g.gid)).join(' ')}\n`);
  const groupText = groups.map((g) => `${g.gid}(${g.name})`).join(',');
  return ok(`uid=${user.uid}(${user.name}) gid=${user.gid}(${primary?.name ?? user.gid}) groups=${groupText}\n`);
}

async function groupsCommand(host: Host, args: string[], ctx: ResolvedCommandContext) {
  const all = await readGroups(host);
  if (args.length === 0) {
    const user = await findUser(host, currentUser(ctx));
    return ok(`${user ? groupsOf(user, all).map((g) => g.name).join(' ') : ''}\n`);
  }
  let stdout = '';
  let stderr = '';
  for (const name of args) {
    const user = await findUser(host, name);
    if (!user) stderr += `groups: '${name}': no such user\n`;
    else stdout += `${name} : ${groupsOf(user, all).map((g) => g.name).join(' ')}\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

const DATABASES: Record<string, { file: string; key: (fields: string[]) => string[] }> = {
  passwd: { file: '/etc/passwd', key: (f) => [f[0], f[2]] },
  group: { file: '/etc/group', key: (f) => [f[0], f[2]] },
  shadow: { file: '/etc/shadow', key: (f) => [f[0]] },
  gshadow: { file: '/etc/gshadow', key: (f) => [f[0]] },
  hosts: { file: '/etc/hosts', key: (f) => f[0].split(/\s+/) },
};

async function getent(host: Host, args: string[]) {
  const [database, ...keys] = args.filter((a) => !a.startsWith('-'));
  const db = database ? DATABASES[database] : undefined;
  if (!database) return fail('getent: wrong number of arguments\nTry `getent --help\' or `getent --usage\' for more information.');
  if (!db) return fail(`Unknown database: ${database}\nTry \`getent --help' or \`getent --usage' for more information.`);
  const lines = (await read(host, db.file)).split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  if (keys.length === 0) return ok(lines.map((l) => `${l}\n`).join(''));
  let stdout = '';
  let missing = false;
  for (const key of keys) {
    const line = lines.find((l) => db.key(database === 'hosts' ? [l] : l.split(':')).includes(key));
    if (line) stdout += `${line}\n`;
    else missing = true;
  }
  return { stdout, stderr: '', exitCode: missing ? 2 : 0 };
}

async function chownLike(host: Host, args: string[], ctx: ResolvedCommandContext, name: 'chown' | 'chgrp') {
  const { flags, rest } = parseFlags(args, '');
  const [spec, ...paths] = rest;
  if (!spec || paths.length === 0) return fail(`${name}: missing operand\nTry '${name} --help' for more information.`);
  let uid: number | undefined;
  let gid: number | undefined;
  const groups = await readGroups(host);
  const findGroup = (g: string) => groups.find((x) => x.name === g) ?? (/^\d+$/.test(g) ? { gid: Number(g), name: g, members: [] } : undefined);
  if (name === 'chgrp') {
    const g = findGroup(spec);
    if (!g) return fail(`chgrp: invalid group: '${spec}'`);
    gid = g.gid;
  } else {
    const [u, g] = spec.split(/[:.]/, 2);
    if (u) {
      const user = (await findUser(host, u)) ?? (/^\d+$/.test(u) ? ({ uid: Number(u), gid: Number(u) } as User) : undefined);
      if (!user) return fail(`chown: invalid user: '${spec}'`);
      uid = user.uid;
      // "user:" means the user's login group.
      if (g === '' && spec.includes(':')) gid = user.gid;
    }
    if (g) {
      const group = findGroup(g);
      if (!group) return fail(`chown: invalid group: '${spec}'`);
      gid = group.gid;
    }
  }
  let stderr = '';
  for (const p of paths) {
    const path = abs(ctx, p);
    if (!(await host.fs.exists(path))) {
      stderr += `${name}: cannot access '${p}': No such file or directory\n`;
      continue;
    }
    const apply = (target: string) => {
      const old = host.owners.get(target) ?? { uid: 0, gid: 0 };
      host.owners.set(target, { uid: uid ?? old.uid, gid: gid ?? old.gid });
    };
    if (flags.has('R')) await walkPaths(host.fs, path, apply);
    else apply(path);
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** The identity a user acts with: uid, primary and supplementary groups. */
export async function identityOf(host: Host, user: User): Promise<Identity> {
  const groups = groupsOf(user, await readGroups(host)).map((g) => g.gid);
  return { name: user.name, uid: user.uid, gid: user.gid, groups, home: user.home };
}

/** Run `cmd` as `user` (rights and USER/HOME/LOGNAME/SHELL), then return to the caller's identity. */
async function runAs(host: Host, ctx: ResolvedCommandContext, user: User, cmd: string, login: boolean): Promise<ExecResult> {
  if (!ctx.exec) return fail('cannot run commands here');
  const previous = host.identity;
  host.identity = await identityOf(host, user);
  try {
    const env = { USER: user.name, LOGNAME: user.name, HOME: user.home, SHELL: user.shell || '/bin/sh' };
    let cwd = ctx.cwd;
    if (login) cwd = (await host.fs.exists(user.home)) ? user.home : '/';
    return await ctx.exec(cmd, { cwd, env });
  } catch (err) {
    return fail(`bash: ${fsErrorText(err)}`);
  } finally {
    host.identity = previous;
  }
}

/**
 * `su [-|-l] [USER] [-c CMD]`: CMD runs as USER; without -c, in the interactive session, the
 * session logs in as USER (until `exit`); in a script it returns at once (no terminal to read).
 * Only root switches without a password (there is no terminal to type one).
 */
async function su(host: Host, args: string[], ctx: ResolvedCommandContext, name0 = 'su') {
  let login = false;
  let cmd: string | undefined;
  let name = 'root';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-' || a === '-l' || a === '--login') login = true;
    else if (a === '-c' || a === '--command') cmd = args[++i];
    else if (a.startsWith('--command=')) cmd = a.slice(10);
    else if (a === '-s' || a === '--shell' || a === '-g' || a === '-G') i++;
    else if (a === '-u' && name0 === 'runuser') name = args[++i] ?? name;
    else if (a === '--') {
      if (name0 === 'runuser' && cmd === undefined && i + 1 < args.length) cmd = args.slice(i + 1).map(shellQuote).join(' ');
      break;
    } else if (!a.startsWith('-')) name = a;
  }
  const user = await findUser(host, name);
  if (!user) return fail(name0 === 'runuser' ? `runuser: user ${name} does not exist` : `su: user ${name} does not exist or the user entry does not contain all the required fields`);
  if (host.identity.uid !== 0 && host.identity.uid !== user.uid) {
    return name0 === 'runuser' ? fail('runuser: may not be used by non-root users') : { stdout: '', stderr: 'Password: su: Authentication failure\n', exitCode: 1 };
  }
  if (cmd === undefined) {
    if (host.interactive) host.pendingLogin = { user: await identityOf(host, user), loginShell: login, shell: user.shell };
    return ok();
  }
  return runAs(host, ctx, user, cmd, login);
}

/** Whether /etc/sudoers (and the files it includes) lets `who` run commands; and without a password. */
async function sudoRule(host: Host, who: Identity): Promise<{ allowed: boolean; nopasswd: boolean }> {
  const groups = await readGroups(host);
  const groupNames = new Set(groups.filter((g) => who.groups.includes(g.gid) || g.gid === who.gid).map((g) => g.name));
  const texts: string[] = [];
  const seen = new Set<string>();
  const load = async (path: string) => {
    if (seen.has(path) || seen.size > 20) return;
    seen.add(path);
    const text = await read(host, path);
    texts.push(text);
    for (const line of text.split('\n')) {
      const m = /^\s*[@#]include(dir)?\s+(\S+)/.exec(line);
      if (!m) continue;
      if (m[1]) {
        let names: string[] = [];
        try {
          names = await host.fs.readdir(m[2]);
        } catch {
          names = [];
        }
        for (const n of names.sort()) if (!n.includes('.') && !n.endsWith('~')) await load(`${m[2]}/${n}`);
      } else await load(m[2]);
    }
  };
  const previous = host.identity;
  host.identity = ROOT;
  try {
    await load('/etc/sudoers');
  } finally {
    host.identity = previous;
  }
  let result = { allowed: false, nopasswd: false };
  for (const text of texts) {
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#(?!include).*$/, '').trim();
      if (!line || /^(Defaults|[A-Z_]+_Alias)\b/.test(line) || line.startsWith('@') || line.startsWith('#')) continue;
      const m = /^(\S+)\s+\S+\s*=\s*(.*)$/.exec(line);
      if (!m) continue;
      const subject = m[1];
      const matches = subject === 'ALL' || subject === who.name || (subject.startsWith('%') && groupNames.has(subject.slice(1)));
      if (matches) result = { allowed: true, nopasswd: /NOPASSWD\s*:/.test(m[2]) }; // the last matching rule wins
    }
  }
  return result;
}

/** `sudo [-u USER] [-i|-s|-E|-H|-n] CMD…`, present only once installed (apt install sudo), following /etc/sudoers. */
async function sudo(host: Host, args: string[], ctx: ResolvedCommandContext) {
  if (!host.packages.has('sudo')) return { stdout: '', stderr: 'bash: sudo: command not found\n', exitCode: 127 };
  let i = 0;
  let target = 'root';
  let login = false;
  while (i < args.length && args[i].startsWith('-')) {
    if (args[i] === '-u') target = args[++i] ?? 'root';
    else if (args[i] === '-i') login = true;
    else if (args[i] === '--') {
      i++;
      break;
    }
    i++;
  }
  const rest = args.slice(i);
  const rule = await sudoRule(host, host.identity);
  if (!rule.allowed) return fail(`${host.identity.name} is not in the sudoers file.  This incident will be reported.`);
  if (host.identity.uid !== 0 && !rule.nopasswd) {
    return fail('sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required');
  }
  const user = await findUser(host, target);
  if (!user) return fail(`sudo: unknown user ${target}`);
  if (rest.length === 0) {
    if (login && host.interactive) {
      host.pendingLogin = { user: await identityOf(host, user), loginShell: true, shell: user.shell };
      return ok();
    }
    return fail('usage: sudo -h | -K | -k | -V\nusage: sudo -v [-ABknS] [-g group] [-h host] [-p prompt] [-u user]\nusage: sudo [-ABbEHknPS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] [VAR=value] [-i | -s] [command [arg ...]]');
  }
  return runAs(host, ctx, user, rest.map(shellQuote).join(' '), login);
}

export function userCommands(host: Host): Command[] {
  return [
    command('useradd', (a) => useradd(host, a)),
    command('adduser', (a) => useradd(host, ['-m', '-s', '/bin/bash', ...a.filter((x) => !x.startsWith('--disabled') && x !== '--gecos' && x !== '""')])),
    command('groupadd', (a) => groupadd(host, a)),
    command('addgroup', (a) => groupadd(host, a)),
    command('usermod', (a) => usermod(host, a)),
    command('userdel', (a) => userdel(host, a)),
    command('deluser', (a) => userdel(host, a)),
    command('groupdel', (a) => groupdel(host, a)),
    command('id', (a, ctx) => id(host, a, ctx)),
    command('groups', (a, ctx) => groupsCommand(host, a, ctx)),
    command('getent', (a) => getent(host, a)),
    command('chown', (a, ctx) => chownLike(host, a, ctx, 'chown')),
    command('chgrp', (a, ctx) => chownLike(host, a, ctx, 'chgrp')),
    command('whoami', async (_a, ctx) => ok(`${currentUser(ctx)}\n`)),
    command('su', (a, ctx) => su(host, a, ctx)),
    command('runuser', (a, ctx) => su(host, a, ctx, 'runuser')),
    command('sudo', (a, ctx) => sudo(host, a, ctx)),
    command('passwd', async (a) => (a.length && !(await findUser(host, a[a.length - 1])) ? fail(`passwd: user '${a[a.length - 1]}' does not exist`) : ok('passwd: password updated successfully\n'))),
    command('chpasswd', async () => ok()),
  ];
}

/** Names of owners for `ls -l`. */
export async function ownerNames(host: Host): Promise<{ user: Map<number, string>; group: Map<number, string> }> {
  const user = new Map((await readUsers(host)).map((u) => [u.uid, u.name] as [number, string]));
  const group = new Map((await readGroups(host)).map((g) => [g.gid, g.name] as [number, string]));
  return { user, group };
}
