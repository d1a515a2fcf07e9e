/**
 * The embedded shell's GNU behaviours that the AgentBench test tasks rely on (issue 18 item 4):
 * du, stat --format, date -d, truncate, dd, ps -e, who, grep -c -v / bundled options / -H,
 * find -executable and symbolic -perm, ls -l with setuid/setgid/sticky, per-user permissions,
 * su/runuser, sudo following /etc/sudoers, pipelines into if/case/for, `cmd &`'s status.
 * Expected texts are what Ubuntu 22.04 prints for the same commands.
 */
import { describe, expect, it } from 'vitest';
import { createEmbeddedShell, type EmbeddedShell } from '../../envs/os/embedded/index.ts';
import { humanSize, relativeDate } from '../../envs/os/embedded/coreutils.ts';

const NOW = Date.UTC(2024, 4, 15, 10, 30);
const shell = () => createEmbeddedShell({ seed: 3, wallClock: () => 0, epochMs: NOW });
async function out(sh: EmbeddedShell, command: string): Promise<string> {
  return (await sh.exec(command)).output;
}

describe('os shell: coreutils', () => {
  it('du counts 4 KiB blocks; -b/--apparent-size bytes; -k -c -s -h -B1', async () => {
    const sh = await shell();
    await sh.exec('mkdir -p /d/s && printf "%05000d" 0 > /d/a && echo hi > /d/s/b && touch /d/e');
    expect(await out(sh, 'du /d')).toBe('8\t/d/s\n20\t/d\n');
    expect(await out(sh, 'du -b /d/a /d/s/b')).toBe('5000\t/d/a\n3\t/d/s/b\n');
    expect(await out(sh, 'du -sb /d')).toBe(`${4096 * 2 + 5000 + 3}\t/d\n`);
    expect(await out(sh, 'du -ck /d/a /d/s/b')).toBe('8\t/d/a\n4\t/d/s/b\n12\ttotal\n');
    expect(await out(sh, 'du -ckB1 /d/a')).toBe('8192\t/d/a\n8192\ttotal\n');
    expect(await out(sh, 'du -sh /d; du -h --apparent-size /d/a')).toBe('20K\t/d\n4.9K\t/d/a\n');
    expect(await out(sh, 'du -s --apparent-size /d')).toBe('13\t/d\n');
    expect((await sh.exec('du -b /nope')).output).toBe("du: cannot access '/nope': No such file or directory\n");
    expect([humanSize(0), humanSize(1023), humanSize(1024), humanSize(5000), humanSize(10 * 1024 + 1), humanSize(1024 ** 2 * 1.5)]).toEqual(['0', '1023', '1.0K', '4.9K', '11K', '1.5M']);
  });

  it('stat --format/-c/--printf with owners; truncate; dd', async () => {
    const sh = await shell();
    await sh.exec('useradd -m bob && echo hello > /f && chown bob /f && chmod 4750 /f');
    expect(await out(sh, 'stat --format="%s %a %A %U %G %n" /f; stat -c %F /f /home')).toBe('6 4750 -rwsr-x--- bob root /f\nregular file\ndirectory\n');
    expect(await out(sh, "stat --printf='%s\\n' /f")).toBe('6\n');
    expect(await out(sh, 'truncate -s 10K /t && stat -c %s /t && truncate -s -240 /t && stat -c %s /t && truncate -s 2 /f && cat /f')).toBe('10240\n10000\nhe');
    expect(await out(sh, 'dd if=/dev/zero of=/z bs=1024 count=3 status=none && stat -c %s /z')).toBe('3072\n');
    expect((await sh.exec('dd if=/dev/urandom of=/r bs=1K count=2')).output).toMatch(/^2\+0 records in\n2\+0 records out\n2048 bytes/);
  });

  it('date on the simulated clock, with relative dates', async () => {
    const sh = await shell();
    expect(await out(sh, 'date +%F; date -d "-30 days" +%F; date --date="7 days ago" +%Y-%m-%d; date -d yesterday +%F; date -d "2 weeks" +%F')).toBe(
      '2024-05-15\n2024-04-15\n2024-05-08\n2024-05-14\n2024-05-29\n',
    );
    expect(await out(sh, 'date -d 2023-5-1 +%Y/%m/%d')).toBe('2023/05/01\n');
    expect(relativeDate('next month', NOW)).toBe(Date.UTC(2024, 5, 15, 10, 30));
    expect(relativeDate('2023-05-01', NOW)).toBeNull();
  });

  it('grep -c -v, bundled -cve, -H; find -executable and -perm /u=x; who; ps -e', async () => {
    const sh = await shell();
    await sh.exec('printf "a\\n\\n  \\nb\\n" > /t');
    expect(await out(sh, 'grep -c -v "^$" /t; grep -cve "^ *$" /t; grep -H a /t; grep -cH b /t')).toBe('3\n2\n/t:a\n/t:1\n');
    await sh.exec('mkdir /x && touch /x/a /x/b && chmod 755 /x/a && chmod 700 /x/b');
    expect(await out(sh, 'find /x -type f -executable | sort; find /x -type f -perm /u=x | wc -l; find /x -type f -perm -g=x')).toBe('/x/a\n/x/b\n2\n/x/a\n');
    expect(await out(sh, 'who | wc -l')).toBe('0\n');
    expect(await out(sh, 'ps -e | head -1')).toBe('    PID TTY          TIME CMD\n');
  });

  it('ls -l shows modes with setuid/setgid/sticky, owners, sizes, symlinks', async () => {
    const sh = await shell();
    await sh.exec('mkdir /data && chmod g+s /data && chmod +t /data && chmod u+s /usr/bin/find && useradd bob && touch /data/f && chown bob /data/f && ln -s /data/f /data/l');
    expect(await out(sh, 'ls -ld /data /tmp')).toBe('drwxr-sr-t 2 root root 4096 May 15 10:30 /data\ndrwxrwxrwt 2 root root 4096 Apr 15 10:30 /tmp\n');
    // The image's files are a month older than the boot (the container's start).
    expect(await out(sh, 'ls -l /usr/bin/find')).toMatch(/^-rwsr-xr-x 1 root root +\d+ Apr 15 10:30 \/usr\/bin\/find\n$/);
    // (A symlink's own time is the real one: the in-memory filesystem cannot set it.)
    expect(await out(sh, 'ls -l /data')).toMatch(/^total 0\n-rw-r--r-- 1 bob  root 0 May 15 10:30 f\nlrwxrwxrwx 1 root root 7 \w{3} [ \d]\d [ \d:]{5} l -> \/data\/f\n$/);
  });
});

describe('os shell: users and permissions', () => {
  it('reads, writes and execution follow the mode bits for other users', async () => {
    const sh = await shell();
    await sh.run('echo test > /testfile && useradd -m jack && useradd -m george && groupadd tmp && usermod -a -G tmp jack && chmod 640 /testfile && chgrp tmp /testfile');
    expect((await sh.run("runuser -l jack -c 'cat /testfile; whoami; pwd'")).output).toBe('test\njack\n/home/jack\n');
    const george = await sh.run("runuser -l george -c 'cat /testfile'");
    expect(george.exitCode).not.toBe(0);
    expect(george.output).toBe('cat: /testfile: Permission denied\n');
    expect((await sh.run("su george -c 'echo x > /etc/x'")).output).toBe('bash: /etc/x: Permission denied\n');
    expect((await sh.run("su george -c 'echo x > /tmp/g && stat -c %U /tmp/g'")).output).toBe('george\n');
    expect((await sh.run("su jack -c 'head -1 /etc/shadow'")).exitCode).not.toBe(0);
    // The check script of test task 6-new-02: group members read it, george does not.
    const check = `(runuser -l jack -c 'cat /testfile' && runuser -l george -c 'cat /testfile') | if [ "$(cat -)" = "test" ]; then exit 0; else exit 1; fi`;
    expect((await sh.run(check)).exitCode).toBe(0);
  });

  it('an interactive su - USER logs the session in until exit', async () => {
    const sh = await shell();
    await sh.exec("useradd -s /bin/bash -d /home/jack -m jack && cd /home/jack && echo 'echo love' > test && chmod 000 test && chown jack test && su - jack");
    expect(await out(sh, 'whoami; pwd; echo $HOME')).toBe('jack\n/home/jack\n/home/jack\n');
    expect((await sh.exec('./test')).output).toMatch(/Permission denied/);
    expect(await out(sh, 'chmod 777 test && ~/test')).toBe('love\n');
    expect(await out(sh, 'exit')).toBe('logout\n');
    expect(await out(sh, 'whoami')).toBe('root\n');
  });

  it('sudo is absent until apt installs it, then follows /etc/sudoers', async () => {
    const sh = await shell();
    expect(await sh.exec('sudo whoami')).toMatchObject({ exitCode: 127, output: 'bash: sudo: command not found\n' });
    expect((await sh.exec('apt remove sudo')).output).toContain("Package 'sudo' is not installed, so not removed");
    expect((await sh.exec('apt install sudo')).exitCode).toBe(1); // no -y: apt asks and aborts
    expect((await sh.exec('apt update && apt install sudo -y')).exitCode).toBe(0);
    expect(await out(sh, 'sudo whoami')).toBe('root\n');
    await sh.exec("echo '' > /etc/sudoers");
    expect(await out(sh, 'sudo whoami')).toBe('root is not in the sudoers file.  This incident will be reported.\n');
    await sh.exec("echo 'root ALL=(ALL:ALL) ALL' > /etc/sudoers && useradd -m -G sudo ann && useradd -m ben");
    expect(await out(sh, 'sudo whoami; stat -c %a /etc/sudoers')).toBe('root\n440\n');
    expect((await sh.run("su ben -c 'sudo whoami'")).output).toBe('ben is not in the sudoers file.  This incident will be reported.\n');
    await sh.exec("echo '%sudo ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/90-sudo && echo '@includedir /etc/sudoers.d' >> /etc/sudoers");
    expect((await sh.run("su ann -c 'sudo whoami'")).output).toBe('root\n');
  });

  it('pipelines feed if/case/for; `cmd &` succeeds', async () => {
    const sh = await shell();
    expect(await out(sh, 'echo test | if [ "$(cat -)" = test ]; then echo Y; else echo N; fi')).toBe('Y\n');
    expect(await out(sh, 'echo a | case x in x) cat;; esac; echo b | for i in 1; do cat; done')).toBe('a\nb\n');
    expect(await out(sh, 'false & echo "status $?"')).toBe('status 0\n');
    expect((await sh.run('for i in 1 2; do nosuch & done')).exitCode).toBe(0);
  });
});
