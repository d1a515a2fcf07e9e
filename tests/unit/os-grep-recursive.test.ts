/**
 * Recursive grep as GNU grep 3.8 (Debian 12, run here; both streams on one pipe, as on upstream's terminal):
 * `grep -r x` with no file searches "."; files under "." are named "./a"; a missing operand is reported
 * (status 2); -s keeps such messages quiet. GNU walks a directory in the filesystem's order, so scripts whose
 * output has several files sort it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedShell } from '../../envs/os/embedded/index.ts';

const SETUP = 'mkdir -p d e && echo a > a && echo a > d/f && touch e/x';

const SCRIPTS = [
  'grep -r a . | sort',
  'grep -r a | sort',
  'grep -rl a . | sort',
  'grep -rn a . | sort',
  'grep -rc a . | sort',
  'grep -rh a .',
  'echo b | grep -r a | sort',
  'grep -r -e a -e b | sort',
  'grep -r a d',
  'grep -r x missing; echo $?',
  'grep -r a missing d; echo $?',
  'grep -rq a . missing; echo $?',
  'grep -rs x missing; echo $?',
  'grep -s a missing; echo $?',
  'grep -e -s a; echo $?',
];

describe('recursive grep, as GNU grep', () => {
  it('searches, names and reports as GNU grep does here', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grep-r-'));
    execFileSync('bash', ['-c', SETUP], { cwd: dir });
    const shell = await createEmbeddedShell({ seed: 1 });
    await shell.exec(`mkdir -p /w && cd /w && ${SETUP}`);
    const differ: string[] = [];
    for (const script of SCRIPTS) {
      const gnu = execFileSync('bash', ['-c', `exec 2>&1; ${script}\ntrue`], { cwd: dir, env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString();
      const got = (await shell.exec(`cd /w; ${script}`)).output;
      if (got !== gnu) differ.push(`${script}\n  gnu: ${JSON.stringify(gnu)}\n  got: ${JSON.stringify(got)}`);
    }
    expect(differ.join('\n')).toBe('');
  }, 60_000);
});
