/**
 * Readers' errors worded as GNU's (just-bash words every one "NAME: FILE: No such file or directory", a
 * directory too; find's path unquoted, sed's without "can't read"), and head's count from the end. Missing files and directories: compared with GNU coreutils run here (both streams on one
 * pipe, as on upstream's terminal). Refused reads: GNU coreutils 9.1 (Debian 12) run as `nobody` on a
 * root-only file, recorded below (a test cannot count on running as root to switch users).
 */
import { describe, expect, it } from 'vitest';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';
import { differencesFromGnu } from '../support/gnu-compare.ts';

const SETUP = 'mkdir -p d && echo a > a && printf "b\\na\\n" > b';

const SCRIPTS = [
  'head missing; echo $?',
  'tail missing; echo $?',
  'tail -n1 a missing; echo $?',
  'head -c1 a missing; echo $?',
  'md5sum a missing; echo $?',
  "head 'my file'; echo $?",
  "cat 'my file' a; echo $?",
  'sort missing; echo $?',
  'sort b missing; echo $?',
  'tac missing; echo $?',
  'md5sum missing; echo $?',
  'base64 missing; echo $?',
  'wc -l missing; echo $?',
  'cat a missing a; echo $?',
  'head d; echo $?',
  'tail d; echo $?',
  'cat d; echo $?',
  'cat a d a; echo $?',
  'sort d; echo $?',
  'tac d; echo $?',
  'md5sum d; echo $?',
  'base64 d; echo $?',
  'find missing; echo $?',
  'find d missing; echo $?',
  'sed p missing; echo $?',
  'sed -i s/a/b/ missing; echo $?',
  // head's count from the end (just-bash refused it: "head: invalid number of lines")
  'head -n -1 b; head -n-1 b; head --lines=-1 b',
  'printf "x\ny" | head -n -1; echo; printf "abcdef" | head -c -2; echo',
  'head -n -5 b; echo $?',
  'head -n -1 missing; echo $?',
  'head -n -1 d; echo $?',
];

/** GNU coreutils 9.1, `su nobody -s /bin/bash -c 'exec 2>&1; CMD; echo $?'` on a file of mode 600 owned by root. */
const REFUSED: [string, string][] = [
  ['head /root/s; echo $?', "head: cannot open '/root/s' for reading: Permission denied\n1\n"],
  ['tail /root/s; echo $?', "tail: cannot open '/root/s' for reading: Permission denied\n1\n"],
  ['sort /root/s; echo $?', 'sort: cannot read: /root/s: Permission denied\n2\n'],
  ['tac /root/s; echo $?', "tac: failed to open '/root/s' for reading: Permission denied\n1\n"],
  ['wc /root/s; echo $?', 'wc: /root/s: Permission denied\n1\n'],
  ['cat /root/s; echo $?', 'cat: /root/s: Permission denied\n1\n'],
  ['md5sum /root/s; echo $?', 'md5sum: /root/s: Permission denied\n1\n'],
  ['base64 /root/s; echo $?', 'base64: /root/s: Permission denied\n1\n'],
];

describe('readers word their errors as GNU’s', () => {
  it('missing files and directories, as GNU coreutils says them here', async () => {
    expect(await differencesFromGnu(SCRIPTS, SETUP)).toBe('');
  }, 60_000);

  it('a file the user may not read, as GNU coreutils says it', async () => {
    const shell = await createEmbeddedShell({ seed: 1 });
    await shell.exec('useradd -m tom; echo hi > /root/s; chmod 600 /root/s');
    for (const [script, gnu] of REFUSED) {
      expect((await shell.exec(`su tom -c '${script}'`)).output, script).toBe(gnu);
    }
  });
});
